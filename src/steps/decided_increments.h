// SPDX-License-Identifier: BSD-3-Clause
// Increments of the ordered sum (ordered_sum.h) decided in f32 arithmetic
// wherever that is certain, for the integer path's increments pass, which
// would otherwise finish every term in the soft double and form its
// increment by the exact rule, over a thousand integer instructions a pixel
// and channel (docs/soft-double.md, "Decided increments"). The native path
// forms a run's increment by the fast rule in f64 instead.
//
// A term's increment is x * 2^(1075 - key) rounded to a whole number of
// units (TermIncrementBits). Here x is known as an f32 pair, exactly or
// within a proven relative error. The increment is decided where the scaled
// value lies farther from a half unit than that error and the f32 rounding
// of the fraction; elsewhere (ties, near-ties, values out of the pairs'
// range, inf, NaN) the run is left undecided and the increments pass forms
// it by the exact rule, so the result is always the exact rule's.
// IntegerF64::DecideIncrements (f64_policies.h) applies this to the metric's
// six terms.
#ifndef S2C_DECIDED_INCREMENTS_H_
#define S2C_DECIDED_INCREMENTS_H_

#include <cmath>
#include <cstdint>

#include "steps/hd.h"
#include "steps/ordered_sum.h"
#include "steps/pixel_steps.h"

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

// The positive double whose bits are b, 2^-20 <= b < 2^24, as a normalised
// pair: its exponent and first 24 significant bits, and the other 29 bits
// rounded to an f32 (2^-24 of at most 2^29 units of 2^-52: within 2^-47 of
// the double, relatively), then renormalised (Fast2Sum, exact) so that
// |lo| <= ulp(hi) / 2 (c = 1 above).
S2C_HD FloatPair PairOfBits(uint64_t b) {
  const int e = static_cast<int>(b >> 52);
  const float hi = BitsFloat(static_cast<int32_t>((static_cast<uint32_t>(e - 1023 + 127) << 23) |
                                                  static_cast<uint32_t>((b >> 29) & 0x7FFFFF)));
  const float tail = static_cast<float>(static_cast<uint32_t>(b & 0x1FFFFFFF));
  const float unit = BitsFloat((e - 1075 + 127) << 23);  // 2^(e - 1075): 2^-72 at least
  const float lo = tail * unit;  // mutation-point: pairbits
  const float s = hi + lo;
  return {s, lo - (s - hi)};
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
  // Another part of the run.
  S2C_HD DecidedRun& operator+=(const DecidedRun& part) {
    units += part.units;
    undecided = undecided || part.undecided;
    return *this;
  }
};

// The relative error bounds of a fourth power's pair (two SquarePair on a
// normalised pair, c = 1) against the reference's Quartic: the squares are
// within 4 u^2 each, so the pair of an exact value is within 12 u^2 of its
// fourth power, and the reference's two roundings (2^-53 = u^2 / 32 each)
// add 3 u^2 / 32: at most 16 u^2 = 2^-44. PairOfBits' pair is within 2 u^2 of
// the double, which the fourth power makes 8 u^2: 20 u^2 and 3 u^2 / 32, at
// most 32 u^2 = 2^-43.
constexpr float kQuarticOfExactError = 0x1p-44f;
constexpr float kQuarticOfBitsError = 0x1p-43f;
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

// The fourth power of a value below 2^-20 is below 2^-80 and rounds to no
// unit wherever the scale is at most 2^78; elsewhere it is left undecided.
S2C_HD void AddDecidedTinyQuartic(DecidedRun& run, float scale) {
  if (!(scale <= 0x1p78f)) run.undecided = true;  // mutation-point: quartictiny
}

// The fourth power, rounded as Quartic rounds it, of the value the
// normalised pair x stands for within `rel` (kQuarticOfExactError or
// kQuarticOfBitsError): in f32 pairs from 2^-20 to 2^24, where every part
// stays normal; beyond that left undecided.
S2C_HD void AddDecidedQuartic(DecidedRun& run, FloatPair x, float scale, float rel) {
  const float v = fabsf(x.hi);
  if (v < 0x1p-20f) {
    AddDecidedTinyQuartic(run, scale);
  } else if (!(v < 0x1p24f)) {
    run.undecided = true;
  } else {
    AddDecided(run, SquarePair(SquarePair(x)), scale, rel);
  }
}

// Whether a run's increment is its total: every term decided, the plan a
// binade with a scale, and the total below 2^53 (ClampedTerms' plain total).
S2C_HD bool DecidedTaken(const DecidedRun& run, float scale) {
  return scale != 0.0f && !run.undecided && run.units < kSumMaxStep;
}

}  // namespace s2c

#endif  // S2C_DECIDED_INCREMENTS_H_
