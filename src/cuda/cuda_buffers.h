// SPDX-License-Identifier: BSD-3-Clause
// Owners of the CUDA backend's memory and graphs (each releases what it holds
// when destroyed), and the layout of float planes carved from one
// allocation. Host code of the CUDA backend only.
#ifndef S2C_CUDA_BUFFERS_H_
#define S2C_CUDA_BUFFERS_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuda/cuda_status.h"
#include "ssimulacra2_launch.h"
#include "steps/plane_view.h"

namespace s2c {

constexpr size_t kCudaAlign = 256;  // start of every carved buffer
inline size_t CudaAlignUp(size_t v) { return (v + kCudaAlign - 1) / kCudaAlign * kCudaAlign; }

// Device or pinned host memory, sized once and reused; `Memory` supplies
// the CUDA allocation and release calls.
template <class Memory>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  ~CudaBuffer() { Free(); }
  Status Resize(size_t bytes) {
    Free();
    if (bytes == 0) return Status::Ok();
    S2C_CUDA_TRY(Memory::Allocate(&ptr_, bytes));
    bytes_ = bytes;
    return Status::Ok();
  }
  void Free() {
    if (ptr_) Memory::Release(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
  }
  uint8_t* get() const { return static_cast<uint8_t*>(ptr_); }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

struct DeviceMemory {
  static cudaError_t Allocate(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
  static void Release(void* p) { cudaFree(p); }
};
struct PinnedMemory {
  static cudaError_t Allocate(void** p, size_t bytes) {
    return cudaHostAlloc(p, bytes, cudaHostAllocDefault);
  }
  static void Release(void* p) { cudaFreeHost(p); }
};
using DeviceBuffer = CudaBuffer<DeviceMemory>;
using PinnedBuffer = CudaBuffer<PinnedMemory>;

// An instantiated CUDA graph, destroyed with its owner.
class GraphExec {
 public:
  GraphExec() = default;
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  ~GraphExec() { Reset(); }
  void Reset(cudaGraphExec_t exec = nullptr) {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = exec;
  }
  cudaGraphExec_t get() const { return exec_; }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// Planes of one size carved from one allocation: plane i starts at
// base + i * plane_floats, rows padded to 128 bytes.
struct PlaneBlock {
  float* base = nullptr;
  ptrdiff_t pitch = 0;  // floats
  size_t plane_floats = 0;
  static size_t Bytes(int w, int h, int count) {
    return count * CudaAlignUp(PitchOf(w) * h * sizeof(float));
  }
  static ptrdiff_t PitchOf(int w) { return (static_cast<ptrdiff_t>(w) + 31) & ~ptrdiff_t{31}; }
  void Carve(uint8_t* at, int w, int h) {
    base = reinterpret_cast<float*>(at);
    pitch = PitchOf(w);
    plane_floats = CudaAlignUp(pitch * h * sizeof(float)) / sizeof(float);
  }
  PlaneView View(int index, int w, int h) const {
    PlaneView v;
    v.data = base + index * plane_floats;
    v.pitch = pitch;
    v.width = w;
    v.height = h;
    return v;
  }
  // Planes first .. first + 5 as (reference, distorted) x 3 channels.
  cuda::PairPlanes Pair(int first, int w, int h) const {
    cuda::PairPlanes p;
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) p.img[i].c[c] = View(first + i * 3 + c, w, h);
    }
    return p;
  }
};

}  // namespace s2c

#endif  // S2C_CUDA_BUFFERS_H_
