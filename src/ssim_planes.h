// SPDX-License-Identifier: BSD-3-Clause
// SSIM (Xiph's daala tools/dump_ssim, docs/metric.md "SSIM") around its
// per-pixel steps, shared by every backend: which frames it compares, each
// plane's windows and the weights that follow from them alone, and the
// combination of the three planes' sums into the result. The per-pixel
// steps are steps/ssim_steps.h; the sums are each backend's
// (cpu/ssim_reference.h, cuda/cuda_ssim.h).
#ifndef S2C_SSIM_PLANES_H_
#define S2C_SSIM_PLANES_H_

#include <vector>

#include "metrics.h"
#include "status.h"
#include "steps/frame.h"
#include "steps/frame_layout.h"

namespace s2c {

// Ok when a pair of frames of these formats is one SSIM compares: both YUV,
// of one format (SSIM reads the planes as they are). Otherwise
// InvalidArgument naming the formats and the videoconvert to insert.
Status CheckSsimFormats(PixelFormat ref, PixelFormat dist);

// dump_ssim's integer Gaussian window for `sigma`, at most 2 * max_len - 1
// taps, weights summing to 256.
std::vector<int> SsimWindow(double sigma, int max_len);

// The running sums of one plane: the terms and the weights, each added in
// raster order.
struct SsimSums {
  double terms = 0.0;
  double weights = 0.0;
};

// One plane's windows and what follows from them alone. A pixel's weight is
// the sum of its window's taps inside the plane, hsum[x] * vsum[y]: integers
// below 2^32 whose raster-order double sum is exact (below 2^53 for any
// plane of 16-bit-sized sides), so `weight` is that sum, known before any
// sample is read.
struct SsimPlaneGeometry {
  int width = 0;
  int height = 0;
  std::vector<int> hwin;  // horizontal taps, 2 * hoffs + 1 of them
  std::vector<int> vwin;
  std::vector<int> hsum;  // [x]: the taps of column x's window inside the plane
  std::vector<int> vsum;  // [y]
  double weight = 0.0;    // the sum of hsum[x] * vsum[y] over the plane
};
// Plane k (0, 1, 2: Y', Cb, Cr) of frames of `layout`.
SsimPlaneGeometry SsimGeometry(const FrameLayout& layout, int k, double pixel_aspect);

// The result from the three planes' sums (dump_ssim's combination); every
// backend ends here.
SsimResult SsimFromSums(const SsimSums sums[3], const FrameLayout& layout);

}  // namespace s2c

#endif  // S2C_SSIM_PLANES_H_
