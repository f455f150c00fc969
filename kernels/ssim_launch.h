// SPDX-License-Identifier: BSD-3-Clause
// Launch functions of the SSIM kernels (kernels/ssim.cu), for the CUDA
// backend's host code: the three planes' sums of dump_ssim's terms, exact
// (the bits of the CPU's raster-order loops, by the signed ordered sum) or
// by a tree (the benchmark's baseline). Nothing here synchronises or
// allocates.
#ifndef S2C_KERNELS_SSIM_LAUNCH_H_
#define S2C_KERNELS_SSIM_LAUNCH_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "f64_path.h"
#include "pair_frames.h"

namespace s2c {
namespace cuda {

// One plane's windows in device memory (SsimPlaneGeometry's, as int32).
struct SsimPlaneArgs {
  int component;  // 0, 1, 2: Y', Cb, Cr
  int width;
  int height;
  int hoffs;  // half lengths: the windows have 2 * offs + 1 taps
  int voffs;
  const int32_t* hwin;
  const int32_t* vwin;
  const int32_t* hsum;  // [x]
  const int32_t* vsum;  // [y]
};

// Device scratch for the three planes of frames at bit_depth: the
// horizontal moments of one plane at a time (planes[0], Y', the largest),
// the three planes' terms and the sums' workspace.
size_t SsimWorkspaceBytes(const SsimPlaneArgs planes[3], int bit_depth);

// Where one pair's SSIM runs: everything on `main` but the luma sum, which
// runs on `side` from when Y's terms are written (luma_ready, recorded on
// main) beside the chroma planes; main waits for it at the end (side_done,
// recorded on side). Both events are the caller's, used by one pair at a
// time.
struct SsimStreams {
  cudaStream_t main;
  cudaStream_t side;
  cudaEvent_t luma_ready;
  cudaEvent_t side_done;
};

// The three sums of the planes' terms (ssim_steps.h, SsimTerm), each in
// raster order, into d_sums[0..2]: exact, or by cub's tree when `exact` is
// false (not the CPU's bits; the native path's terms whatever `path`). Cb
// and Cr have one size.
cudaError_t LaunchSsimSums(const PairFrames& frames, const SsimPlaneArgs planes[3],
                           void* workspace, size_t workspace_bytes, bool exact, F64Path path,
                           double* d_sums, const SsimStreams& streams);

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_SSIM_LAUNCH_H_
