// SPDX-License-Identifier: BSD-3-Clause
// The metric's f64 expressions without f64 arithmetic, for GPUs whose fp64
// units are slow: EdgeTerm and FinishTerms (pixel_steps.h) and SSIM's
// SsimTerm (ssim_steps.h), each written in the integer soft double of
// soft_double.h operation for operation, in the reference's order, so that
// each returns the bit pattern of the double the reference returns, on every
// input (docs/soft-double.md); and SsimRatio, whose one f64 expression is an
// f32 subtraction with the same result. The f32 steps stay f32. The
// reference functions stay as they are; tests compare the two on every class
// of input the pipeline can give.
//
// Where finite f32 inputs overflow on the way (an f32 difference of two huge
// values is inf), the soft forms give the reference's infinities and NaNs, as
// they do for inf and NaN inputs; a NaN's sign is the literal operations'
// (docs/soft-double.md, "The terms", says where the host compiler's differs).
#ifndef S2C_SOFT_TERMS_H_
#define S2C_SOFT_TERMS_H_

#include <cmath>
#include <cstdint>
#include <cstring>

#include "steps/edge_quotient.h"
#include "steps/hd.h"
#include "steps/pixel_steps.h"
#include "steps/soft_double.h"
#include "steps/ssim_steps.h"

namespace s2c {

constexpr uint64_t kSoftOneBits = 0x3FF0000000000000;
constexpr uint64_t kSoftTwoBits = 0x4000000000000000;
// kSsimK1 = 0.01 * 0.01 and kSsimK2 = 0.03 * 0.03, as the compiler rounds
// them (test_soft_terms checks the bits against the constants).
constexpr uint64_t kSoftSsimK1Bits = 0x3F1A36E2EB1C432D;
constexpr uint64_t kSoftSsimK2Bits = 0x3F4D7DBF487FCB92;

// SsimRatio's f64 expression num_m = (float)(1.0 - (double)x) is 1.0f - x,
// the same float for every float x: rounding to 53 bits and then to 24 gives
// the nearest float because 53 >= 2 * 24 + 2 (double rounding is innocuous
// then; test_soft_terms checks every float in suite slow). nvcc's optimiser
// narrows the reference expression the same way on the device.
S2C_HD float SoftSsimNumM(float x) { return 1.0f - x; }

S2C_HD float SoftSsimRatio(float mu1, float mu2, float s11, float s22, float s12) {
  const SsimRatioOperands o = SsimOperands(mu1, mu2, s11, s22, s12);
  return o.Ratio(SoftSsimNumM(o.diff2));
}

// 1.0 + (double)x for the float x whose bits are b, where the sum is exact
// in 53 bits and formed as an integer: x = +-0, or |x| = f * 2^k in
// [2^-29, 2^53) with f its 24-bit significand. There x's last place is at
// least 2^-52 and the sum below 2^53 units of the finer of the two grids:
// 2^-k +- f units of 2^k where k < 0, f * 2^k +- 1 whole units where k >= 0.
// Returns false elsewhere (tiny, huge, subnormal, inf, NaN).
S2C_HD bool SoftOnePlusExact(uint32_t b, SoftDouble* sum) {
  if ((b << 1) == 0) {
    *sum = SoftFromBits(kSoftOneBits);
    return true;
  }
  const int biased = static_cast<int>((b >> 23) & 0xFF);
  if (biased < 98 || biased > 179) return false;  // mutation-point: oneplus
  const uint64_t f = (b & 0x7FFFFFu) | 0x800000u;
  const int k = biased - 150;
  const uint64_t unit = k < 0 ? uint64_t{1} << -k : 1;  // 1.0 on the sum's grid
  const uint64_t x = k < 0 ? f : f << k;
  uint64_t m = unit + x;
  uint32_t neg = 0;
  if (b >> 31) {  // 1 - |x|
    neg = x > unit;
    m = neg ? x - unit : unit - x;  // mutation-point: oneminus
  }
  if (m == 0) {
    *sum = SoftZero(0);  // 1 - 1 is +0.0
    return true;
  }
  const int lz = SoftClz(m) - 11;  // m in [1, 2^53): move its top bit to 52
  *sum = {m << lz, (k < 0 ? k : 0) - lz, neg};
  return true;
}

// 1.0 + (double)a and 1.0 - (double)r: directly where exact
// (SoftOnePlusExact), else the soft add or subtraction, whose NaN cases
// differ (a NaN's sign is its own in either).
S2C_HD SoftDouble SoftOnePlus(float a) {
  uint32_t b;
  memcpy(&b, &a, sizeof b);
  SoftDouble sum;
  if (SoftOnePlusExact(b, &sum)) return sum;
  return SoftFromBits(kSoftOneBits) + SoftFromFloat(a);
}
S2C_HD SoftDouble SoftOneMinus(float r) {
  uint32_t b;
  memcpy(&b, &r, sizeof b);
  SoftDouble difference;
  if (SoftOnePlusExact(b ^ 0x80000000u, &difference)) return difference;
  return SoftFromBits(kSoftOneBits) - SoftFromFloat(r);
}

// q - 1.0. For q in [0.5, 2) the difference is exact (Sterbenz), an integer
// on q's grid: q.sig - 2^52 units of 2^-52 for q in [1, 2) (+0.0 for q = 1,
// as IEEE rounds x - x), 2^53 - q.sig units of 2^-53 below zero for q in
// [0.5, 1). Other values take the soft subtraction.
S2C_HD SoftDouble SoftMinusOne(SoftDouble q) {
  if (q.neg || (q.exp != -52 && q.exp != -53)) return q - SoftFromBits(kSoftOneBits);
  const bool below_one = q.exp == -53;
  const uint64_t d = below_one ? (uint64_t{1} << 53) - q.sig : q.sig - kSoftHidden;
  if (d == 0) return SoftZero(0);
  const int lz = SoftClz(d) - 11;
  return {d << lz, q.exp - lz, below_one ? 1u : 0u};  // mutation-point: minusone
}

// The quotient from f32 arithmetic where that is certain (edge_quotient.h),
// else from the soft division.
S2C_HD uint64_t SoftEdgeTerm(float img1, float mu1, float img2, float mu2) {
  const float a2 = fabsf(img2 - mu2);
  const float a1 = fabsf(img1 - mu1);
  SoftDouble q;
  if (!EdgeQuotientInFloats(a1, a2, &q)) q = SoftOnePlus(a2) / SoftOnePlus(a1);  // mutation-point: edge
  return SoftToBits(SoftMinusOne(q));
}

S2C_HD SoftDouble SoftQuartic(SoftDouble x) {
  return SoftSquare(SoftSquare(x));  // mutation-point: quartic
}

// PreparedTerms and PixelTerms with the doubles as their bit patterns.
struct SoftPreparedTerms {
  float ratio;    // SsimRatio
  uint64_t edge;  // EdgeTerm
};
S2C_HD SoftPreparedTerms SoftPrepareTerms(float img1, float mu1, float img2, float mu2,
                                          float s11, float s22, float s12) {
  return {SoftSsimRatio(mu1, mu2, s11, s22, s12), SoftEdgeTerm(img1, mu1, img2, mu2)};
}

struct SoftPixelTerms {
  uint64_t t[6];
};
// FinishTerms: 1 - ratio clamped at zero (std::max(d, 0.0) passes NaN and
// -0.0 through), the artifact and the detail lost, each also to the fourth
// power. A term of 2^256 or more has a fourth power above the largest double,
// which is +inf here as there.
//
// The clamped value of term pair `pair` (0: 1 - ratio, 1: the artifact, 2:
// the detail lost), of which terms 2 * pair and 2 * pair + 1 are the value
// and its fourth power.
S2C_HD SoftDouble SoftTermBase(SoftPreparedTerms prepared, int pair) {
  const SoftDouble zero = SoftZero(0);
  if (pair == 0) {
    const SoftDouble ssim = SoftOneMinus(prepared.ratio);
    return SoftBelowZero(ssim) ? zero : ssim;
  }
  const SoftDouble e = SoftFromBits(prepared.edge);
  if (pair == 1) return SoftBelowZero(e) ? zero : e;
  return SoftBelowZero(-e) ? zero : -e;  // mutation-point: softclamp
}

S2C_HD SoftPixelTerms SoftFinishTerms(SoftPreparedTerms prepared) {
  SoftPixelTerms p;
  for (int pair = 0; pair < 3; ++pair) {
    const SoftDouble base = SoftTermBase(prepared, pair);
    p.t[2 * pair] = SoftToBits(base);
    p.t[2 * pair + 1] = SoftToBits(SoftQuartic(base));
  }
  return p;
}

// Term k of SoftFinishTerms alone (the walk needs one term of a pixel).
S2C_HD uint64_t SoftFinishTerm(SoftPreparedTerms prepared, int k) {
  const SoftDouble base = SoftTermBase(prepared, k / 2);
  return SoftToBits(k % 2 ? SoftQuartic(base) : base);
}

S2C_HD SoftPixelTerms SoftMapTerms(float img1, float mu1, float img2, float mu2, float s11,
                                   float s22, float s12) {
  return SoftFinishTerms(SoftPrepareTerms(img1, mu1, img2, mu2, s11, s22, s12));
}

// SsimTerm. The moments the pipeline gives are small enough that every
// int64 converts exactly (samples of at most 16 bits, w up to 2^16: |mux| <
// 2^32, x2 < 2^48) and every value stays far from overflow and underflow
// (the numerator below 2^150, c1 and c2 positive); SoftFromInt64 rounds like
// the conversion all the same, and any moments give the reference's bits.
S2C_HD uint64_t SoftSsimTerm(const SsimMoments& m, int64_t samplemax) {
  const SoftDouble two = SoftFromBits(kSoftTwoBits);
  const SoftDouble w = SoftFromInt64(m.w);
  const SoftDouble max2 = SoftFromInt64(samplemax * samplemax);
  const SoftDouble c1 = max2 * SoftFromBits(kSoftSsimK1Bits) * w * w;
  const SoftDouble c2 = max2 * SoftFromBits(kSoftSsimK2Bits) * w * w;
  const SoftDouble mux = SoftFromInt64(m.mux);
  const SoftDouble muy = SoftFromInt64(m.muy);
  const SoftDouble mx2 = mux * mux;
  const SoftDouble mxy = mux * muy;
  const SoftDouble my2 = muy * muy;
  const SoftDouble x2w = SoftFromInt64(m.x2) * w;
  const SoftDouble xyw = SoftFromInt64(m.xy) * w;
  const SoftDouble y2w = SoftFromInt64(m.y2) * w;
  const SoftDouble numerator = w * (two * mxy + c1) * (c2 + two * (xyw - mxy));
  const SoftDouble denominator = (mx2 + my2 + c1) * (x2w - mx2 + y2w - my2 + c2);  // mutation-point: ssimorder
  return SoftToBits(numerator / denominator);
}

}  // namespace s2c

#endif  // S2C_SOFT_TERMS_H_
