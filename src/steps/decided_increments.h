// SPDX-License-Identifier: BSD-3-Clause
// The increments of a pixel's six terms (FinishTerms, pixel_steps.h) under
// their sums' binades, decided in f32 arithmetic wherever that is certain,
// for the integer path's increments pass (docs/soft-double.md, "Decided
// increments"). The native path forms a run's increment by the fast rule in
// f64 (ordered_sum.h); the integer path would otherwise finish every term
// in the soft double and form its increment by the exact rule, over a
// thousand integer instructions a pixel and channel.
//
// A term's increment is x * 2^(1075 - key) rounded to a whole number of
// units (TermIncrementBits). Here x is known exactly as an f32 pair (1 -
// ratio), exactly as the edge term's bits, or approximately as an f32 pair
// within a proven relative error (the fourth powers). The increment is
// decided where the scaled value lies farther from a half unit than that
// error and the f32 rounding of the fraction; elsewhere (ties, near-ties,
// values out of the pairs' range, inf, NaN) the run is left undecided and
// the increments pass forms it by the exact rule, so the result is always
// the exact rule's.
#ifndef S2C_DECIDED_INCREMENTS_H_
#define S2C_DECIDED_INCREMENTS_H_

#include <cmath>
#include <cstdint>

#include "steps/hd.h"
#include "steps/ordered_sum.h"
#include "steps/pixel_steps.h"
#include "steps/soft_terms.h"

namespace s2c {

// An unevaluated f32 sum hi + lo.
struct FloatPair {
  float hi, lo;
};

// a + b exactly as a pair (Knuth's TwoSum; no overflow assumed).
S2C_HD FloatPair TwoSumFloat(float a, float b) {
  const float s = a + b;
  const float bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

// (hi + lo)^2 as a pair with |lo| <= ulp(hi) / 2. With u = 2^-24 and an input
// whose |lo| <= c * u * |hi|, the error is at most (c + 1)^2 u^2 of the
// square: hi^2 = p + e1 exactly (fma), e2 rounds 2 * hi * lo + e1, of
// magnitude at most (2c + 1) u hi^2, once, and lo^2 <= c^2 u^2 hi^2 is
// dropped. Inputs from 2^-20 to 2^24 keep every part normal.
S2C_HD FloatPair SquarePair(FloatPair x) {
  const float p = x.hi * x.hi;
  const float e1 = Fma(x.hi, x.hi, -p);
  const float e2 = Fma(2.0f * x.hi, x.lo, e1);
  const float s = p + e2;  // Fast2Sum: |p| >= |e2|
  return {s, e2 - (s - p)};  // mutation-point: pairsquare
}

// The positive double whose bits are b, 2^-20 <= b < 2^24, as a pair: hi
// its exponent and first 24 significant bits, lo the other 29 bits rounded
// to an f32. The pair is within 2^-47 of the double, relatively (lo's
// rounding: 2^-24 of at most 2^29 units of 2^-52 relative), and lo <
// ulp(hi) (c = 2 above).
S2C_HD FloatPair PairOfBits(uint64_t b) {
  const int e = static_cast<int>(b >> 52);
  const float hi = BitsFloat(static_cast<int32_t>((static_cast<uint32_t>(e - 1023 + 127) << 23) |
                                                  static_cast<uint32_t>((b >> 29) & 0x7FFFFF)));
  const float tail = static_cast<float>(static_cast<uint32_t>(b & 0x1FFFFFFF));
  const float unit = BitsFloat((e - 1075 + 127) << 23);  // 2^(e - 1075): 2^-72 at least
  return {hi, tail * unit};  // mutation-point: pairbits
}

// A sum's binade key's scale: x * UnitScale(key) is x in units of the
// binade's last place. 0 where that power of two is outside f32's normal
// range (keys below 948, whose sums are below 2^-75, or above 1201) or the
// plan has no binade; no increment is decided there.
S2C_HD float UnitScale(int key) {
  const int biased = 1075 - key + 127;
  if (key < 1 || biased < 1 || biased > 254) return 0.0f;
  return BitsFloat(biased << 23);
}

// A run's increment in units for one sum, and whether every term's was
// decided.
struct DecidedRun {
  uint64_t units = 0;
  bool undecided = false;
};

// The relative error bound of the fourth powers' pairs against the
// reference's doubles, with a factor of two to spare: 1 - ratio is an exact
// pair (c = 1) and its two squares are within 4 u^2 each, so d^4 within 12 u^2
// and the reference's two roundings (2^-53 = u^2 / 32 each) add 3 u^2 / 32;
// the edge term's pair is within 2 u^2 (c = 2), its squares within 9 u^2 and
// 4 u^2: 8 + 18 + 4 = 30 u^2, plus the same 3 u^2 / 32. 64 u^2 = 2^-42.
constexpr float kQuarticRelativeError = 0x1p-42f;
// The f32 rounding of the fraction below (2^-24 at most), with room.
constexpr float kFractionSlack = 0x1p-22f;

// Adds round(y * scale) to run, where y approximates a term x >= 0 so that
// |y - x| <= rel * y, or marks the run undecided where x * scale may round
// otherwise (within the error of a half unit: ties included), is 2^52 units
// or more, or is not finite. y * scale is exact as the pair (h, l) (scale is
// a power of two; an underflow there costs less than the slack). Its whole
// units n1 + n2 are exact f32 integers, its fraction (h - n1) + (l - n2) is
// exact but for its final rounding, and within 1 of zero.
S2C_HD void AddDecided(DecidedRun& run, FloatPair y, float scale, float rel) {
  const float h = y.hi * scale, l = y.lo * scale;
  if (!(h < 0x1p52f)) {
    run.undecided = true;
    return;
  }
  const float n1 = rintf(h), n2 = rintf(l);
  const float f = (h - n1) + (l - n2);
  const float a = fabsf(f);
  if (!(fabsf(a - 0.5f) > h * rel + kFractionSlack)) {  // mutation-point: margin
    run.undecided = true;  // a NaN too
    return;
  }
  const int64_t step = a > 0.5f ? (f > 0.0f ? 1 : -1) : 0;
  run.units += static_cast<uint64_t>(static_cast<int64_t>(n1) + static_cast<int64_t>(n2) + step);
}

// A fourth power of a value v (the pair x, v > 0, |x.hi| = v's first bits)
// whose pair may leave the normal range: below 2^-20, v^4 < 2^-80 rounds
// to no unit wherever the scale is at most 2^78; above 2^24 (or not finite)
// it is left to the exact rule.
S2C_HD void AddDecidedQuartic(DecidedRun& run, FloatPair x, float scale) {
  const float v = fabsf(x.hi);
  if (v < 0x1p-20f) {
    if (!(scale <= 0x1p78f)) run.undecided = true;  // mutation-point: quartictiny
    return;
  }
  if (!(v < 0x1p24f)) {
    run.undecided = true;
    return;
  }
  AddDecided(run, SquarePair(SquarePair(x)), scale, kQuarticRelativeError);
}

// The increments of FinishTerms(p)'s six terms under the sums' keys (scale[k]
// = UnitScale(key[k]), not 0), added to the runs: each term's increment
// exactly as TermIncrementBits gives it where decided, and the run marked
// undecided otherwise.
S2C_HD void DecideIncrements(SoftPreparedTerms p, const int32_t (&key)[6], const float (&scale)[6],
                             DecidedRun (&run)[6]) {
  // 1 - ratio, clamped at zero. Below zero (ratio >= 1, +inf) both terms are
  // zero; a NaN ratio is left undecided. For |ratio| in [2^-29, 2^24] and
  // zero the reference's 1.0 - (double)ratio is exact, and so is TwoSum's
  // pair; a smaller ratio rounds there, so it is left undecided.
  const float r = p.ratio;
  if (!(r >= 1.0f)) {
    const bool in_range = fabsf(r) >= 0x1p-29f;  // mutation-point: ratiodomain
    if (!(r == 0.0f || (in_range && r > -0x1p24f))) {  // NaN too
      run[0].undecided = run[1].undecided = true;
    } else {
      const FloatPair d = TwoSumFloat(1.0f, -r);
      AddDecided(run[0], d, scale[0], 0.0f);
      AddDecidedQuartic(run[1], d, scale[1]);
    }
  }
  // The edge term e: the artifact max(e, 0) and the detail lost max(-e, 0),
  // of which one is |e| and the other zero (both zero for e = +-0). Its
  // increment comes from its bits; its fourth power from the pair.
  const uint64_t mag = p.edge & ~(uint64_t{1} << 63);
  if (mag == 0) return;
  const int k = (p.edge >> 63) ? 4 : 2;
  if (mag >= (uint64_t{0x7FF} << 52)) {  // inf, NaN: the detail's too
    run[2].undecided = run[3].undecided = run[4].undecided = run[5].undecided = true;
    return;
  }
  const SumIncrement inc = TermIncrementBits(mag, key[k]);
  if (inc.even != inc.odd) run[k].undecided = true;  // a tie
  run[k].units += inc.even;  // unfit (2^53 + 1) makes the run's total too large
  const int biased = static_cast<int>(mag >> 52);
  if (biased < 1023 - 20) {
    AddDecidedQuartic(run[k + 1], {0.0f, 0.0f}, scale[k + 1]);
  } else if (biased >= 1023 + 24) {
    run[k + 1].undecided = true;
  } else {
    AddDecidedQuartic(run[k + 1], PairOfBits(mag), scale[k + 1]);
  }
}

// Whether a run's increment is its total: every term decided, the plan a
// binade with a scale, and the total below 2^53 (ClampedTerms' plain total).
S2C_HD bool DecidedTaken(const DecidedRun& run, float scale) {
  return scale != 0.0f && !run.undecided && run.units < kSumMaxStep;
}

}  // namespace s2c

#endif  // S2C_DECIDED_INCREMENTS_H_
