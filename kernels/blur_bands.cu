// SPDX-License-Identifier: BSD-3-Clause
// The five blurs of a scale's three channels and the terms, in one kernel
// over bands of rows, so that no blurred plane is ever stored whole. The
// recursive Gaussian must run along each line and down each column in order
// (exactness contract, layer 1); a block takes one band of one channel
// and walks its tiles of 32 columns from left to right:
//
// 1. The horizontal pass of the band's lines over the tile (blur_rows.cuh),
//    a warp per blurred plane (mu1, mu2, sigma11, sigma22, sigma12), a line
//    per lane, its outputs staged in shared memory.
// 2. The vertical pass down the tile's columns, a column per lane, with
//    the CPU's step (blur_steps.h, BlurVerticalStep), from the state the
//    band above left in the tile's columns (band_handoff.cuh); it leaves its
//    own for the band below.
// 3. The terms of the band's pixels of the tile: each pixel's prepared
//    values (pixel_steps.h, PrepareTerms), stored where the exact sums'
//    passes read them (MapTermsAt::PreparedRows), and the finished terms of
//    each row's 32 pixels added to the ordered sum's advice (any order and
//    any approximation will do there: ordered_sum.cuh, OrderedSumAdvice).
//
// The vertical step of row n reads the horizontal outputs of rows n - N - 1
// and n + N - 1. A band of kBand rows takes the steps whose lower tap is in
// the band, so it needs the 2N rows above it too: its block runs the
// horizontal pass over kHalo = 2N lines above the band as well, which costs
// instructions rather than time (the pass is a chain along each line; more
// lines are more chains side by side) and saves handing those rows over.
// The blurred planes go to memory only for the debug observer.
#include "ssimulacra2_launch.h"

#include "band_handoff.cuh"
#include "blur_rows.cuh"
#include "map_terms.cuh"
#include "ordered_sum.cuh"
#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kHalo = 2 * kRadius;
constexpr int kBand = 20;
constexpr int kBlockLines = kHalo + kBand;  // lines of the horizontal pass per block
static_assert(kBlockLines <= kLines, "a band's lines in one warp");
static_assert(kTile == BandHandoff::kColumns, "a handoff tile is a blur tile");
constexpr int kThreads = kLines * kNumBlurKinds;  // a warp per blurred plane
// The terms: a thread forms the terms of 4 adjacent pixels of one row, so a
// warp covers 4 rows of the tile, its loads and stores are vectors, and a
// row's sums take 3 shuffle steps per 32 pixels. The five warps cover a
// band's 20 rows at once.
constexpr int kQuad = 4;
constexpr int kQuadsPerRow = kTile / kQuad;
constexpr int kRowsPerWarp = 32 / kQuadsPerRow;
constexpr int kTermRows = kRowsPerWarp * kNumBlurKinds;
static_assert(kTermRows == kBand, "one round of terms per band");
constexpr size_t kSmemBytes = sizeof(float) * (2 * Ring::kFloats + kNumBlurKinds * kStageFloats);

struct BandArgs {
  RecursiveGaussian rg;
  PairPlanes xyb;
  MapTermsAt m;  // the prepared planes
  int h;
  int bands;
  BandHandoff handoff;
  void* advice;  // [c * 6 + k][chunk], the path's Advice, added to
  uint64_t chunks;
  BlurPlanes observed;  // kObserve: where the blurred planes go
};

// The first image row a band's vertical steps output (n = band * kBand - N
// + 1): staged row u of the vertical pass is image row FirstOutputRow + u.
__device__ __forceinline__ int FirstOutputRow(int band) { return band * kBand - kRadius + 1; }

// Vertical steps 0 .. steps - 1 of one column of a staged plane (rows
// kStagePitch floats apart, line 0 = image row band * kBand - kHalo): step
// j's upper tap is staged line j, its lower tap line j + 2N (zero past the
// block's lines: they lie below the image), and its output goes to line j,
// which no later step reads. kFull: a band other than the last, kBand steps.
template <bool kFull>
__device__ __forceinline__ void VerticalSteps(const RecursiveGaussian& rg, float* column,
                                              int steps, VerticalState& st) {
  if constexpr (kFull) {
#pragma unroll
    for (int j = 0; j < kBand; ++j) {
      float* up = column + j * kStagePitch;
      *up = BlurVerticalStep(rg, *up + column[(j + kHalo) * kStagePitch], st);
    }
  } else {
    for (int j = 0; j < steps; ++j) {
      float* up = column + j * kStagePitch;
      const float lower = j + kHalo < kLines ? column[(j + kHalo) * kStagePitch] : 0.0f;
      *up = BlurVerticalStep(rg, *up + lower, st);
    }
  }
}

__device__ __forceinline__ float Lane(const float4& v, int p) {
  return p == 0 ? v.x : p == 1 ? v.y : p == 2 ? v.z : v.w;
}
__device__ __forceinline__ float& Lane(float4& v, int p) {
  return p == 0 ? v.x : p == 1 ? v.y : p == 2 ? v.z : v.w;
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

// The terms of a band's `steps` output rows of the tile from x0: the
// blurred values from the staged lines, the XYB samples from the ring.
template <bool kObserve, class Path>
__device__ __forceinline__ void TileTerms(const BandArgs& a, const float* ring,
                                          const float* staged, int c, int band, int steps,
                                          int x0) {
  using Advice = typename Path::Advice;
  const int lane = threadIdx.x % 32, kind = threadIdx.x / 32;
  const int w = a.m.w;
  const int col = (lane % kQuadsPerRow) * kQuad;  // in the tile
  const int x = x0 + col;
  for (int u0 = 0; u0 < steps; u0 += kTermRows) {
    const int u = u0 + kind * kRowsPerWarp + lane / kQuadsPerRow;
    const int y = FirstOutputRow(band) + u;  // below h wherever u < steps
    const bool row_inside = u < steps && y >= 0;
    Advice t[kTerms] = {};
    if (row_inside) {
      // Image row y is block line y - (band * kBand - kHalo) = u + N + 1.
      const float* x1_at = ring + (u + kRadius + 1) * Ring::kPitch + (x & (Ring::kCols - 1));
      const float4 x1 = *reinterpret_cast<const float4*>(x1_at);
      const float4 x2 = *reinterpret_cast<const float4*>(x1_at + Ring::kFloats);
      float4 o[kNumBlurKinds];
#pragma unroll
      for (int b = 0; b < kNumBlurKinds; ++b) {
        o[b] = *reinterpret_cast<const float4*>(staged + b * kStageFloats + u * kStagePitch + col);
      }
      float4 ratio, edge_lo, edge_hi;
#pragma unroll
      for (int q = 0; q < kQuad; ++q) {
        const PreparedBits prepared =
            Path::Prepare(Lane(x1, q), Lane(o[kMu1], q), Lane(x2, q), Lane(o[kMu2], q),
                          Lane(o[kSigma11], q), Lane(o[kSigma22], q), Lane(o[kSigma12], q));
        const MapTermsAt::PreparedRows::Words words = MapTermsAt::PreparedRows::WordsOf(prepared);
        Lane(ratio, q) = words.ratio;
        Lane(edge_lo, q) = words.edge_lo;
        Lane(edge_hi, q) = words.edge_hi;
        if (x + q < w) {
          Advice advice[kTerms];
          Path::PixelAdvice(prepared, advice);
          for (int i = 0; i < kTerms; ++i) t[i] += advice[i];
        }
        if constexpr (kObserve) {
          if (x + q < w) {
            for (int b = 0; b < kNumBlurKinds; ++b) {
              a.observed.p[c][b].Row(y)[x + q] = Lane(o[b], q);
            }
          }
        }
      }
      const MapTermsAt::PreparedRows rows = a.m.PreparedOf(c, y);
      StoreQuad(rows.ratio, x, w, ratio);
      StoreQuad(rows.edge_lo, x, w, edge_lo);
      StoreQuad(rows.edge_hi, x, w, edge_hi);
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

// grid: 3 blocks per band (one per channel), which take their band and
// channel from the handoff's ticket; block: kNumBlurKinds warps, a warp per
// plane through the horizontal and vertical steps, then all of them through
// the terms. Two barriers per tile: before the terms, and after them (the
// staged lines and the ring's oldest tile free again). Path: NativeF64 or
// IntegerF64 (src/steps/f64_policies.h).
template <bool kObserve, class Path>
__global__ void __launch_bounds__(kThreads) BlurBandsKernel(BandArgs a) {
  extern __shared__ float4 smem4[];
  float* ring = reinterpret_cast<float*>(smem4);
  float* staged = ring + 2 * Ring::kFloats;
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(a.handoff.ticket, 1u);
  __syncthreads();
  const int band = static_cast<int>(ticket / 3), c = static_cast<int>(ticket % 3);
  const bool last = band == a.bands - 1;
  const int w = a.m.w, h = a.h;
  const int line0 = band * kBand - kHalo;  // image row of block line 0
  const int steps = last ? h - FirstOutputRow(band) : kBand;
  const int lane = threadIdx.x % 32, kind = threadIdx.x / 32;
  const int tiles = a.handoff.tiles;

  for (int t = 0; t < Ring::kAhead; ++t) {
    RequestTile<kThreads>(a.xyb, c, line0, kBlockLines, w, h, ring, t);
  }
  CopyWaitAll();
  __syncthreads();

  // The horizontal pass: this thread's line of its plane, its state carried
  // from tile to tile.
  const float* x1_line = ring + lane * Ring::kPitch;
  float* line_out = staged + kind * kStageFloats + lane * kStagePitch;
  const HorizontalSchedule sched(kRadius, w);
  HorizontalState line_state;
  const AllPoles poles{a.rg, line_state};
  // The vertical pass: column `lane` of the tile in this thread's plane.
  float* column = staged + kind * kStageFloats + lane;
  for (int t = 0; t < tiles; ++t) {
    const int x0 = t * kTile;
    HorizontalTile(poles, sched, kind, x1_line, w, x0, line_out);
    // The vertical steps of a plane read only the lines its own warp wrote.
    if (lane == 0) a.handoff.WaitBefore(c, band, t, kind, last);
    __syncwarp();
    VerticalState column_state = a.handoff.Load(c, band, t, kind, lane);
    if (last) {
      VerticalSteps<false>(a.rg, column, steps, column_state);
    } else {
      VerticalSteps<true>(a.rg, column, kBand, column_state);
      a.handoff.Store(c, band, t, kind, lane, column_state);
    }
    __syncwarp();
    if (lane == 0) a.handoff.PublishAfter(c, band, t, kind, last);
    __syncthreads();  // every plane's vertical outputs are staged
    TileTerms<kObserve, Path>(a, ring, staged, c, band, steps, x0);
    // The terms are done with the staged lines, the ring's tile t - 1 is
    // read by no one, and tiles up to t + 2 have landed.
    CopyWaitAll();
    __syncthreads();
    RequestTile<kThreads>(a.xyb, c, line0, kBlockLines, w, h, ring, t + Ring::kAhead);
  }
  CopyWaitAll();  // no copy may land after the block has exited
}

template <bool kObserve, class Path>
cudaError_t AllowSharedMemory() {
  return cudaFuncSetAttribute(BlurBandsKernel<kObserve, Path>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(kSmemBytes));
}

int TilesOf(int width) { return (width + kTile - 1) / kTile; }

template <class Path>
cudaError_t Launch(const BandArgs& a, bool observe, cudaStream_t stream) {
  const dim3 grid(3 * a.bands);
  if (observe) {
    BlurBandsKernel<true, Path><<<grid, kThreads, kSmemBytes, stream>>>(a);
  } else {
    BlurBandsKernel<false, Path><<<grid, kThreads, kSmemBytes, stream>>>(a);
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t PrepareBlurKernels() {
  cudaError_t e = AllowSharedMemory<false, NativeF64>();
  if (e == cudaSuccess) e = AllowSharedMemory<true, NativeF64>();
  if (e == cudaSuccess) e = AllowSharedMemory<false, IntegerF64>();
  if (e == cudaSuccess) e = AllowSharedMemory<true, IntegerF64>();
  return e;
}

size_t BlurBandsWorkspaceBytes(int width, int height) {
  (void)height;  // the states of kSlots band boundaries, whatever the height
  return BandHandoff::Bytes(TilesOf(width));
}

cudaError_t LaunchBlurBands(const RecursiveGaussian& rg, const PairPlanes& xyb,
                            const PreparedPlanes& prepared, void* band_workspace,
                            void* sum_workspace, const BlurPlanes* observed, F64Path path,
                            cudaStream_t stream) {
  if (rg.radius != kBlurRadius) return cudaErrorInvalidValue;
  const int w = prepared.ratio[0].width, h = prepared.ratio[0].height;
  const uint64_t pixels = static_cast<uint64_t>(w) * h;
  const uint64_t chunks = OrderedSumChunks(pixels);
  void* advice = OrderedSumAdvice(MapSumsWorkspace(sum_workspace, pixels));
  // Zero as a double is zero as a float: the whole buffer, for either path.
  cudaError_t e = cudaMemsetAsync(advice, 0, sizeof(double) * kSumTerms * chunks, stream);
  const int tiles = TilesOf(w);
  if (e == cudaSuccess) e = cudaMemsetAsync(band_workspace, 0, BandHandoff::FlagBytes(tiles), stream);
  if (e != cudaSuccess) return e;
  const BandArgs a{rg,     xyb,   MapTermsAt(prepared, w), h, (h + kBand - 1) / kBand,
                   BandHandoff(band_workspace, tiles), advice, chunks,
                   observed ? *observed : BlurPlanes()};
  if (path == F64Path::kInteger) return Launch<IntegerF64>(a, observed, stream);
  return Launch<NativeF64>(a, observed, stream);
}

}  // namespace cuda
}  // namespace s2c
