// SPDX-License-Identifier: BSD-3-Clause
// The edge term's f64 quotient from f32 arithmetic where that is certain,
// for the integer path (docs/soft-double.md, "The edge quotient in f32").
// EdgeTerm (pixel_steps.h) divides N = 1.0 + (double)a2 by D = 1.0 +
// (double)a1; the soft double's division (soft_double.h, SoftDiv) forms
// that quotient with 64-bit integer products, the larger part of the
// integer path's vertical pass. Here the quotient q = N / D is three f32
// parts q1 + q2 + q3, each from an exact remainder (fused multiply-adds),
// within 80 u^3 q of q (u = 2^-24). Where that sum lies farther than the
// bound from every rounding boundary of q's 53-bit grid, q rounded to a
// double is the sum rounded; elsewhere (near a boundary, about one quotient
// in 3000, and for operands out of range) the caller divides in the soft
// double, so the result is always the reference's.
#ifndef S2C_EDGE_QUOTIENT_H_
#define S2C_EDGE_QUOTIENT_H_

#include <cmath>
#include <cstdint>

#include "steps/decided_increments.h"
#include "steps/hd.h"
#include "steps/pixel_steps.h"
#include "steps/soft_double.h"

namespace s2c {

// The margin, in units of the last place of q1's binade, that the sum's
// fraction must keep from a half unit: the bound 80 u^3 q is at most 80 *
// 2^-19 = 2^-12.68 units there (q below 2^53 units), and the fraction's own
// f32 rounding adds at most 2^-24; 1.5 * 2^-13 = 2^-12.42 has room above
// both.
constexpr float kEdgeQuotientMargin = 0x1.8p-13f;

// An operand |img - mu| for which 1 + a is exact both in f64 and as the
// TwoSum pair, and every part of the quotient below is normal or exact:
// +0, or [2^-29, 2^24) (biased exponents 98 to 150; fabsf leaves the sign
// clear, so NaN, inf and subnormals are the other exponents).
S2C_HD bool EdgeOperandInRange(float a) {
  const int32_t b = FloatBits(a);
  const int biased = b >> 23;
  return b == 0 || (biased >= 98 && biased <= 150);  // mutation-point: edgerange
}

// (1.0 + (double)a2) / (1.0 + (double)a1) rounded to a double, as the soft
// double holds it, where certain (true); false where the caller must divide.
//
// N = n.hi + n.lo and D = d.hi + d.lo exactly (TwoSum). q1 = N.hi / D.hi
// correctly rounded leaves the remainder n.hi - q1 d.hi exactly
// representable, so one fma forms it; with q1 d.lo as an exact product
// pair (p, pe) and two TwoSums, R1 = N - q1 D = t.hi + t.lo + s.lo - pe
// exactly. q2 = t.hi / d.hi likewise leaves t.hi - q2 d.hi exact, so R2 =
// N - (q1 + q2) D = rho2 + t.lo + s.lo - pe - q2 d.lo exactly, each part at
// most about 3 u^2 N; r2 is their f32 sum, within 52 u^3 N, and q3 = r2 /
// d.hi. Then |q1 + q2 + q3 - q| <= 80 u^3 q (the proof: docs/soft-double.md).
S2C_HD bool EdgeQuotientInFloats(float a1, float a2, SoftDouble* q) {
  if (!EdgeOperandInRange(a1) || !EdgeOperandInRange(a2)) return false;
  const FloatPair n = TwoSumFloat(1.0f, a2), d = TwoSumFloat(1.0f, a1);
  const float q1 = n.hi / d.hi;
  const float rho = Fma(-q1, d.hi, n.hi);
  const float p = q1 * d.lo;
  const float pe = Fma(q1, d.lo, -p);
  const FloatPair s = TwoSumFloat(rho, n.lo);
  const FloatPair t = TwoSumFloat(s.hi, -p);
  const float q2 = t.hi / d.hi;
  const float rho2 = Fma(-q2, d.hi, t.hi);
  const float r2 = (((rho2 + t.lo) + s.lo) - pe) - q2 * d.lo;
  const float q3 = r2 / d.hi;  // mutation-point: edgethird
  // The sum in units of the last place of q1's binade [2^e, 2^(e + 1)):
  // q1's 24-bit significand times 2^29, whole units n2 + n3 and a fraction
  // f of at most one unit (exact but for its own rounding).
  const int32_t q1_bits = FloatBits(q1);
  int e = (q1_bits >> 23) - 127;  // -25 to 24: q1 is normal
  const float to_units = BitsFloat((52 - e + 127) << 23);
  const float y2 = q2 * to_units, y3 = q3 * to_units;
  const float n2 = rintf(y2), n3 = rintf(y3);
  float f = (y2 - n2) + (y3 - n3);
  int64_t whole = (static_cast<int64_t>((q1_bits & 0x7FFFFF) | 0x800000) << 29) +
                  static_cast<int64_t>(n2) + static_cast<int64_t>(n3);
  // Below 2^52 units (q1 a power of two, q below it: quotients just under
  // one are common), the binade below, in its units: twice as many, and the
  // bound is as many of them, since q is below 2^53 of them too.
  if (whole < (int64_t{1} << 52)) {  // mutation-point: edgerebase
    --e;
    const float twice = 2.0f * f, n = rintf(twice);
    whole = 2 * whole + static_cast<int64_t>(n);
    f = twice - n;
  }
  const float a = fabsf(f);
  if (!(fabsf(a - 0.5f) > kEdgeQuotientMargin)) return false;  // mutation-point: edgemargin
  // The rounded quotient must lie in the binade of these units, on its
  // grid: whole units from 2^52 to 2^53 - 2. At 2^52 itself a value below
  // 2^52 - 1/4 units rounds on the finer grid below, so the fraction must be
  // above that (a guard of the proof: the tests find no operands in range
  // that reach it).
  constexpr int64_t kLow = int64_t{1} << 52;
  if (whole < kLow || whole > 2 * kLow - 2) return false;
  if (whole == kLow && !(f > kEdgeQuotientMargin - 0.25f)) return false;
  const int64_t units = whole + (a > 0.5f ? (f > 0.0f ? 1 : -1) : 0);
  *q = {static_cast<uint64_t>(units), e - 52, 0};
  return true;
}

}  // namespace s2c

#endif  // S2C_EDGE_QUOTIENT_H_
