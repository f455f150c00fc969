// SPDX-License-Identifier: BSD-3-Clause
// The per-pixel steps of SSIMULACRA 2.1, each written once and compiled both
// by the host compiler (CPU reference) and by nvcc (CUDA kernels), so that
// every f32 plane and every f64 term is the same on both sides (exactness
// contract, layers 1 and 3). Where libjxl's AVX2 build fuses a multiply-add,
// the fma is written out; everywhere else each operation rounds on its own
// (host: -ffp-contract=off, device: --fmad=false).
//
// Constants (opsin matrix, bias, sRGB polynomial, SSIM constant) are libjxl's
// (BSD-3-Clause), as reproduced by ../shared/reference/ssimu2_oracle.cc.
#ifndef S2C_PIXEL_STEPS_H_
#define S2C_PIXEL_STEPS_H_

#include <cmath>
#include <cstdint>
#include <cstring>

#include "steps/hd.h"

namespace s2c {

#if defined(__CUDA_ARCH__)
S2C_HD float Fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
#else
S2C_HD float Fma(float a, float b, float c) { return std::fma(a, b, c); }
#endif

// Bit casts that nvcc and the host compiler both accept in S2C_HD code.
S2C_HD int32_t FloatBits(float f) {
  int32_t i;
  memcpy(&i, &f, sizeof(i));
  return i;
}
S2C_HD float BitsFloat(int32_t i) {
  float f;
  memcpy(&f, &i, sizeof(f));
  return f;
}

// libjxl's rational polynomials (TF_SRGB's both ways): P(x) / Q(x) of
// degree 4, coefficients from x^0 up, each by Horner's rule with an fma per
// step, and one IEEE division.
S2C_HD float RationalPolynomial4(float x, const float (&p)[5], const float (&q)[5]) {
  float yp = p[4], yq = q[4];
  for (int i = 3; i >= 0; --i) {
    yp = Fma(yp, x, p[i]);
    yq = Fma(yq, x, q[i]);
  }
  return yp / yq;
}

// sRGB-encoded value in [0, 1] to linear light: libjxl's TF_SRGB, a rational
// polynomial (not pow).
S2C_HD float SrgbToLinear(float x) {
  constexpr float kLowDivInv = 1.0f / 12.92f;
  if (!(x > 0.04045f)) return x * kLowDivInv;
  constexpr float p[5] = {2.200248328e-04f, 1.043637593e-02f, 1.624820318e-01f,
                          7.961564959e-01f, 8.210152774e-01f};
  constexpr float q[5] = {2.631846970e-01f, 1.076976492e+00f, 4.987528350e-01f,
                          -5.512498495e-02f, 6.521209011e-03f};
  return RationalPolynomial4(x, p, q);
}

// libjxl's CubeRootAndAdd: cbrt(x) + add for x >= 0 by a bit-level first
// guess and Newton steps with libjxl's fusions; the last step adds `add`
// inside an fma. Not cbrtf.
S2C_HD float CubeRootAndAdd(float x, float add) {
  const int32_t bits = FloatBits(x);
  const int32_t guess =
      bits == 0 ? 0
                : static_cast<int32_t>(
                      0x54800000u -
                      static_cast<uint32_t>((bits >> 23) * 0x002AAAAA));
  float r = BitsFloat(guess);
  constexpr float k1_3 = 1.0f / 3, k4_3 = 4.0f / 3;
  const float xa_3 = k1_3 * x;
  for (int i = 0; i < 3; ++i) {
    const float r2 = r * r;
    r = Fma(-xa_3, r2 * r2, k4_3 * r);
  }
  float r2 = r * r;
  r = Fma(k1_3, Fma(-x, r2 * r2, r), r);
  r2 = r * r;
  return Fma(r2, x, add);
}

// Opsin absorbance matrix rows and bias (libjxl jxl/cms/opsin_params.h).
constexpr float kM02 = 0.078f, kM00 = 0.30f, kM01 = 1.0f - kM02 - kM00;
constexpr float kM12 = 0.078f, kM10 = 0.23f, kM11 = 1.0f - kM12 - kM10;
constexpr float kM20 = 0.24342268924547819f, kM21 = 0.20476744424496821f,
                kM22 = 1.0f - kM20 - kM21;
constexpr float kOpsinBias = 0.0037930732552754493f;
// -cbrtf(kOpsinBias), as libjxl computes it on the host; written as its bits
// so that no device cbrtf is involved.
constexpr float kNegCbrtOpsinBias = -0x1.3f64eap-3f;

struct Xyb {
  float x, y, b;
};

// Linear RGB to SSIMULACRA 2's "positive XYB": opsin mix with fmas, clamp at
// zero, cube root, then libjxl's MakePositiveXYB (compiled without FMA there:
// each operation rounds on its own).
S2C_HD float OpsinMix(float m0, float m1, float m2, float r, float g,
                      float b) {
  float t = Fma(m0, r, Fma(m1, g, Fma(m2, b, kOpsinBias)));
  if (t < 0.0f) t = 0.0f;  // ZeroIfNegative
  return CubeRootAndAdd(t, kNegCbrtOpsinBias);
}

S2C_HD Xyb LinearToPositiveXyb(float r, float g, float b) {
  const float m0 = OpsinMix(kM00, kM01, kM02, r, g, b);
  const float m1 = OpsinMix(kM10, kM11, kM12, r, g, b);
  const float m2 = OpsinMix(kM20, kM21, kM22, r, g, b);
  const float x = 0.5f * (m0 - m1);
  const float y = 0.5f * (m0 + m1);
  Xyb out;
  out.b = (m2 - y) + 0.55f;
  out.x = x * 14.0f + 0.42f;
  out.y = y + 0.01f;
  return out;
}

// One pixel of the next pyramid scale: the 2x2 box of linear RGB, summed in
// the order (y0x0, y0x1, y1x0, y1x1) from 0.0f, then scaled.
S2C_HD float Downsample2x2(float a00, float a01, float a10, float a11) {
  float s = 0.0f;
  s += a00;
  s += a01;
  s += a10;
  s += a11;
  return s * 0.25f;
}

S2C_HD double Quartic(double x) {
  x *= x;
  return x * x;
}

// The f32 parts of SsimRatio around its one f64 expression, num_m =
// (float)(1.0 - (double)diff2), so that its form without f64 arithmetic
// (soft_terms.h) shares them.
struct SsimRatioOperands {
  float diff2;  // (mu1 - mu2)^2
  float num_s;
  float denom_s;
  S2C_HD float Ratio(float num_m) const { return num_m * num_s / denom_s; }
};
S2C_HD SsimRatioOperands SsimOperands(float mu1, float mu2, float s11, float s22, float s12) {
  constexpr float kC2 = 0.0009f;
  const float mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
  const float diff = mu1 - mu2;
  return {diff * diff, 2.0f * (s12 - mu12) + kC2, (s11 - mu11) + (s22 - mu22) + kC2};
}

// SSIM ratio of one pixel (libjxl's SSIMMap): ssim without the mean's
// denominator, in f32. Inputs are the blurred planes mu1 = blur(img1), mu2,
// s11 = blur(img1 * img1), s22, s12 = blur(img1 * img2).
S2C_HD float SsimRatio(float mu1, float mu2, float s11, float s22, float s12) {
  const SsimRatioOperands o = SsimOperands(mu1, mu2, s11, s22, s12);
  return o.Ratio(static_cast<float>(1.0 - static_cast<double>(o.diff2)));
}

// Edge difference of one pixel (libjxl's EdgeDiffMap): > 0 is an artifact
// (ringing, blocking), < 0 detail lost (blur).
S2C_HD double EdgeTerm(float img1, float mu1, float img2, float mu2) {
  const float a2 = fabsf(img2 - mu2);
  const float a1 = fabsf(img1 - mu1);
  return (1.0 + static_cast<double>(a2)) / (1.0 + static_cast<double>(a1)) - 1.0;
}

// The part of a pixel's terms that reads the planes, and the rest. The CUDA
// backend's vertical blur pass stores the prepared values
// (kernels/blur_vertical.cu), so that the exact sums' passes read 12 bytes
// per pixel and channel instead of the seven planes and skip the division
// (kernels/map_sums.cu; docs/decisions.md, D11 and D18).
struct PreparedTerms {
  float ratio;  // SsimRatio
  double edge;  // EdgeTerm
};
S2C_HD PreparedTerms PrepareTerms(float img1, float mu1, float img2, float mu2, float s11,
                                  float s22, float s12) {
  return {SsimRatio(mu1, mu2, s11, s22, s12), EdgeTerm(img1, mu1, img2, mu2)};
}

// The six f64 terms one pixel of one channel adds to its running sums, in the
// order of the six sums per channel: the SSIM term 1 - ratio clamped at zero
// (libjxl's std::max(d, 0.0), which passes NaN and -0.0 through), the
// artifact and the detail lost, each also to the fourth power.
struct PixelTerms {
  double t[6];
};
S2C_HD PixelTerms FinishTerms(PreparedTerms prepared) {
  PixelTerms p;
  const double ssim = 1.0 - static_cast<double>(prepared.ratio);
  const double d = ssim < 0.0 ? 0.0 : ssim;
  const double e = prepared.edge;
  const double artifact = e < 0.0 ? 0.0 : e;     // std::max(e, 0.0)
  const double detail = -e < 0.0 ? 0.0 : -e;     // std::max(-e, 0.0)  // mutation-point: clamp
  p.t[0] = d;
  p.t[1] = Quartic(d);
  p.t[2] = artifact;
  p.t[3] = Quartic(artifact);
  p.t[4] = detail;
  p.t[5] = Quartic(detail);
  return p;
}

S2C_HD PixelTerms MapTerms(float img1, float mu1, float img2, float mu2,
                           float s11, float s22, float s12) {
  return FinishTerms(PrepareTerms(img1, mu1, img2, mu2, s11, s22, s12));
}

}  // namespace s2c

#endif  // S2C_PIXEL_STEPS_H_
