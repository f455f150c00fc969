// SPDX-License-Identifier: BSD-3-Clause
// The CPU reference of the second metric: SSIM as Xiph's daala
// tools/dump_ssim computes it, on the Y', Cb and Cr planes of a YUV frame at
// their own sizes (docs/metric.md, "SSIM"). Samples are read with the front
// end's LoadSample (layer 2); no colour conversion is involved.
#ifndef S2C_SSIM_REFERENCE_H_
#define S2C_SSIM_REFERENCE_H_

#include <vector>

#include "frontend.h"
#include "metrics.h"
#include "status.h"
#include "steps/frame.h"

namespace s2c {

class ThreadPool;

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

// InvalidArgument unless the pair is YUV of one format (what SSIM compares).
Status CheckSsimFormat(const FrameLayout& ref, const FrameLayout& dist);

// Host bytes SsimCompare takes for frames of width x height (the largest
// plane's rounds: window moments of the rows a round reads, its terms and
// weights), as a double so that no size overflows it.
double SsimWorkspaceBytes(int width, int height);

// Scores a pair of YUV frames of the same size and format (8 to 16 bits,
// planar or semi-planar). The reference's desc.pixel_aspect (1 for square
// pixels) widens the horizontal window. RGB and gray
// are refused (InvalidArgument naming videoconvert). The work is spread
// over `pool` (this thread alone when null); the result does not depend on
// it.
Status SsimCompare(const FrameView& ref, const FrameView& dist, SsimResult* out,
                   ThreadPool* pool = nullptr);

}  // namespace s2c

#endif  // S2C_SSIM_REFERENCE_H_
