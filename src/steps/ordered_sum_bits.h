// SPDX-License-Identifier: BSD-3-Clause
// The ordered sum's term-by-term adds without f64 arithmetic, on bit
// patterns, for GPUs whose fp64 units are slow (docs/ordered-sum.md,
// "Without f64 arithmetic"). Each gives the bits of its f64 form in
// ordered_sum.h on every input, NaN and inf included.
#ifndef S2C_ORDERED_SUM_BITS_H_
#define S2C_ORDERED_SUM_BITS_H_

#include <cstdint>

#include "steps/hd.h"
#include "steps/ordered_sum.h"
#include "steps/soft_double.h"

namespace s2c {

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

}  // namespace s2c

#endif  // S2C_ORDERED_SUM_BITS_H_
