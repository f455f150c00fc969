// SPDX-License-Identifier: BSD-3-Clause
// The video front end's per-pixel arithmetic (exactness contract, layer 2):
// from a frame's samples to the non-linear R'G'B' floats that layer 1 turns
// into linear light. Written once, compiled by the host compiler for the CPU
// reference and by nvcc for the kernels, so both give the same bits. The
// definition, with its operation order, is docs/frontend.md; every
// expression here is that document's, unfused (-ffp-contract=off on the
// host, --fmad=false on the device) but for the fmas written out.
#ifndef S2C_FRONTEND_STEPS_H_
#define S2C_FRONTEND_STEPS_H_

#include <cmath>
#include <cstdint>

#include "steps/frame.h"
#include "steps/frame_layout.h"
#include "steps/hd.h"
#include "steps/pixel_steps.h"

namespace s2c {

// Sample (sx, sy) of a component's grid, as an integer. Byte loads, so any
// alignment and any host byte order read the little-endian words right.
S2C_HD uint32_t LoadSample(const FrameView& view, const ComponentLayout& c,
                           int sx, int sy) {
  const uint8_t* p = view.data[c.plane] + sy * view.stride[c.plane] +
                     sx * c.step + c.offset;
  uint32_t v = p[0];
  if (c.bytes == 2) v |= static_cast<uint32_t>(p[1]) << 8;
  return v >> c.shift;
}

// frontend.md, 2. (float)v is exact (v < 2^16); for RGB and gray the offset
// is 0 and x - 0.0f == x, so this is the canonical (float)v * (float)(1/max).
S2C_HD float NormaliseSample(uint32_t v, float offset, float scale) {
  return (static_cast<float>(v) - offset) * scale;
}

// The one blend of two chroma values (frontend.md, 3).
S2C_HD float BlendChroma(float w_near, float near, float w_far, float far) {
  return w_near * near + w_far * far;
}

// Which chroma samples, with which weights, give the chroma at luma
// position `pos` in one direction (frontend.md, 3). `n` is the number of
// chroma samples in that direction; indices are clamped to [0, n).
struct ChromaTaps {
  int near;
  int far;
  float w_near;
  float w_far;
  bool single;  // take `near` as it is, no blend
};

S2C_HD ChromaTaps ChromaTapsAt(int pos, int shift, bool cosited, int n) {
  if (shift == 0) return ChromaTaps{pos, pos, 1.0f, 0.0f, true};
  const int i = pos >> 1;
  const bool odd = (pos & 1) != 0;
  if (cosited) {
    if (!odd) return ChromaTaps{i, i, 1.0f, 0.0f, true};
    const int far = i + 1 < n ? i + 1 : n - 1;
    return ChromaTaps{i, far, 0.5f, 0.5f, false};
  }
  const int far = odd ? (i + 1 < n ? i + 1 : n - 1) : (i > 0 ? i - 1 : 0);
  return ChromaTaps{i, far, 0.75f, 0.25f, false};
}

S2C_HD float ChromaSample(const FrameLayout& l, const FrameView& view, int k,
                          int cx, int cy) {
  return NormaliseSample(LoadSample(view, l.comp[k], cx, cy), l.chroma_offset,
                         l.chroma_scale);
}

// Horizontal pass on chroma row `cy`.
S2C_HD float ChromaRow(const FrameLayout& l, const FrameView& view, int k,
                       const ChromaTaps& tx, int cy) {
  const float a = ChromaSample(l, view, k, tx.near, cy);
  if (tx.single) return a;
  return BlendChroma(tx.w_near, a, tx.w_far,
                     ChromaSample(l, view, k, tx.far, cy));
}

// Chroma component k (1: Cb, 2: Cr) at luma resolution: horizontal first,
// then vertical on the horizontally interpolated rows.
S2C_HD float ChromaAt(const FrameLayout& l, const FrameView& view, int k,
                      const ChromaTaps& tx, const ChromaTaps& ty) {
  const float a = ChromaRow(l, view, k, tx, ty.near);
  if (ty.single) return a;
  return BlendChroma(ty.w_near, a, ty.w_far, ChromaRow(l, view, k, tx, ty.far));
}

// [0, 1]; -0 and NaN (impossible by construction) become +0.
S2C_HD float ClampUnit(float v) {
  return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

// IEEE square root, rounded to nearest on both sides.
#if defined(__CUDA_ARCH__)
S2C_HD float SqrtRn(float x) { return __fsqrt_rn(x); }
#else
S2C_HD float SqrtRn(float x) { return std::sqrt(x); }
#endif

// frontend.md, 9: linear light in [0, 1] to sRGB-encoded, libjxl's TF_SRGB
// EncodedFromDisplay: a rational polynomial in sqrt(x), Horner's rule with
// an fma per step and one IEEE division, and x * 12.92 at and below the
// threshold. Constants libjxl's (BSD-3-Clause). Not pow.
S2C_HD float LinearToSrgb(float x) {
  if (!(x > 0.0031308f)) return x * 12.92f;
  constexpr float p[5] = {-5.135152395e-04f, 5.287254571e-03f, 3.903842876e-01f,
                          1.474205315e+00f, 7.352629620e-01f};
  constexpr float q[5] = {1.004519624e-02f, 3.036675394e-01f, 1.340816930e+00f,
                          9.258482155e-01f, 2.424867759e-02f};
  return RationalPolynomial4(SqrtRn(x), p, q);
}

// frontend.md, 9: BT.2020 R'G'B' in [0, 1] to BT.709's primaries. Each
// channel to linear light with layer 1's curve, each row of `m` as
// fma(m0, r, fma(m1, g, m2 * b)), clamped to [0, 1] (colours outside
// BT.709's gamut clip), encoded again and clamped (the polynomial may pass
// 1 by an ulp).
S2C_HD void ConvertPrimaries(const float m[9], float rgb[3]) {
  const float r = SrgbToLinear(rgb[0]);
  const float g = SrgbToLinear(rgb[1]);
  const float b = SrgbToLinear(rgb[2]);
  for (int k = 0; k < 3; ++k) {
    const float mixed = Fma(m[3 * k], r, Fma(m[3 * k + 1], g, m[3 * k + 2] * b));
    rgb[k] = ClampUnit(LinearToSrgb(ClampUnit(mixed)));
  }
}

// The front end's R'G'B' of pixel (x, y), 0 <= x < width, 0 <= y < height,
// of a frame DescribeFrame accepted with this layout.
S2C_HD void RgbPrimeAt(const FrameLayout& l, const FrameView& view, int x,
                       int y, float rgb[3]) {
  if (l.model == ColorModel::kRgb) {
    for (int k = 0; k < 3; ++k) {
      rgb[k] = NormaliseSample(LoadSample(view, l.comp[k], x, y),
                               l.luma_offset, l.luma_scale);
    }
  } else {
    const float luma = NormaliseSample(LoadSample(view, l.comp[0], x, y),
                                       l.luma_offset, l.luma_scale);
    if (l.model == ColorModel::kGray) {
      rgb[0] = rgb[1] = rgb[2] = luma;
      return;
    }
    const ChromaTaps tx =
        ChromaTapsAt(x, l.chroma_shift_x, l.h_cosited, l.chroma_width);
    const ChromaTaps ty =
        ChromaTapsAt(y, l.chroma_shift_y, l.v_cosited, l.chroma_height);
    const float cb = ChromaAt(l, view, 1, tx, ty);
    const float cr = ChromaAt(l, view, 2, tx, ty);
    rgb[0] = ClampUnit(luma + l.cr_r * cr);
    rgb[1] = ClampUnit((luma - l.cb_g * cb) - l.cr_g * cr);
    rgb[2] = ClampUnit(luma + l.cb_b * cb);
  }
  if (l.convert_primaries) ConvertPrimaries(l.primaries, rgb);
}

// The alpha sample of pixel (x, y) of a frame with alpha, in [0, 1]: the
// canonical tool normalises it as it does the colour samples.
S2C_HD float AlphaAt(const FrameLayout& l, const FrameView& view, int x, int y) {
  return NormaliseSample(LoadSample(view, l.alpha, x, y), l.luma_offset, l.luma_scale);
}

// frontend.md, 8: the canonical tool's blend of one sRGB-encoded value on a
// grey background, two products and a sum, unfused.
S2C_HD float BlendOnBackground(float alpha, float value, float background) {
  return alpha * value + (1.0f - alpha) * background;
}

// The R'G'B' of pixel (x, y) that layer 1 takes: the front end's, blended
// on `background` when the frame has alpha.
S2C_HD void RgbPrimeOnBackground(const FrameLayout& l, const FrameView& view, int x,
                                 int y, float background, float rgb[3]) {
  RgbPrimeAt(l, view, x, y, rgb);
  if (!l.has_alpha) return;
  const float alpha = AlphaAt(l, view, x, y);
  for (int k = 0; k < 3; ++k) rgb[k] = BlendOnBackground(alpha, rgb[k], background);
}

}  // namespace s2c

#endif  // S2C_FRONTEND_STEPS_H_
