// SPDX-License-Identifier: BSD-3-Clause
#include "cuda/cuda_ssim.h"

#include <cstdint>
#include <vector>

#include "cuda/cuda_status.h"

namespace s2c {

namespace {

// The planes' sizes (what the workspace depends on).
void PlaneSizes(const FrameLayout& l, cuda::SsimPlaneArgs planes[3]) {
  for (int k = 0; k < 3; ++k) {
    planes[k] = {};
    planes[k].width = k == 0 ? l.width : l.chroma_width;
    planes[k].height = k == 0 ? l.height : l.chroma_height;
  }
}

bool SameGeometry(const FrameLayout& a, const FrameLayout& b) {
  return a.width == b.width && a.height == b.height && a.chroma_width == b.chroma_width &&
         a.chroma_height == b.chroma_height && a.chroma_shift_x == b.chroma_shift_x &&
         a.chroma_shift_y == b.chroma_shift_y;
}

}  // namespace

CudaSsim::~CudaSsim() {
  WaitIdle();
  if (side_) cudaStreamDestroy(side_);
  if (luma_ready_) cudaEventDestroy(luma_ready_);
  if (side_done_) cudaEventDestroy(side_done_);
}

void CudaSsim::WaitIdle() const {
  if (side_) cudaStreamSynchronize(side_);
}

size_t CudaSsim::DeviceBytes(const FrameLayout& layout) {
  cuda::SsimPlaneArgs planes[3];
  PlaneSizes(layout, planes);
  return cuda::SsimWorkspaceBytes(planes, layout.bit_depth);
}

Status CudaSsim::Prepare(const FrameLayout& layout, double pixel_aspect) {
  if (!(pixel_aspect > 0)) return InvalidArgument("SSIM: the pixel aspect ratio must be positive");
  if (side_ == nullptr) {
    S2C_CUDA_TRY(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
    S2C_CUDA_TRY(cudaEventCreateWithFlags(&luma_ready_, cudaEventDisableTiming));
    S2C_CUDA_TRY(cudaEventCreateWithFlags(&side_done_, cudaEventDisableTiming));
  }
  const bool same_geometry = SameGeometry(layout, layout_) && pixel_aspect == pixel_aspect_;
  if (same_geometry && layout.bit_depth == layout_.bit_depth) return Status::Ok();
  const size_t needed = DeviceBytes(layout);
  if (workspace_.bytes() != needed) S2C_RETURN_IF_ERROR(workspace_.Resize(needed));
  if (!same_geometry) {
    // Windows, then the columns' and rows' weights, plane after plane.
    std::vector<int32_t> host;
    size_t offset[3][4];
    for (int k = 0; k < 3; ++k) {
      geometry_[k] = SsimGeometry(layout, k, pixel_aspect);
      const std::vector<int>* parts[4] = {&geometry_[k].hwin, &geometry_[k].vwin,
                                          &geometry_[k].hsum, &geometry_[k].vsum};
      for (int i = 0; i < 4; ++i) {
        offset[k][i] = host.size();
        host.insert(host.end(), parts[i]->begin(), parts[i]->end());
      }
    }
    S2C_RETURN_IF_ERROR(windows_.Resize(sizeof(int32_t) * host.size()));
    S2C_CUDA_TRY(cudaMemcpy(windows_.get(), host.data(), windows_.bytes(), cudaMemcpyHostToDevice));
    const int32_t* base = reinterpret_cast<const int32_t*>(windows_.get());
    for (int k = 0; k < 3; ++k) {
      const SsimPlaneGeometry& g = geometry_[k];
      cuda::SsimPlaneArgs& a = args_[k];
      a.component = k;
      a.width = g.width;
      a.height = g.height;
      a.hoffs = static_cast<int>(g.hwin.size()) / 2;
      a.voffs = static_cast<int>(g.vwin.size()) / 2;
      a.hwin = base + offset[k][0];
      a.vwin = base + offset[k][1];
      a.hsum = base + offset[k][2];
      a.vsum = base + offset[k][3];
    }
  }
  layout_ = layout;
  pixel_aspect_ = pixel_aspect;
  return Status::Ok();
}

Status CudaSsim::Enqueue(const cuda::PairFrames& frames, bool exact, cuda::F64Path path,
                         double* d_sums, cudaStream_t stream) const {
  if (!SameGeometry(frames.layout[0], layout_) || frames.layout[0].bit_depth != layout_.bit_depth) {
    return Status(StatusCode::kInternal, "SSIM: frames differ from the prepared layout");
  }
  const cuda::SsimStreams streams = {stream, side_, luma_ready_, side_done_};
  S2C_CUDA_TRY(cuda::LaunchSsimSums(frames, args_, workspace_.get(), workspace_.bytes(), exact,
                                    path, d_sums, streams));
  return Status::Ok();
}

void CudaSsim::Release() {
  windows_.Free();
  workspace_.Free();
  layout_ = {};
  pixel_aspect_ = 0.0;
}

SsimResult CudaSsim::Finish(const double sums[3]) const {
  SsimSums planes[3];
  for (int k = 0; k < 3; ++k) planes[k] = {sums[k], geometry_[k].weight};
  return SsimFromSums(planes, layout_);
}

}  // namespace s2c
