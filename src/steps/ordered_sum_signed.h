// SPDX-License-Identifier: BSD-3-Clause
// The exact ordered sum of terms of either sign (SSIM's: a pixel whose
// covariance is negative gives a negative term). The same pipeline as
// src/steps/ordered_sum.h, under a rule of its own (SignedTerms), so that the
// non-negative sums of SSIMULACRA 2 keep their cheaper rule.
//
// What changes when terms can be negative:
// - The sum may be negative. RNE is symmetric, so s + x = -((-s) + (-x)):
//   a negative sum has the key -k of its magnitude's binade k, and its
//   increments are those of the negated terms, on the magnitude's bits.
// - Inside one binade a negative term is still an integer step (of -r: the
//   magnitude rounded as for a positive term, ties to the even result), but
//   the running sum may now fall out of the binade's bottom, where the grid
//   is finer and the integer model is wrong. So an increment carries, beside
//   its parity pair of totals, its reach: the highest partial sum after a
//   step up (hi) and the lowest after a step down (lo), relative to the
//   start; a run is taken only if every partial sum stays inside the
//   binade: m + hi <= 2^53 and m + lo > the binade's first value.
// - Runs compose as before (Then: the second run's pair chosen by the parity
//   the first leaves); the second run's reach is shifted by the first's
//   total (the larger of the pair for hi, the smaller for lo, which only
//   widens it where a tie left the two apart). A longer prefix of lanes
//   reaches at least as far, so the lanes a round accepts are still a
//   leading stretch.
#ifndef S2C_ORDERED_SUM_SIGNED_H_
#define S2C_ORDERED_SUM_SIGNED_H_

#include <cmath>
#include <cstdint>

#include "steps/ordered_sum.h"

namespace s2c {

constexpr uint64_t kSumSignBit = uint64_t{1} << 63;

// Increments of a run of signed terms, in units of the last place of the
// sum's binade (toward larger magnitude positive): even applies when the
// sum's integer m is even before the run, odd when odd. hi is at least every
// partial sum after a step up, lo at most every one after a step down,
// relative to m; kSumNoReach (-kSumNoReach for lo) where there is no such
// step. A run that cannot be taken at all (inf, NaN, a reach beyond 2^53)
// is kSignedUnfit, whose reach fails every check.
constexpr int64_t kSumNoReach = int64_t{1} << 61;  // far beyond any fit reach
struct SignedIncrement {
  int64_t even;
  int64_t odd;
  int64_t hi;
  int64_t lo;
};
constexpr SignedIncrement kSignedNothing = {0, 0, -kSumNoReach, kSumNoReach};
constexpr SignedIncrement kSignedUnfit = {0, 0, kSumNoReach, -kSumNoReach};
constexpr int64_t kSumMaxReach = static_cast<int64_t>(kSumMaxStep);

// The signed binade key of a sum: k for a positive sum in binade k, -k for a
// negative one, kPlanTermByTerm for inf, NaN and -0.0 (which the loop, from
// +0.0, never makes: an exact zero result of an add is +0.0).
S2C_HD int SignedKey(uint64_t bits) {
  if (bits == kSumSignBit) return kPlanTermByTerm;
  const int key = BinadeKey(bits & ~kSumSignBit);
  if (key == kPlanTermByTerm) return key;
  return (bits & kSumSignBit) ? -key : key;
}

// The one-term rule: the magnitude's increment as for a positive term
// (TermIncrement; ties round to the even result either way), negated where
// the term's sign is not the sum's. Infinities and NaN are unfit. A step
// toward zero is one even where it rounds to nothing: from the binade's
// first value, a term of a quarter to a half unit takes the sum to the
// finer grid below (lo = 0 makes TryAdvance refuse it there).
S2C_HD SignedIncrement SignedTermIncrementBits(uint64_t b, int plan) {
  if ((b << 1) == 0) return kSignedNothing;  // +0.0 and -0.0 leave s as it is
  if (plan == kPlanZero || plan == kPlanTermByTerm) return kSignedUnfit;
  const SumIncrement r = TermIncrementBits(b & ~kSumSignBit, plan < 0 ? -plan : plan);
  if (r.even > kSumMaxStep || r.odd > kSumMaxStep) return kSignedUnfit;
  const int64_t even = static_cast<int64_t>(r.even), odd = static_cast<int64_t>(r.odd);
  const int64_t most = even > odd ? even : odd;
  const bool toward_zero = ((b & kSumSignBit) != 0) != (plan < 0);  // mutation-point: sign
  if (toward_zero) return {-even, -odd, -kSumNoReach, -most};  // mutation-point: awayzero
  if (most == 0) return kSignedNothing;  // rounds away upward: s stays, no reach
  return {even, odd, most, kSumNoReach};
}
S2C_HD SignedIncrement SignedTermIncrement(double x, int plan) {
  return SignedTermIncrementBits(SumBits(x), plan);
}

// The run a followed by the run b (associative, not commutative). Every
// value stays within +-2^62: totals within the fit reach, reaches within
// kSumNoReach (2^61) plus a total.
S2C_HD SignedIncrement Then(SignedIncrement a, SignedIncrement b) {
  const int64_t most = a.even > a.odd ? a.even : a.odd;
  const int64_t least = a.even < a.odd ? a.even : a.odd;
  const int64_t b_hi = most + b.hi, b_lo = least + b.lo;  // mutation-point: shift
  const int64_t hi = a.hi > b_hi ? a.hi : b_hi;
  const int64_t lo = a.lo < b_lo ? a.lo : b_lo;
  if (hi > kSumMaxReach || lo < -kSumMaxReach) return kSignedUnfit;
  const bool after_even = (a.even & 1) != 0;      // parity after a, from even
  const bool after_odd = ((a.odd + 1) & 1) != 0;  // parity after a, from odd
  return {a.even + (after_even ? b.odd : b.even),  // mutation-point: signedparity
          a.odd + (after_odd ? b.odd : b.even), hi, lo};
}

// The checked step: adds run r, composed under plan, to the sum s (bits) if
// s lies in the planned binade and every partial sum stays inside it: below
// or at its end (2^53 units, where rounding is still on its grid) and, where
// the run has a negative step, strictly above its first value, so that no
// add can round on a finer grid. (Key 1's grid is also the subnormals': a
// positive sum there may fall to any value down to its first, +0.0; the
// strict bound also refuses that, which only costs time.)
S2C_HD bool TryAdvance(uint64_t* s, int plan, SignedIncrement r) {
  if (plan == kPlanZero) {  // zeros keep any s
    return r.even == 0 && r.odd == 0 && r.hi == -kSumNoReach && r.lo == kSumNoReach;
  }
  if (plan == kPlanTermByTerm) return false;
  if (SignedKey(*s) != plan) return false;  // mutation-point: signedbinade
  const int key = plan < 0 ? -plan : plan;
  const int64_t m =
      static_cast<int64_t>((*s & ~kSumSignBit) - (static_cast<uint64_t>(key - 1) << 52));
  if (m + r.hi > kSumMaxReach) return false;  // mutation-point: up
  const int64_t first = key > 1 ? kSumMaxReach / 2 : 0;
  if (m + r.lo <= first) return false;  // mutation-point: down
  *s += static_cast<uint64_t>((m & 1) ? r.odd : r.even);  // the sign bit stays
  return true;
}

// The signed binade key of the double an advice value stands for
// (AdviceKey, src/steps/ordered_sum.h), kPlanTermByTerm for -0.0 as for a sum.
template <class Advice>
S2C_HD int SignedAdviceKey(Advice a) {
  if (a == Advice(0) && std::signbit(a)) return kPlanTermByTerm;
  const int key = AdviceKey(std::fabs(a));
  if (key == kPlanTermByTerm) return key;
  return std::signbit(a) ? -key : key;
}

// The plan of a chunk from approximate sums before it and at its end: the
// key both share, each widened by `margin` relative (PlanChunk's), or term
// by term where the sum leaves zero, changes sign or binade. The partial
// sums inside the chunk may still leave the binade; the walk's check sees
// that.
template <class Advice>
S2C_HD int32_t SignedPlanChunk(Advice before, Advice after, Advice margin) {
  if (before == Advice(0) && after == Advice(0)) return kPlanZero;
  if (!(before != Advice(0))) return kPlanTermByTerm;  // the sum leaves zero, or NaN
  const Advice lo = std::fmin(before, after), hi = std::fmax(before, after);
  const int key = SignedAdviceKey(lo - std::fabs(lo) * margin);
  if (key != SignedAdviceKey(hi + std::fabs(hi) * margin)) return kPlanTermByTerm;
  return key;
}

// The fast rule for signed terms: as for non-negative ones, y = x times the
// plan's scale (negative for a negative sum, so that y counts toward larger
// magnitude), rint(y) the whole units, their running total exact while every
// partial total is below 2^53 in magnitude, which the reach (the highest
// partial after a step up, the lowest after a step down) bounds. A tie, an
// infinite or a NaN y all fail |y - rint(y)| < 0.5 and send the run to the
// exact rule; so does a span of the reach of 2^53 or more (a term two
// binades above the plan, a plan below key 52, whose scale is NaN).
S2C_HD double SignedFastScale(int plan) {
  if (plan == kPlanZero || plan == kPlanTermByTerm) return SumDouble(uint64_t{0x7FF8} << 48);
  const double scale = FastRuleScale(plan < 0 ? -plan : plan);
  return plan < 0 ? -scale : scale;
}

struct SignedTerms {
  using Increment = SignedIncrement;
  static constexpr Increment kNothing = kSignedNothing;
  static constexpr Increment kUnfitPair = kSignedUnfit;
  static constexpr bool kPlainTotals = false;
  // A window of 32-byte increments fits the walk's static shared memory at
  // half the length.
  static constexpr int kWalkWindow = 512;
  struct Fast {
    double units = 0.0;
    double hi = -static_cast<double>(kSumNoReach);
    double lo = static_cast<double>(kSumNoReach);
    bool tie = false;  // or inf or NaN
  };
  struct FastShared {};
  S2C_HD static int Key(uint64_t s) { return SignedKey(s); }
  S2C_HD static Increment Term(double x, int plan) { return SignedTermIncrement(x, plan); }
  S2C_HD static Increment TermBits(uint64_t x, int plan) { return SignedTermIncrementBits(x, plan); }
  S2C_HD static Increment Compose(Increment a, Increment b) { return Then(a, b); }
  S2C_HD static bool Advance(uint64_t* s, int plan, Increment r) { return TryAdvance(s, plan, r); }
  // PlanChunk's margins: 2^-30 for double advice, 2^-16 for float advice.
  S2C_HD static int32_t Plan(double before, double after) {
    return SignedPlanChunk(before, after, 1.0 / (1 << 30));
  }
  S2C_HD static int32_t Plan(float before, float after) {
    return SignedPlanChunk(before, after, 1.0f / (1 << 16));
  }
  S2C_HD static double FastScale(int plan) { return SignedFastScale(plan); }
  S2C_HD static void FastAdd(Fast& f, double x, double scale, FastShared&) {
    const double y = x * scale;
    const double whole = rint(y);
    const bool whole_units = fabs(y - whole) < 0.5;  // not a tie, inf or NaN  // mutation-point: signedfastnan
    f.tie |= !whole_units;  // mutation-point: signedfasttie
    f.units += whole;
    f.hi = whole > 0.0 ? fmax(f.hi, f.units) : f.hi;  // mutation-point: fastreach
    // Any term toward zero is a step down, even one that rounds to nothing
    // (or whose y underflows to -0.0): the exact rule's.
    const bool down = x != 0.0 && ((x < 0.0) != (scale < 0.0));
    f.lo = down ? fmin(f.lo, f.units) : f.lo;  // mutation-point: fastdown
  }
  S2C_HD static bool FastTaken(const Fast& f, const FastShared&) {
    // Every partial total and every step lies within the span from the
    // lowest to the highest partial (0 included): below 2^53, the totals are
    // exact and no step is unfit (TermIncrement's bound).
    const double span = fmax(f.hi, 0.0) - fmin(f.lo, 0.0);
    return !f.tie && span < kSumTwo53;  // mutation-point: signedfastbound
  }
  S2C_HD static Increment FastIncrement(const Fast& f) {
    const int64_t total = static_cast<int64_t>(f.units);
    return {total, total, static_cast<int64_t>(f.hi), static_cast<int64_t>(f.lo)};
  }
};

}  // namespace s2c

#endif  // S2C_ORDERED_SUM_SIGNED_H_
