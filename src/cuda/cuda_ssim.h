// SPDX-License-Identifier: BSD-3-Clause
// SSIM's part of a pair on the GPU (kernels/ssim.cu): the three planes'
// windows in device memory, one plane's workspace, and the three exact sums
// enqueued on a stream; the result is finished on the host by SsimFromSums
// (ssim_planes.h), as on the CPU. Host code of the CUDA backend only.
#ifndef S2C_CUDA_SSIM_H_
#define S2C_CUDA_SSIM_H_

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuda/cuda_buffers.h"
#include "ssim_launch.h"
#include "ssim_planes.h"
#include "status.h"

namespace s2c {

class CudaSsim {
 public:
  CudaSsim() = default;
  CudaSsim(const CudaSsim&) = delete;
  CudaSsim& operator=(const CudaSsim&) = delete;
  // Waits for this object's side stream, then releases it.
  ~CudaSsim();

  // Device bytes Prepare takes for frames of this layout.
  static size_t DeviceBytes(const FrameLayout& layout);

  // Makes the windows and the workspace fit frames of `layout` with
  // `pixel_aspect`; does nothing when they already do. Uploads (and waits
  // for) the windows only when the geometry changes.
  Status Prepare(const FrameLayout& layout, double pixel_aspect);

  // Enqueues the three planes' sums of the pair on `stream` into d_sums[0..2]
  // (exact, or by a tree: not the CPU's bits); the luma sum runs on a side
  // stream of this object's, joined back into `stream`, by `path` (exact
  // sums only). Prepare must have been called for the frames' layout. One
  // pair at a time.
  Status Enqueue(const cuda::PairFrames& frames, bool exact, cuda::F64Path path, double* d_sums,
                 cudaStream_t stream) const;

  // Waits for the side stream's work (after a failed Enqueue).
  void WaitIdle() const;

  // The result from the three sums Enqueue wrote.
  SsimResult Finish(const double sums[3]) const;

  size_t bytes() const { return windows_.bytes() + workspace_.bytes(); }

  // Frees the windows and the workspace; the next Prepare makes them again.
  void Release();

 private:
  FrameLayout layout_ = {};
  double pixel_aspect_ = 0.0;
  SsimPlaneGeometry geometry_[3];
  cuda::SsimPlaneArgs args_[3] = {};
  DeviceBuffer windows_;
  DeviceBuffer workspace_;
  cudaStream_t side_ = nullptr;  // created by the first Prepare
  cudaEvent_t luma_ready_ = nullptr;
  cudaEvent_t side_done_ = nullptr;
};

}  // namespace s2c

#endif  // S2C_CUDA_SSIM_H_
