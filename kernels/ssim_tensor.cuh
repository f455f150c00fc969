// SPDX-License-Identifier: BSD-3-Clause
// SSIM's vertical window on the integer tensor cores, for 8-bit samples
// (kernels/ssim.cu includes this; docs/cuda-backend.md, "SSIM").
//
// The vertical window is a banded matrix: output row i of a tile takes input
// row k with the tap vwin[k - i]. For 8-bit samples the horizontal moments
// are integers below 2^24 (mux and muy below 2^16), so they split into 13
// byte planes (2 bytes each of mux and muy, 3 each of x², xy and y²), and
// each byte plane times the banded matrix is an exact u8 x u8 product into
// 32-bit sums: a sum is at most 255 times the window's total weight, 256.
// Recombined in 64 bits (byte b weighs 256^b) they are the moments the
// CUDA-core pass forms, bit for bit. Taps above 255 (a one-tap window's
// 256) do not fit a u8: such planes take the CUDA-core pass.
#ifndef S2C_KERNELS_SSIM_TENSOR_CUH_
#define S2C_KERNELS_SSIM_TENSOR_CUH_

#include <mma.h>

#include <cstddef>
#include <cstdint>

#include "ssim_launch.h"
#include "ssim_steps.h"

namespace s2c {
namespace cuda {

// A pixel's term from its vertical moments and the windows' weights inside
// the plane (the CPU's SsimTerm; shared by both vertical passes).
__device__ __forceinline__ double PixelTerm(const SsimPlaneArgs& p, int x, int y, SsimMoments m,
                                            int64_t samplemax) {
  m.w = static_cast<int64_t>(p.hsum[x]) * p.vsum[y];
  return SsimTerm(m, samplemax);
}

namespace tensor {

// The mma shape: 8 output rows x 32 columns a tile, 16 input rows a step.
constexpr int kRows = 8;
constexpr int kCols = 32;
constexpr int kStep = 16;
constexpr int kWarps = 2;  // tiles stacked down a block
constexpr int kMoments = 5;
constexpr int kBytePlanes = 13;
// Byte planes of moment q (mux, muy, x², xy, y²): FirstPlane(q) ..
// FirstPlane(q) + Bytes(q) - 1.
__host__ __device__ constexpr int Bytes(int q) { return q < 2 ? 2 : 3; }
__host__ __device__ constexpr int FirstPlane(int q) { return q < 2 ? 2 * q : 4 + 3 * (q - 2); }
static_assert(FirstPlane(kMoments - 1) + Bytes(kMoments - 1) == kBytePlanes, "13 byte planes");
// The longest window this pass takes (steps of shared memory for the
// banded matrix); longer ones take the CUDA-core pass.
constexpr int kMaxSteps = 20;

// Input rows one tile reads, in whole steps.
__host__ __device__ inline int Steps(int voffs) {
  return (kRows + 2 * voffs + kStep - 1) / kStep;
}

// Zero rows above and below the plane, enough for any tile's steps.
__host__ __device__ inline int PadRows(int voffs) { return voffs + kStep + kRows; }

__host__ __device__ inline size_t Pitch(int width) {
  return (static_cast<size_t>(width) + kCols - 1) / kCols * kCols;
}

// Bytes of the 13 planes of a plane of width x height.
__host__ __device__ inline size_t PlaneBytes(int width, int height, int voffs) {
  return kBytePlanes * Pitch(width) * (static_cast<size_t>(height) + 2 * PadRows(voffs));
}

// Whether the tensor-core pass takes this plane: 8-bit samples, every tap a
// u8, a window that fits kMaxSteps.
inline bool Takes(const SsimPlaneArgs& p, int bit_depth) {
  return bit_depth <= 8 && p.vtaps_fit_u8 && Steps(p.voffs) <= kMaxSteps;
}

// The horizontal pass's store for this layout: byte b of a moment into its
// plane, rows shifted down by the padding.
struct MomentBytes {
  uint8_t* base;
  size_t pitch;
  size_t plane;  // bytes of one byte plane
  int pad;
  template <class Acc>
  __device__ void operator()(int x, int y, Acc mux, Acc muy, Acc x2, Acc xy, Acc y2) const {
    const uint32_t v[kMoments] = {static_cast<uint32_t>(mux), static_cast<uint32_t>(muy),
                                  static_cast<uint32_t>(x2), static_cast<uint32_t>(xy),
                                  static_cast<uint32_t>(y2)};
    uint8_t* at = base + static_cast<size_t>(y + pad) * pitch + x;
#pragma unroll
    for (int q = 0; q < kMoments; ++q) {
#pragma unroll
      for (int b = 0; b < Bytes(q); ++b) {
        at[(FirstPlane(q) + b) * plane] = static_cast<uint8_t>(v[q] >> (8 * b));
      }
    }
  }
};

// One warp per tile of kRows x kCols outputs, kWarps tiles down a block.
// The banded matrix of the plane's taps is built in shared memory, column
// major (a step's 16 columns of 16 bytes are 256 bytes apart, as the mma
// loads want 32-byte alignment); each byte plane's tile is the sum over the
// steps of that matrix times 16 input rows of the plane; the tiles of one
// moment are recombined in 64 bits, then each lane finishes 8 pixels' terms.
__global__ void __launch_bounds__(32 * kWarps)
    SsimVerticalTensorKernel(SsimPlaneArgs p, MomentBytes mb, int64_t samplemax,
                             double* terms) {
  using namespace nvcuda;
  __shared__ __align__(32) uint8_t band[kMaxSteps * kStep * 16];
  __shared__ __align__(32) int32_t staged[kWarps][3][kRows * kCols];
  __shared__ int64_t moments[kWarps][kMoments][kRows * kCols];
  const int steps = Steps(p.voffs);
  const int taps = 2 * p.voffs + 1;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  for (int idx = threadIdx.x; idx < steps * kStep * 16; idx += 32 * kWarps) {
    const int k = idx / 16, i = idx % 16, t = k - i;  // input row k, output row i
    band[idx] = (i < kRows && t >= 0 && t < taps) ? static_cast<uint8_t>(p.vwin[t]) : 0;
  }
  __syncthreads();
  const int x0 = blockIdx.x * kCols;
  const int y0 = (blockIdx.y * kWarps + warp) * kRows;
  if (y0 >= p.height) return;
  // Input row k of the tile is plane row y0 - voffs + k, at layout row + pad.
  const size_t first_row = static_cast<size_t>(y0 - p.voffs + mb.pad);
  wmma::fragment<wmma::matrix_a, kRows, kCols, kStep, uint8_t, wmma::col_major> a;
  wmma::fragment<wmma::matrix_b, kRows, kCols, kStep, uint8_t, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, kRows, kCols, kStep, int32_t> acc;
  for (int q = 0; q < kMoments; ++q) {
    for (int byte = 0; byte < Bytes(q); ++byte) {
      const uint8_t* plane = mb.base + (FirstPlane(q) + byte) * mb.plane + x0;
      wmma::fill_fragment(acc, 0);
      for (int s = 0; s < steps; ++s) {
        wmma::load_matrix_sync(a, band + s * kStep * 16, 16);
        wmma::load_matrix_sync(b, plane + (first_row + s * kStep) * mb.pitch,
                               static_cast<unsigned>(mb.pitch));
        wmma::mma_sync(acc, a, b, acc);
      }
      wmma::store_matrix_sync(staged[warp][byte], acc, kCols, wmma::mem_row_major);
    }
    __syncwarp();
    for (int e = lane; e < kRows * kCols; e += 32) {
      int64_t v = 0;
      for (int byte = 0; byte < Bytes(q); ++byte) {
        v += static_cast<int64_t>(staged[warp][byte][e]) << (8 * byte);
      }
      moments[warp][q][e] = v;
    }
    __syncwarp();
  }
  for (int e = lane; e < kRows * kCols; e += 32) {
    const int x = x0 + e % kCols, y = y0 + e / kCols;
    if (x >= p.width || y >= p.height) continue;
    SsimMoments m;
    m.mux = moments[warp][0][e];
    m.muy = moments[warp][1][e];
    m.x2 = moments[warp][2][e];
    m.xy = moments[warp][3][e];
    m.y2 = moments[warp][4][e];
    terms[static_cast<size_t>(y) * p.width + x] = PixelTerm(p, x, y, m, samplemax);
  }
}

}  // namespace tensor
}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_SSIM_TENSOR_CUH_
