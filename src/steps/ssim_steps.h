// SPDX-License-Identifier: BSD-3-Clause
// SSIM as Xiph's daala tools/dump_ssim computes it (docs/metric.md, "SSIM"):
// the per-pixel steps, written once for the CPU reference and the CUDA
// kernels. The moments are integers, exact in any order; the term is one
// double expression whose operation order is dump_ssim's.
#ifndef S2C_SSIM_STEPS_H_
#define S2C_SSIM_STEPS_H_

#include <cstdint>

#include "steps/hd.h"

namespace s2c {

// The windows' weights are integers summing to 2^kSsimKernelShift.
constexpr int kSsimKernelShift = 8;
constexpr double kSsimK1 = 0.01 * 0.01;
constexpr double kSsimK2 = 0.03 * 0.03;

// Gaussian-weighted sums over one pixel's window: of the reference sample
// x, the distorted y, x², xy, y², and of the weights. Samples are at most
// 16 bits and weights at most 2^8, so a horizontal sum of x² stays below
// 2^40 and the vertical one below 2^48.
struct SsimMoments {
  int64_t mux = 0;
  int64_t muy = 0;
  int64_t x2 = 0;
  int64_t xy = 0;
  int64_t y2 = 0;
  int64_t w = 0;
};

// One sample pair into a horizontal window sum. dump_ssim forms the
// products in 32-bit int, which overflows above 11 bits per sample; here
// they are 64-bit, so the two agree for 8 to 11 bits and this one stays
// right beyond (docs/metric.md).
S2C_HD void SsimAccumulate(SsimMoments* m, int64_t window, int64_t s, int64_t d) {
  m->mux += window * s;
  m->muy += window * d;
  m->x2 += window * s * s;
  m->xy += window * s * d;
  m->y2 += window * d * d;
  m->w += window;
}

// A horizontal sum into the vertical one.
S2C_HD void SsimAccumulate(SsimMoments* m, int64_t window, const SsimMoments& h) {
  m->mux += window * h.mux;
  m->muy += window * h.muy;
  m->x2 += window * h.x2;
  m->xy += window * h.xy;
  m->y2 += window * h.y2;
  m->w += window * h.w;
}

// The pixel's term; its weight is (double)m.w. dump_ssim's expression, in
// its evaluation order (C's left to right for * / + -); samplemax² in 64
// bits (dump_ssim's int overflows at 16 bits).
S2C_HD double SsimTerm(const SsimMoments& m, int64_t samplemax) {
  const double w = static_cast<double>(m.w);
  const double max2 = static_cast<double>(samplemax * samplemax);
  const double c1 = max2 * kSsimK1 * w * w;
  const double c2 = max2 * kSsimK2 * w * w;
  const double mux = static_cast<double>(m.mux);
  const double muy = static_cast<double>(m.muy);
  const double mx2 = mux * mux;
  const double mxy = mux * muy;
  const double my2 = muy * muy;
  const double x2w = static_cast<double>(m.x2) * w;
  const double xyw = static_cast<double>(m.xy) * w;
  const double y2w = static_cast<double>(m.y2) * w;
  const double numerator = w * (2 * mxy + c1) * (c2 + 2 * (xyw - mxy));
  const double denominator = (mx2 + my2 + c1) * (x2w - mx2 + y2w - my2 + c2);
  return numerator / denominator;
}

}  // namespace s2c

#endif  // S2C_SSIM_STEPS_H_
