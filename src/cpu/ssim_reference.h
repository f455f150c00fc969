// SPDX-License-Identifier: BSD-3-Clause
// The CPU reference of the second metric: SSIM as Xiph's daala
// tools/dump_ssim computes it, on the Y', Cb and Cr planes of a YUV frame at
// their own sizes (docs/metric.md, "SSIM"). Samples are read with the front
// end's LoadSample (layer 2); no colour conversion is involved. The windows
// and the planes' combination are every backend's (ssim_planes.h).
#ifndef S2C_SSIM_REFERENCE_H_
#define S2C_SSIM_REFERENCE_H_

#include "metrics.h"
#include "status.h"
#include "steps/frame.h"

namespace s2c {

class ThreadPool;

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
