// SPDX-License-Identifier: BSD-3-Clause
// A generated frame copied into device memory or into pinned host memory
// (which the CUDA backend copies to the device directly, without its
// staging), for the GPU tests and the benchmark. Setup only: synchronous,
// errors show up as failed comparisons.
#ifndef S2C_TESTS_GPU_PLACED_FRAME_H_
#define S2C_TESTS_GPU_PLACED_FRAME_H_

#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "generated_frames.h"

namespace s2c {
namespace test {

enum class Placement { kDevice, kPinned };

struct PlacedFrame {
  std::vector<void*> buffers;
  Placement where;
  FrameView view;
  PlacedFrame(const Frame& f, Placement placement) : where(placement) {
    view = f.View();
    for (int p = 0; p < NumPlanes(f.desc.format); ++p) {
      void* b = nullptr;
      if (where == Placement::kDevice) {
        cudaMalloc(&b, f.planes[p].size());
        cudaMemcpy(b, f.planes[p].data(), f.planes[p].size(), cudaMemcpyHostToDevice);
      } else {
        cudaHostAlloc(&b, f.planes[p].size(), cudaHostAllocDefault);
        std::memcpy(b, f.planes[p].data(), f.planes[p].size());
      }
      buffers.push_back(b);
      view.data[p] = static_cast<const uint8_t*>(b);
    }
  }
  PlacedFrame(const PlacedFrame&) = delete;
  PlacedFrame& operator=(const PlacedFrame&) = delete;
  ~PlacedFrame() {
    for (void* b : buffers) where == Placement::kDevice ? cudaFree(b) : cudaFreeHost(b);
  }
};

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_GPU_PLACED_FRAME_H_
