// SPDX-License-Identifier: BSD-3-Clause
// The vertical pass of a scale's blurs, feeding the terms. The recursive
// Gaussian must run down each column in order (exactness contract, layer
// 1), so a thread steps one column of one blurred plane with the CPU's step
// (blur_steps.h, BlurVerticalStep); a block holds the five planes of one
// channel (a warp each: mu1, mu2, sigma11, sigma22, sigma12) over 32
// columns. Every kBatch rows the warps hand their outputs through shared
// memory to the whole block, which forms each pixel's prepared values
// (pixel_steps.h, PrepareTerms), stores them where the exact sums' later
// passes read them (MapTermsAt::PreparedRows), and adds the finished terms
// of each row's 32 pixels to the ordered sum's advice (any order and any
// approximation will do there: ordered_sum.cuh, OrderedSumAdvice). The
// blurred planes themselves never go back to memory, except for the debug
// observer.
//
// The inputs are the horizontal pass's outputs, read in place: each column
// is prefetched kBatch rows ahead into registers, and every input a column
// still needs as the upper tap is held in registers, so by the time a
// batch's prepared values are stored over rows of sigma11, sigma22 and
// sigma12, every warp of the block has read those rows.
#include "ssimulacra2_launch.h"

#include "map_terms.cuh"
#include "ordered_sum.cuh"
#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kColumns = 32;  // per block: one warp's width
constexpr int kThreads = kColumns * kNumBlurKinds;
// The terms phase: a thread forms the terms of 4 adjacent pixels of one row,
// so a warp covers 4 rows of the block's columns, its loads and stores are
// vectors, and a row's sums take 3 shuffle steps per 32 pixels (a thread per
// pixel took 5 per row and made the pass twice as slow: docs/cuda-backend.md).
constexpr int kQuad = 4;
constexpr int kQuadsPerRow = kColumns / kQuad;
constexpr int kRowsPerWarp = 32 / kQuadsPerRow;
// Rows per batch: one row group per warp, so the warps share the terms
// phase evenly. A batch's inputs are requested one batch ahead of their
// use, so that the loads are in flight while the previous batch is
// computed: the blur steps are a chain per column, so memory latency, not
// bandwidth, bounds them.
constexpr int kBatch = kRowsPerWarp * kNumBlurKinds;
// Inputs held: rows n - N - 1 (upper tap of step n) up to the lower tap of
// step n + kBatch - 1.
constexpr int kHeld = 2 * kBlurRadius + kBatch;
// +1: a warp of the terms phase reads 4 rows at once, each on its own banks.
constexpr int kOutPitch = kColumns + 1;

struct VerticalArgs {
  RecursiveGaussian rg;
  PairPlanes xyb;
  MapTermsAt m;  // the blurred planes; prepared values go to three of them
  int h;
  void* advice;  // [c * 6 + k][chunk], the path's Advice, added to
  uint64_t chunks;
  BlurPlanes observed;  // kObserve: where the blurred planes go
};

// Four adjacent samples of a row from x on, the ones at or past w as zero
// (one vector load where all four are inside: rows are 16-byte aligned).
__device__ __forceinline__ float4 LoadQuad(const float* row, int x, int w) {
  if (x + kQuad <= w) return *reinterpret_cast<const float4*>(row + x);
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (x < w) v.x = row[x];
  if (x + 1 < w) v.y = row[x + 1];
  if (x + 2 < w) v.z = row[x + 2];
  return v;
}
__device__ __forceinline__ void StoreQuad(float* row, int x, int w, float4 v) {
  if (x + kQuad <= w) {
    *reinterpret_cast<float4*>(row + x) = v;
    return;
  }
  if (x < w) row[x] = v.x;
  if (x + 1 < w) row[x + 1] = v.y;
  if (x + 2 < w) row[x + 2] = v.z;
}
__device__ __forceinline__ float& Lane(float4& v, int p) {
  return p == 0 ? v.x : p == 1 ? v.y : p == 2 ? v.z : v.w;
}

// grid: (column groups, channel); block: kNumBlurKinds warps. Batches go
// to two shared buffers in turn, so one barrier per batch suffices: a warp
// writes a buffer again two batches later, after a barrier that every warp
// reaches only once it is done with the terms it read from that buffer.
// Path: NativeF64 or IntegerF64 (src/steps/f64_policies.h).
template <bool kObserve, class Path>
__global__ void __launch_bounds__(kThreads) BlurVerticalKernel(VerticalArgs a) {
  using Advice = typename Path::Advice;
  __shared__ float out[2][kNumBlurKinds][kBatch][kOutPitch];
  const int lane = threadIdx.x % 32, kind = threadIdx.x / 32;
  const int c = blockIdx.y;
  const int x0 = blockIdx.x * kColumns;
  const int w = a.m.w, h = a.h;
  // The blur steps: this thread's column and plane.
  const int x = x0 + lane;
  const bool inside = x < w;
  const PlaneView p = a.m.b.p[c][kind];
  const ptrdiff_t pitch = p.pitch;
  // The terms: this thread's row of the batch and its four columns.
  const int row_in_batch = kind * kRowsPerWarp + lane / kQuadsPerRow;
  const int quad_x = x0 + (lane % kQuadsPerRow) * kQuad;
  // Rows are loaded in order from row 0 through a pointer that steps one
  // row at a time (a row index times the pitch costs several 64-bit
  // operations per access). Batches wholly inside the column skip the
  // bounds checks; columns past the edge load nothing.
  const float* load = p.data + (inside ? x : 0);
  int loaded = 0;  // rows loaded so far
  // The next kBatch lower taps (rows `loaded` and on), zero below the image.
  auto fetch = [&](float (&rows)[kBatch]) {
    if (inside && loaded + kBatch <= h) {
#pragma unroll
      for (int j = 0; j < kBatch; ++j, load += pitch) rows[j] = *load;
    } else {
#pragma unroll
      for (int j = 0; j < kBatch; ++j, load += pitch) {
        rows[j] = inside && loaded + j < h ? *load : 0.0f;
      }
    }
    loaded += kBatch;
  };
  // held[j] is row n0 - N - 1 + j; rows above the image are zero.
  float held[kHeld];
  for (int j = 0; j < 2 * kBlurRadius; ++j) held[j] = 0.0f;
  float ahead[kBatch];
  fetch(ahead);  // the lower taps of steps -N + 1 ...
  VerticalState state;
  int buffer = 0;
  for (int n0 = -kBlurRadius + 1; n0 < h; n0 += kBatch, buffer ^= 1) {
    // The XYB samples of this thread's pixels of the batch, requested now
    // so that they arrive while the batch is blurred.
    const int y = n0 + row_in_batch;
    const bool row_inside = y >= 0 && y < h;
    float4 x1 = make_float4(0.0f, 0.0f, 0.0f, 0.0f), x2 = x1;
    if (row_inside) {
      x1 = LoadQuad(a.xyb.img[0].c[c].Row(y), quad_x, w);
      x2 = LoadQuad(a.xyb.img[1].c[c].Row(y), quad_x, w);
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j) held[2 * kBlurRadius + j] = ahead[j];
    if (n0 + kBatch < h) fetch(ahead);
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      out[buffer][kind][j][lane] =
          BlurVerticalStep(a.rg, held[j] + held[j + 2 * kBlurRadius], state);
    }
#pragma unroll
    for (int j = 0; j < 2 * kBlurRadius; ++j) held[j] = held[j + kBatch];
    __syncthreads();  // the batch's outputs of all five planes are in `out`
    Advice t[kTerms] = {};
    if (row_inside) {
      const auto& o = out[buffer];
      const int col = quad_x - x0;
      float4 ratio, edge_lo, edge_hi;
#pragma unroll
      for (int q = 0; q < kQuad; ++q) {
        const int j = row_in_batch, k = col + q;
        const PreparedBits prepared =
            Path::Prepare(Lane(x1, q), o[kMu1][j][k], Lane(x2, q), o[kMu2][j][k],
                          o[kSigma11][j][k], o[kSigma22][j][k], o[kSigma12][j][k]);
        const MapTermsAt::PreparedRows::Words words = MapTermsAt::PreparedRows::WordsOf(prepared);
        Lane(ratio, q) = words.ratio;
        Lane(edge_lo, q) = words.edge_lo;
        Lane(edge_hi, q) = words.edge_hi;
        if (quad_x + q < w) {
          Advice advice[kTerms];
          Path::PixelAdvice(prepared, advice);
          for (int i = 0; i < kTerms; ++i) t[i] += advice[i];
        }
        if constexpr (kObserve) {
          if (quad_x + q < w) {
            for (int b = 0; b < kNumBlurKinds; ++b) {
              a.observed.p[c][b].Row(y)[quad_x + q] = o[b][j][k];
            }
          }
        }
      }
      const MapTermsAt::PreparedRows rows = a.m.PreparedOf(c, y);
      StoreQuad(rows.ratio, quad_x, w, ratio);
      StoreQuad(rows.edge_lo, quad_x, w, edge_lo);
      StoreQuad(rows.edge_hi, quad_x, w, edge_hi);
    }
    // The row's sums over its 32 pixels (the 8 lanes of the row, butterfly),
    // then lane k of the row adds term k to the advice of the chunk where
    // the row's pixels start: the few pixels of a row that pass into the
    // next chunk count in this one, which the advice allows.
    Advice mine = Advice(0);
#pragma unroll
    for (int i = 0; i < kTerms; ++i) {
      Advice v = t[i];
      for (int step = kQuadsPerRow / 2; step > 0; step /= 2) {
        v += __shfl_xor_sync(0xFFFFFFFFu, v, step);
      }
      if (lane % kQuadsPerRow == i) mine = v;
    }
    if (row_inside && lane % kQuadsPerRow < kTerms) {
      const uint64_t chunk = (static_cast<uint64_t>(y) * w + x0) / kSumChunkTerms;
      atomicAdd(&static_cast<Advice*>(a.advice)[(c * kTerms + lane % kQuadsPerRow) * a.chunks + chunk],
                mine);
    }
  }
}

template <class Path>
cudaError_t LaunchVertical(const VerticalArgs& a, bool observe, cudaStream_t stream) {
  const dim3 grid((a.m.w + kColumns - 1) / kColumns, 3);
  if (observe) {
    BlurVerticalKernel<true, Path><<<grid, kThreads, 0, stream>>>(a);
  } else {
    BlurVerticalKernel<false, Path><<<grid, kThreads, 0, stream>>>(a);
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchBlurVerticalTerms(const RecursiveGaussian& rg, const PairPlanes& xyb,
                                    const BlurPlanes& blurred, void* sum_workspace,
                                    const BlurPlanes* observed, F64Path path,
                                    cudaStream_t stream) {
  if (rg.radius != kBlurRadius) return cudaErrorInvalidValue;
  const int w = blurred.p[0][0].width, h = blurred.p[0][0].height;
  const uint64_t pixels = static_cast<uint64_t>(w) * h;
  const uint64_t chunks = OrderedSumChunks(pixels);
  void* advice = OrderedSumAdvice(MapSumsWorkspace(sum_workspace, pixels));
  // Zero as a double is zero as a float: the whole buffer, for either path.
  cudaError_t e = cudaMemsetAsync(advice, 0, sizeof(double) * kSumTerms * chunks, stream);
  if (e != cudaSuccess) return e;
  const VerticalArgs a{rg, xyb, MapTermsAt(blurred, w), h, advice, chunks,
                       observed ? *observed : BlurPlanes()};
  if (path == F64Path::kInteger) return LaunchVertical<IntegerF64>(a, observed, stream);
  return LaunchVertical<NativeF64>(a, observed, stream);
}

}  // namespace cuda
}  // namespace s2c
