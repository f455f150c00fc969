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

// ---- The rest of a chunk by step codes ------------------------------------------------
//
// The walk's rest of a chunk is a chain through the sum, one term after the
// other, and LoopAddBits puts the whole one-term rule (some fifty integer
// operations, with branches) on that chain. Yet each term's increment under
// the sum's binade depends on the term alone: the walk's block forms them
// all at once as step codes, and the one thread that adds them is left a
// few operations a term (docs/ordered-sum.md, "Without f64 arithmetic").

// A term's step code under binade key: the smaller of its two increments
// (TermIncrementBits), times two, plus one where they differ, a tie: q and
// q + 1, of which the one that leaves the sum's integer even applies.
S2C_HD uint64_t TermStepCode(uint64_t x, int key) {
  const SumIncrement r = TermIncrementBits(x, key);
  return ((r.even < r.odd ? r.even : r.odd) << 1) | (r.even != r.odd);
}

// The increment a step code gives the sum whose integer in its binade is m.
S2C_HD uint64_t CodeStep(uint64_t code, uint64_t m) {
  const uint64_t q = code >> 1;
  return q + (code & (m ^ q) & 1);  // mutation-point: codestep
}

// A run's increment by step codes, for rules whose increments compose by
// plain totals (NonNegativeTerms, ClampedTerms; the walk's lanes): where no
// term of the run is a tie, the total of its terms' increments with one
// saturation at the end (PlainTotal: such increments compose so,
// SameFromEitherParity), one add a term instead of Then; the f64 fast
// rule's counterpart on bits. Where a term is a tie, the terms' increments
// composed in order. At most 2^10 terms (each increment is at most
// kSumUnfit).
S2C_HD SumIncrement RunIncrementBits(const uint64_t* x, int n, int plan) {
  uint64_t total = 0, tie = 0;  // tie: bit 0 set where a term was a tie
  for (int j = 0; j < n; ++j) {
    const uint64_t code = TermStepCode(x[j], plan);
    total += code >> 1;
    tie |= code;
  }
  if (!(tie & 1)) return PlainTotal(total);  // mutation-point: plainbits
  SumIncrement r = kSumNothing;
  for (int j = 0; j < n; ++j) r = Then(r, TermIncrementBits(x[j], plan));
  return r;
}

// A rest recomputes its codes once the sum has moved into another binade
// with at least this many terms left; fewer go through LoopAddBits.
constexpr int kSumRecodeTerms = 8;

// The rest takes up to this many terms at once where none is a tie and
// their total keeps the sum in its binade: their steps do not depend on the
// sum's parity then, and every partial sum lies between the first and the
// last (the steps are >= 0), so one add gives what the adds one by one would.
// The total is formed from the codes alone, off the sum's dependent chain,
// which is left one check and one add for the group.
constexpr int kSumRestGroup = 32;

// AddRestBits from term *first on, given code[i] = TermStepCode(x[i], key)
// for every i >= *first (key 1..2046, else no code is read): the codes'
// steps while the sum stays in binade key and the step keeps it there (a
// group of them at a time where it can), which is LoopAddBits' increment;
// LoopAddBits elsewhere. Stops after a term that takes the sum into another
// binade with kSumRecodeTerms terms or more left, so that the codes are
// formed again; *first is where to go on from (nterms once done).
S2C_HD uint64_t AddRestCoded(uint64_t s, const uint64_t* x, const uint64_t* code, int key,
                             int nterms, int* first) {
  const uint64_t base = static_cast<uint64_t>(key - 1) << 52;
  bool in_key = key >= 1 && BinadeKey(s) == key;
  int one_by_one = *first;  // terms before this go one by one: their group did not fit
  for (int i = *first; i < nterms; ++i) {
    if (in_key) {
      if (i >= one_by_one) {
        const int end = nterms - i < kSumRestGroup ? nterms : i + kSumRestGroup;
        uint64_t total = 0, tie = 0;
        for (int j = i; j < end; ++j) {
          total += code[j] >> 1;
          tie |= code[j];
        }
        if (!(tie & 1) && s - base + total <= kSumMaxStep) {  // mutation-point: restgroup
          s += total;
          i = end - 1;
          continue;
        }
        one_by_one = end;
      }
      const uint64_t m = s - base;
      const uint64_t step = CodeStep(code[i], m);
      if (m + step <= kSumMaxStep) {  // mutation-point: codebound
        s += step;
        continue;
      }
    }
    s = LoopAddBits(s, x[i]);
    const int now = BinadeKey(s);
    in_key = key >= 1 && now == key;
    if (!in_key && now != kPlanTermByTerm && nterms - i - 1 >= kSumRecodeTerms) {
      *first = i + 1;
      return s;
    }
  }
  *first = nterms;
  return s;
}

// The rest as the walk's block forms it, for the host tests: codes under
// the sum's binade for the terms left, AddRestCoded, again until done.
// code has room for nterms codes.
S2C_HD uint64_t AddRestByCodes(uint64_t s, const uint64_t* x, uint64_t* code, int nterms,
                               int first) {
  while (first < nterms) {
    const int key = BinadeKey(s);
    if (key >= 1) {
      for (int i = first; i < nterms; ++i) code[i] = TermStepCode(x[i], key);
    }
    s = AddRestCoded(s, x, code, key, nterms, &first);
  }
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
  // The walk adds a chunk's rest by step codes (AddRestCoded); AddRest is
  // the one-thread form.
  static constexpr bool kCodedRest = true;
  // A soft add a term, its codes formed again at each binade: a climbing
  // sum goes back to rounds after kSumRoundMinLanes lanes (TermByTermEnd).
  static constexpr bool kClimbs = true;
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
    if constexpr (Rule::kPlainTotals) {
      return RunIncrementBits(x, kSumLaneTerms, plan);
    } else {
      typename Rule::Increment r = Rule::kNothing;
      for (int j = 0; j < kSumLaneTerms; ++j) r = Rule::Compose(r, Rule::TermBits(x[j], plan));
      return r;
    }
  }
};

}  // namespace s2c

#endif  // S2C_ORDERED_SUM_BITS_H_
