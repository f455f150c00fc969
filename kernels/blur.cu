// SPDX-License-Identifier: BSD-3-Clause
// The recursive Gaussian on the device: blur_steps.h's line functions, one
// line per thread (the filter must run along each line in order, exactness
// contract layer 1), with the memory traffic made coalesced around them.
//
// Horizontal: a block holds 32 lines of one channel and one warp per blurred
// plane (mu1, mu2, sigma11, sigma22, sigma12), all reading the same two XYB
// lines. Tiles of 32 columns of both lines are loaded cooperatively into a
// shared-memory ring and outputs are staged in shared memory and written
// tile by tile; the products (x1*x1, ...) are formed on the fly, the same f32
// bits as a stored product plane. Every line of the block has the same
// length, so BlurLineHorizontal calls its output functor in the same order
// in every thread, and that functor is where the block synchronises.
//
// Vertical: one thread per column of one plane, in place. Inputs are
// prefetched kPrefetch rows ahead into registers, and every input a column
// still needs as the upper tap is held in registers, so outputs can overwrite
// the horizontal pass's rows.
#include "launch.h"

#include "blur_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kRadius = 5;                    // N for sigma 1.5
constexpr int kLines = 32;                    // lines per block = warp size
constexpr int kTile = 32;                     // columns per tile
constexpr int kRingTiles = 4;                 // tiles t - 1 .. t + 2 resident
constexpr int kRingCols = kTile * kRingTiles;
constexpr int kRingPitch = kRingCols + 1;     // +1: lanes hit distinct banks
constexpr int kOutPitch = kTile + 1;
constexpr size_t kHorizontalSmem =
    sizeof(float) * (2 * kLines * kRingPitch + kNumBlurKinds * kLines * kOutPitch);

struct BlurArgs {
  RecursiveGaussian rg;
  PairPlanes xyb;
  BlurPlanes out;
  int w;
  int h;
};

// Sample i of the line `kind` blurs: an XYB sample or a product of two.
__device__ float KindSample(int kind, float a1, float a2) {
  switch (kind) {
    case kMu1: return a1;
    case kMu2: return a2;
    case kSigma11: return a1 * a1;
    case kSigma22: return a2 * a2;
    default: return a1 * a2;
  }
}

// grid: (line groups, channel); block: kNumBlurKinds warps.
__global__ void __launch_bounds__(kLines * kNumBlurKinds)
    BlurHorizontalKernel(BlurArgs a) {
  extern __shared__ float smem[];
  float* ring = smem;                                // [2][kLines][kRingPitch]
  float* staged = smem + 2 * kLines * kRingPitch;    // [kind][kLines][kOutPitch]
  const int c = blockIdx.y;
  const int line0 = blockIdx.x * kLines;
  const int lane = threadIdx.x % kLines;
  const int kind = threadIdx.x / kLines;
  const int w = a.w, h = a.h;

  // Tile t of both input images: each warp fetches every kNumBlurKinds-th
  // row of 32 columns (coalesced) into registers, all loads in flight at
  // once, and stores them into the ring later, when their slot is free.
  constexpr int kFetchRows = (2 * kLines + kNumBlurKinds - 1) / kNumBlurKinds;
  float fetched[kFetchRows];
  auto fetch_tile = [&](int t) {
    const int x = t * kTile + lane;
#pragma unroll
    for (int j = 0; j < kFetchRows; ++j) {
      const int r = kind + j * kNumBlurKinds;
      const int img = r / kLines, y = line0 + r % kLines;
      fetched[j] = 0.0f;
      if (r < 2 * kLines && y < h && x < w) {
        fetched[j] = __ldg(a.xyb.img[img].c[c].Row(y) + x);
      }
    }
  };
  auto store_tile = [&](int t) {
    const int col = (t * kTile + lane) % kRingCols;
#pragma unroll
    for (int j = 0; j < kFetchRows; ++j) {
      const int r = kind + j * kNumBlurKinds;
      if (r < 2 * kLines) ring[r * kRingPitch + col] = fetched[j];
    }
  };
  auto flush_tile = [&](int t) {
    const int x = t * kTile + lane;
    for (int r = kind; r < kNumBlurKinds * kLines; r += kNumBlurKinds) {
      const int k = r / kLines, y = line0 + r % kLines;
      if (y < h && x < w) a.out.p[c][k].Row(y)[x] = staged[r * kOutPitch + lane];
    }
  };

  fetch_tile(0);
  store_tile(0);
  fetch_tile(1);
  store_tile(1);
  fetch_tile(2);
  __syncthreads();

  const float* line1 = ring + lane * kRingPitch;
  const float* line2 = ring + (kLines + lane) * kRingPitch;
  float* my_out = staged + (kind * kLines + lane) * kOutPitch;
  const auto in = [&](int i) {
    const int col = i % kRingCols;
    return KindSample(kind, line1[col], line2[col]);
  };
  // Outputs come in increasing i in every thread alike; the last output of a
  // tile means that no later input precedes tile t - 1 and no earlier one
  // follows tile t + 1, so tile t + 2 (fetched one tile ago) can replace
  // tile t - 2, and tile t + 3 is fetched while tile t + 1 is computed.
  const auto out = [&](int i, float v) {
    my_out[i % kTile] = v;
    if (i % kTile == kTile - 1) {
      const int t = i / kTile;
      __syncthreads();
      flush_tile(t);
      store_tile(t + 2);
      fetch_tile(t + 3);
      __syncthreads();
    }
  };
  BlurLineHorizontal(a.rg, in, out, w);
  if (w % kTile != 0) {
    __syncthreads();
    flush_tile(w / kTile);
  }
}

constexpr int kColumnsPerBlock = 128;
constexpr int kPrefetch = 8;
// Inputs held: rows n - N - 1 (upper tap of step n) up to the lower tap of
// step n + kPrefetch - 1.
constexpr int kHeld = 2 * kRadius + kPrefetch;

// grid: (column groups, channel * kNumBlurKinds + kind).
__global__ void __launch_bounds__(kColumnsPerBlock)
    BlurVerticalKernel(BlurArgs a) {
  const int x = blockIdx.x * kColumnsPerBlock + threadIdx.x;
  if (x >= a.w) return;
  const int c = blockIdx.y / kNumBlurKinds, kind = blockIdx.y % kNumBlurKinds;
  const PlaneView p = a.out.p[c][kind];
  float* col = p.data + x;
  const int h = a.h;
  // held[j] is row n0 - N - 1 + j; rows outside the image are zero.
  float held[kHeld];
  for (int j = 0; j < 2 * kRadius; ++j) held[j] = 0.0f;
  VerticalState state;
  for (int n0 = -kRadius + 1; n0 < h; n0 += kPrefetch) {
#pragma unroll
    for (int j = 0; j < kPrefetch; ++j) {
      const int r = n0 + kRadius - 1 + j;  // >= 0
      held[2 * kRadius + j] = r < h ? col[r * p.pitch] : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < kPrefetch; ++j) {
      const int n = n0 + j;
      const float sum = held[j] + held[j + 2 * kRadius];
      const float v = BlurVerticalStep(a.rg, sum, state);
      if (n >= 0 && n < h) col[n * p.pitch] = v;
    }
#pragma unroll
    for (int j = 0; j < 2 * kRadius; ++j) held[j] = held[j + kPrefetch];
  }
}

}  // namespace

cudaError_t LaunchBlurHorizontal(const RecursiveGaussian& rg,
                                 const PairPlanes& xyb, const BlurPlanes& out,
                                 cudaStream_t stream) {
  if (rg.radius != kRadius) return cudaErrorInvalidValue;
  // Per context, so set at every launch (a host-side attribute write).
  const cudaError_t e = cudaFuncSetAttribute(
      BlurHorizontalKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
      static_cast<int>(kHorizontalSmem));
  if (e != cudaSuccess) return e;
  const BlurArgs a{rg, xyb, out, out.p[0][0].width, out.p[0][0].height};
  const dim3 grid((a.h + kLines - 1) / kLines, 3);
  BlurHorizontalKernel<<<grid, kLines * kNumBlurKinds, kHorizontalSmem, stream>>>(a);
  return cudaGetLastError();
}

cudaError_t LaunchBlurVertical(const RecursiveGaussian& rg,
                               const BlurPlanes& out, cudaStream_t stream) {
  if (rg.radius != kRadius) return cudaErrorInvalidValue;
  const BlurArgs a{rg, PairPlanes(), out, out.p[0][0].width, out.p[0][0].height};
  const dim3 grid((a.w + kColumnsPerBlock - 1) / kColumnsPerBlock, 3 * kNumBlurKinds);
  BlurVerticalKernel<<<grid, kColumnsPerBlock, 0, stream>>>(a);
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace s2c
