// SPDX-License-Identifier: BSD-3-Clause
// The exact ordered sum of terms of either sign (SSIM's: a pixel whose
// covariance is negative gives a negative term). The same pipeline as
// src/ordered_sum.h, under a rule of its own (SignedTerms), so that the
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
//   its parity pair of totals, how far its partial sums can rise (up: the
//   sum of its positive steps) and fall (down: of its negative steps), and a
//   step is taken only if every partial sum stays inside the binade:
//   m + up <= 2^53 and m - down > the binade's first value. That bound is
//   wider than the partial sums' true range, which only costs time.
// - Runs compose as before (Then: the second run's pair chosen by the parity
//   the first leaves); up and down add. A longer prefix of lanes reaches at
//   least as far, so the lanes a round accepts are still a leading stretch.
#ifndef S2C_ORDERED_SUM_SIGNED_H_
#define S2C_ORDERED_SUM_SIGNED_H_

#include <cstdint>

#include "ordered_sum.h"

namespace s2c {

constexpr uint64_t kSumSignBit = uint64_t{1} << 63;

// Increments of a run of signed terms, in units of the last place of the
// sum's binade (toward larger magnitude positive): even applies when the
// sum's integer m is even before the run, odd when odd. up and down are at
// least the most the partial sums rise and fall from m (up to kSumMaxStep;
// kSumUnfit where a run cannot be taken at all: then even and odd are 0).
struct SignedIncrement {
  int64_t even;
  int64_t odd;
  uint64_t up;
  uint64_t down;
};
constexpr SignedIncrement kSignedNothing = {0, 0, 0, 0};
constexpr SignedIncrement kSignedUnfit = {0, 0, kSumUnfit, kSumUnfit};

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
// the term's sign is not the sum's. Infinities and NaN are unfit.
S2C_HD SignedIncrement SignedTermIncrement(double x, int plan) {
  const uint64_t b = SumBits(x);
  if ((b << 1) == 0) return kSignedNothing;  // +0.0 and -0.0 leave s as it is
  if (plan == kPlanZero || plan == kPlanTermByTerm) return kSignedUnfit;
  const SumIncrement r = TermIncrement(SumDouble(b & ~kSumSignBit), plan < 0 ? -plan : plan);
  if (r.even > kSumMaxStep || r.odd > kSumMaxStep) return kSignedUnfit;
  const uint64_t most = r.even > r.odd ? r.even : r.odd;
  const bool toward_zero = ((b & kSumSignBit) != 0) != (plan < 0);  // mutation-point: sign
  if (toward_zero) {
    return {-static_cast<int64_t>(r.even), -static_cast<int64_t>(r.odd), 0, most};
  }
  return {static_cast<int64_t>(r.even), static_cast<int64_t>(r.odd), most, 0};
}

// The run a followed by the run b (associative, not commutative).
S2C_HD SignedIncrement Then(SignedIncrement a, SignedIncrement b) {
  const uint64_t up = a.up + b.up;        // each at most kSumUnfit: no overflow
  const uint64_t down = a.down + b.down;
  if (up > kSumMaxStep || down > kSumMaxStep) return kSignedUnfit;
  const bool after_even = (a.even & 1) != 0;      // parity after a, from even
  const bool after_odd = ((a.odd + 1) & 1) != 0;  // parity after a, from odd
  return {a.even + (after_even ? b.odd : b.even),  // mutation-point: signedparity
          a.odd + (after_odd ? b.odd : b.even), up, down};
}

// The checked step: adds run r, composed under plan, to the sum s (bits) if
// s lies in the planned binade and every partial sum stays inside it: below
// or at its end (2^53 units, where rounding is still on its grid) and, where
// the run has a negative step, strictly above its first value, so that no
// add can round on a finer grid. (Key 1's grid is also the subnormals': a
// positive sum there may fall to any value down to its first, +0.0; the
// strict bound also refuses that, which only costs time.)
S2C_HD bool TryAdvance(uint64_t* s, int plan, SignedIncrement r) {
  if (plan == kPlanZero) return r.up == 0 && r.down == 0;  // zeros keep any s
  if (plan == kPlanTermByTerm) return false;
  if (SignedKey(*s) != plan) return false;  // mutation-point: signedbinade
  const int key = plan < 0 ? -plan : plan;
  const uint64_t m = (*s & ~kSumSignBit) - (static_cast<uint64_t>(key - 1) << 52);
  if (r.up > kSumMaxStep - m) return false;  // mutation-point: up
  const uint64_t first = key > 1 ? kSumMaxStep / 2 : 0;
  if (r.down != 0 && m <= first + r.down) return false;  // mutation-point: down
  *s += static_cast<uint64_t>((m & 1) ? r.odd : r.even);  // the sign bit stays
  return true;
}

// The fast rule for signed terms: as for non-negative ones, y = x times the
// plan's scale (negative for a negative sum, so that y counts toward larger
// magnitude), rint(y) the whole units; the positive and the negative ones
// are totalled apart (up, down). A tie, an infinite or a NaN y all fail
// |y - rint(y)| < 0.5 and send the run to the exact rule; so does a total
// not below 2^53 (a term two binades above the plan, a plan below key 52,
// whose scale is NaN).
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
    double up = 0.0;
    double down = 0.0;
  };
  struct FastShared {};
  S2C_HD static int Key(uint64_t s) { return SignedKey(s); }
  S2C_HD static Increment Term(double x, int plan) { return SignedTermIncrement(x, plan); }
  S2C_HD static Increment Compose(Increment a, Increment b) { return Then(a, b); }
  S2C_HD static bool Advance(uint64_t* s, int plan, Increment r) { return TryAdvance(s, plan, r); }
  // The plan of a chunk from approximate sums before it and at its end: the
  // key both share, each widened by 2^-30 relative (PlanChunk's margin), or
  // term by term where the sum leaves zero, changes sign or binade. The
  // partial sums inside the chunk may still leave the binade; the walk's
  // check sees that.
  S2C_HD static int32_t Plan(double before, double after) {
    constexpr double kMargin = 1.0 / (1 << 30);
    if (before == 0.0 && after == 0.0) return kPlanZero;
    if (!(before != 0.0)) return kPlanTermByTerm;  // the sum leaves zero, or NaN
    const double lo = fmin(before, after), hi = fmax(before, after);
    const int key = SignedKey(SumBits(lo - fabs(lo) * kMargin));
    if (key != SignedKey(SumBits(hi + fabs(hi) * kMargin))) return kPlanTermByTerm;
    return key;
  }
  S2C_HD static double FastScale(int plan) { return SignedFastScale(plan); }
  S2C_HD static void FastAdd(Fast& f, double x, double scale, uint32_t tie_bit, uint32_t& ties,
                             FastShared&) {
    const double y = x * scale;
    const double whole = rint(y);
    const bool whole_units = fabs(y - whole) < 0.5;  // not a tie, inf or NaN  // mutation-point: signedfastnan
    ties |= whole_units ? 0u : tie_bit;  // mutation-point: signedfasttie
    f.up += fmax(whole, 0.0);
    f.down += fmax(-whole, 0.0);
  }
  S2C_HD static bool FastTaken(const Fast& f, bool tie, const FastShared&) {
    return !tie && f.up < kSumTwo53 && f.down < kSumTwo53;  // mutation-point: signedfastbound
  }
  S2C_HD static Increment FastIncrement(const Fast& f) {
    const uint64_t up = static_cast<uint64_t>(f.up), down = static_cast<uint64_t>(f.down);
    const int64_t total = static_cast<int64_t>(up) - static_cast<int64_t>(down);
    return {total, total, up, down};
  }
};

}  // namespace s2c

#endif  // S2C_ORDERED_SUM_SIGNED_H_
