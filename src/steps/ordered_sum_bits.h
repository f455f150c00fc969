// SPDX-License-Identifier: BSD-3-Clause
// The ordered sum's term-by-term adds without f64 arithmetic, on bit
// patterns, for GPUs whose fp64 units are slow (docs/ordered-sum.md,
// "Without f64 arithmetic"). Each gives the bits of its f64 form in
// ordered_sum.h on every input, NaN and inf included.
#ifndef S2C_ORDERED_SUM_BITS_H_
#define S2C_ORDERED_SUM_BITS_H_

#include <cstdint>
#include <cstring>

#include "steps/hd.h"
#include "steps/ordered_sum.h"
#include "steps/soft_double.h"

namespace s2c {

constexpr uint32_t kFloatQuietNan = 0x400000u;

// LoopAdd(s, x) on bit patterns. While the sum stays in its binade, the
// term's increment under the sum's own binade (the one-term rule, checked by
// TryAdvance); elsewhere (the sum leaves its binade or is in none, a negative
// term, inf, NaN) the soft double's add, whose NaNs are x86-64's as
// LoopAdd's are.
S2C_HD uint64_t LoopAddBits(uint64_t s, uint64_t x) {
  const int key = BinadeKey(s);
  if (TryAdvance(&s, key, TermIncrementBits(x, key))) return s;  // mutation-point: bitsadd
  return SoftToBits(SoftFromBits(s) + SoftFromBits(x));
}

// AddLane and AddRest on bit patterns. The soft add is the loop's add
// whatever the terms, so AddRest's shortcut for finite chunks has no
// counterpart here.
S2C_HD uint64_t AddLaneBits(uint64_t s, const uint64_t* x, int nterms, int lane) {
  for (int j = 0; j < kSumLaneTerms; ++j) {
    const int i = lane * kSumLaneTerms + j;
    if (i < nterms) s = LoopAddBits(s, x[i]);
  }
  return s;
}

S2C_HD uint64_t AddRestBits(uint64_t s, const uint64_t* x, int nterms, int first) {
  for (int i = first; i < nterms; ++i) s = LoopAddBits(s, x[i]);
  return s;
}

// The advice of a term (bits b) as a float: the value times 2^scale_exp
// (kFloatAdviceExp for the ordered sum), its significand cut to the float's
// 24 bits, zero below the float's normal range and infinite above it. Only
// plans read advice, so any approximation will do; this one takes a few
// integer operations.
S2C_HD float FloatAdviceOfBits(uint64_t b, int scale_exp) {
  const uint32_t sign = static_cast<uint32_t>(b >> 63) << 31;
  const int e = static_cast<int>((b >> 52) & 0x7FF);
  uint32_t f;
  if (e == 0x7FF) {
    f = sign | 0x7F800000u | ((b & kSoftFraction) != 0 ? kFloatQuietNan : 0u);
  } else {
    const int fe = e == 0 ? 0 : e - 1023 + scale_exp + 127;
    if (fe <= 0) {
      f = sign;
    } else if (fe >= 0xFF) {
      f = sign | 0x7F800000u;
    } else {
      f = sign | (static_cast<uint32_t>(fe) << 23) |
          static_cast<uint32_t>((b & kSoftFraction) >> 29);
    }
  }
  float out;
  memcpy(&out, &f, sizeof out);
  return out;
}

// The ordered sum's arithmetic on terms given as bit patterns (TermsAsDoubles
// in ordered_sum.h is the f64 one): the term-by-term adds above, increments
// by the exact rule (its fast rule is f64 arithmetic), float advice.
struct TermsAsBits {
  using Term = uint64_t;
  using Advice = float;  // the value times 2^kFloatAdviceExp
  static constexpr bool kFastRule = false;
  S2C_HD static Advice AdviceOf(uint64_t x) { return FloatAdviceOfBits(x, kFloatAdviceExp); }
  // AddRestBits is the loop's add whatever the terms: nothing to vote on.
  S2C_HD static bool Finite(const uint64_t*, int) { return true; }
  S2C_HD static uint64_t AddLane(uint64_t s, const uint64_t* x, int nterms, int lane) {
    return AddLaneBits(s, x, nterms, lane);
  }
  S2C_HD static uint64_t AddRest(uint64_t s, const uint64_t* x, int nterms, int first, bool) {
    return AddRestBits(s, x, nterms, first);
  }
  template <class Rule>
  S2C_HD static typename Rule::Increment OneTerm(uint64_t x, int plan) {
    return Rule::TermBits(x, plan);
  }
  template <class Rule>
  S2C_HD static typename Rule::Increment Lane(const uint64_t* x, int plan) {
    typename Rule::Increment r = Rule::kNothing;
    for (int j = 0; j < kSumLaneTerms; ++j) r = Rule::Compose(r, Rule::TermBits(x[j], plan));
    return r;
  }
};

}  // namespace s2c

#endif  // S2C_ORDERED_SUM_BITS_H_
