// SPDX-License-Identifier: BSD-3-Clause
// The five blurs of a scale's three channels and the terms, in one kernel
// over bands of rows, so that no blurred plane is ever stored whole. The
// recursive Gaussian must run along each line and down each column in order
// (exactness contract, layer 1); a block takes one band of kBand rows of one
// channel and walks its tiles of 32 columns from left to right. Its warps
// have two roles, which work on consecutive tiles side by side, and share
// the terms of each tile's pixels: each pixel's prepared values
// (pixel_steps.h, PrepareTerms), stored where the exact sums' passes read
// them (MapTermsAt::PreparedRows), and the finished terms of each row's 32
// pixels added to the ordered sum's advice (any order and any
// approximation will do there: ordered_sum.cuh, OrderedSumAdvice).
//
// - The horizontal warps, a warp per blurred plane (mu1, mu2, sigma11,
//   sigma22, sigma12) and a line per lane, form the terms of the first
//   kTermRows rows of tile t - 2, then run the horizontal pass of the
//   band's lines over tile t (blur_rows.cuh) into the staging buffer in
//   shared memory that tile t - 2 held.
// - The vertical warps, a warp per plane and a column per lane, run the
//   vertical pass down tile t - 1's columns with the CPU's step
//   (blur_steps.h, BlurVerticalStep), from the state and the upper taps the
//   band above left (band_handoff.cuh), leave their own for the band below,
//   and then form the terms of the tile's other rows.
//
// The vertical step of row n reads the horizontal outputs of rows n - N - 1
// (upper tap) and n + N - 1 (lower tap). A band takes the steps whose lower
// tap is one of its lines, so its outputs start N - 1 rows above it, and
// the upper taps of its first 2N steps are the last 2N lines of the band
// above, which that band hands over with the columns' state.
//
// The block walks the band in steps, all its threads meeting at a block
// barrier after each (HorizontalRole), which passes the staging buffers
// between the roles. The blurred planes go to memory only for the debug
// observer.
#include "ssimulacra2_launch.h"

#include "band_handoff.cuh"
#include "blur_rows.cuh"
#include "map_terms.cuh"
#include "ordered_sum.cuh"
#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kBand = kLines;        // rows per band: a line per lane
constexpr int kUp = kRadius - 1;     // the band's outputs start kUp rows above it
constexpr int kGap = 2 * kRadius;    // from a step's upper tap to its lower tap
static_assert(kGap == BandHandoff::kUpperRows, "the handoff's upper taps");
static_assert(kTile == BandHandoff::kColumns, "a handoff tile is a blur tile");
static_assert(kGap < kBand, "a band's last 2N lines are its own");
// The ring holds the band's lines and the kUp rows above them: the terms
// read the XYB samples of the output rows.
using Ring = RingOf<kBand + kUp>;
constexpr int kRoleThreads = 32 * kNumBlurKinds;  // a warp per blurred plane
constexpr int kThreads = 2 * kRoleThreads;        // horizontal, then vertical warps
// A staging buffer: per plane, the band's kBand lines of horizontal outputs,
// then kGap rows for the vertical outputs of the first kGap steps. Step j >=
// kGap writes its output over line j - kGap, its own upper tap, which no
// later step reads; the last kGap lines stay for the handoff.
constexpr int kEarlyFloats = kGap * kStagePitch;
constexpr int kBufferFloats = kNumBlurKinds * (kStageFloats + kEarlyFloats);
constexpr size_t kSmemBytes = sizeof(float) * (2 * Ring::kFloats + 2 * kBufferFloats);
// The terms: a thread forms the terms of 4 adjacent pixels of one row, so a
// warp covers 4 rows of the tile, its loads and stores are vectors, and a
// row's sums take 3 shuffle steps per 32 pixels; a role's five warps cover
// kTermRows = 20 rows a round, the horizontal warps the first round of a
// tile, the vertical warps the rest.
constexpr int kQuad = 4;
constexpr int kQuadsPerRow = kTile / kQuad;
constexpr int kRowsPerWarp = 32 / kQuadsPerRow;
constexpr int kTermRows = kRowsPerWarp * kNumBlurKinds;

// Named barriers (0 is __syncthreads), a role's own, for what its warps
// share among themselves.
constexpr int kHorizontalWarps = 1, kVerticalWarps = 2;
__device__ __forceinline__ void BarrierSync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

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

// Bands cover the output rows -kUp .. h - 1, kBand each.
__host__ __device__ constexpr int BandsOf(int height) { return (height + kUp + kBand - 1) / kBand; }

// Where a plane's rows lie in a staging buffer.
struct Staged {
  float* buffer;
  // Line i of the band's horizontal outputs.
  __device__ float* Line(int kind, int i) const {
    return buffer + kind * kStageFloats + i * kStagePitch;
  }
  // Output row u of the vertical steps (image row band * kBand - kUp + u).
  __device__ float* Output(int kind, int u) const {
    return u < kGap ? buffer + kNumBlurKinds * kStageFloats + kind * kEarlyFloats + u * kStagePitch
                    : Line(kind, u - kGap);
  }
};

// The vertical steps 0 .. steps - 1 of column `lane` of plane `kind` (step
// j outputs output row j): upper taps from `upper` for the first kGap steps,
// then from the band's lines; lower taps the band's lines, zero from line
// `lines` on (below the image; a band other than the last may reach 3 lines
// below it). kFull: a band other than the last, kBand steps.
template <bool kFull>
__device__ __forceinline__ void VerticalSteps(const RecursiveGaussian& rg, const Staged& st,
                                              int kind, int lane, const float (&upper)[kGap],
                                              int steps, int lines, VerticalState& state) {
  const float* line = st.Line(kind, 0) + lane;
  const auto lower = [&](int j) { return j < lines ? line[j * kStagePitch] : 0.0f; };
#pragma unroll
  for (int j = 0; j < kGap; ++j) {
    if (kFull || j < steps) {
      st.Output(kind, j)[lane] = BlurVerticalStep(rg, upper[j] + lower(j), state);
    }
  }
  if constexpr (kFull) {
#pragma unroll
    for (int j = kGap; j < kBand; ++j) {
      float* up = st.Line(kind, j - kGap) + lane;
      *up = BlurVerticalStep(rg, *up + lower(j), state);
    }
  } else {
    for (int j = kGap; j < steps; ++j) {
      float* up = st.Line(kind, j - kGap) + lane;
      *up = BlurVerticalStep(rg, *up + lower(j), state);
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

// The terms of a band's `steps` output rows of the tile from x0, by the
// vertical warps (`thread` of kRoleThreads): the blurred values from the
// staging buffer, the XYB samples from the ring.
template <bool kObserve, class Path>
__device__ __forceinline__ void TileTerms(const BandArgs& a, const float* ring, const Staged& st,
                                          int c, int row0, int first, int end, int x0,
                                          int thread) {
  using Advice = typename Path::Advice;
  const int lane = thread % 32, warp = thread / 32;
  const int w = a.m.w;
  const int col = (lane % kQuadsPerRow) * kQuad;  // in the tile
  const int x = x0 + col;
  for (int u0 = first; u0 < end; u0 += kTermRows) {
    const int u = u0 + warp * kRowsPerWarp + lane / kQuadsPerRow;
    const int y = row0 + u;  // below h wherever u < steps
    const bool row_inside = u < end && y >= 0;
    Advice t[kTerms] = {};
    if (row_inside) {
      const float* x1_at = ring + u * Ring::kPitch + (x & (Ring::kCols - 1));
      const float4 x1 = *reinterpret_cast<const float4*>(x1_at);
      const float4 x2 = *reinterpret_cast<const float4*>(x1_at + Ring::kFloats);
      float4 o[kNumBlurKinds];
#pragma unroll
      for (int b = 0; b < kNumBlurKinds; ++b) {
        o[b] = *reinterpret_cast<const float4*>(st.Output(b, u) + col);
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

// The block walks the band in steps k = 0 .. tiles + 1, all its threads
// meeting at a barrier after each: in step k the horizontal warps form the
// terms of the first kTermRows rows of tile k - 2 (staging buffer k % 2)
// and then fill that buffer with tile k's lines, each thread its line of
// its plane, its state carried from tile to tile; the vertical warps run
// the vertical steps and the handoff of tile k - 1 (buffer (k - 1) % 2) and
// form the terms of its other rows. Tile k + 2 is requested into the ring
// slot of tile k - 2 once every horizontal thread has formed that tile's
// terms.
template <bool kObserve, class Path>
__device__ __forceinline__ void HorizontalRole(const BandArgs& a, float* ring, float* staged,
                                               int c, int band, int tiles) {
  const int thread = threadIdx.x, lane = thread % 32, kind = thread / 32;
  const int w = a.m.w;
  const int row0 = band * kBand - kUp;  // image row of output row 0
  const int steps = band == a.bands - 1 ? a.h - row0 : kBand;
  for (int t = 0; t < 2; ++t) {
    RequestTile<Ring, kRoleThreads>(a.xyb, c, row0, w, a.h, ring, t, thread);
  }
  const float* x1_line = ring + (lane + kUp) * Ring::kPitch;
  const HorizontalSchedule sched(kRadius, w);
  HorizontalState line_state;
  const AllPoles poles{a.rg, line_state};
  for (int k = 0; k < tiles + 2; ++k) {
    const Staged st{staged + (k % 2) * kBufferFloats};
    if (k >= 2) {
      TileTerms<kObserve, Path>(a, ring, st, c, row0, 0, min(kTermRows, steps), (k - 2) * kTile,
                                thread);
    }
    if (k < tiles) {
      CopyWaitAll();  // tiles up to k + 1 have landed ...
      // ... every thread's copies, and every thread's terms are formed.
      BarrierSync(kHorizontalWarps, kRoleThreads);
      RequestTile<Ring, kRoleThreads>(a.xyb, c, row0, w, a.h, ring, k + 2, thread);
      HorizontalTile<Ring>(poles, sched, kind, x1_line, w, k * kTile, st.Line(kind, lane));
    }
    __syncthreads();
  }
  CopyWaitAll();  // no copy may land after the block has exited
}

template <bool kObserve, class Path>
__device__ __forceinline__ void VerticalRole(const BandArgs& a, const float* ring, float* staged,
                                             int c, int band, int tiles) {
  const int thread = threadIdx.x - kRoleThreads, lane = thread % 32, kind = thread / 32;
  const bool last = band == a.bands - 1;
  const int row0 = band * kBand - kUp;  // image row of output row 0
  const int steps = last ? a.h - row0 : kBand;
  const int lines = a.h - band * kBand;  // the band's lines inside the image
  for (int k = 0; k < tiles + 2; ++k) {
    const int t = k - 1;
    if (t >= 0 && t < tiles) {
      const Staged st{staged + (t % 2) * kBufferFloats};
      // The vertical steps of a plane read only the lines its own warp's
      // horizontal counterpart wrote, and the handoff of its own plane.
      if (lane == 0) a.handoff.WaitBefore(c, band, t, kind);
      __syncwarp();
      VerticalState state;
      float upper[kGap];
      a.handoff.Load(c, band, t, kind, lane, state, upper);
      if (last) {
        VerticalSteps<false>(a.rg, st, kind, lane, upper, steps, lines, state);
      } else {
        VerticalSteps<true>(a.rg, st, kind, lane, upper, kBand, lines, state);
        a.handoff.Store(c, band, t, kind, lane, state, st.Line(kind, kBand - kGap) + lane,
                        kStagePitch);
        __syncwarp();
        if (lane == 0) a.handoff.PublishAfter(c, band, t, kind);
      }
      BarrierSync(kVerticalWarps, kRoleThreads);  // every plane's outputs are staged
      TileTerms<kObserve, Path>(a, ring, st, c, row0, kTermRows, steps, t * kTile, thread);
    }
    __syncthreads();
  }
}

// grid: 3 blocks per band (one per channel), which take their band and
// channel from the handoff's ticket; block: the horizontal warps, then the
// vertical warps. Path: NativeF64 or IntegerF64 (src/steps/f64_policies.h).
template <bool kObserve, class Path>
__global__ void __launch_bounds__(kThreads, 2) BlurBandsKernel(BandArgs a) {
  extern __shared__ float4 smem4[];
  float* ring = reinterpret_cast<float*>(smem4);
  float* staged = ring + 2 * Ring::kFloats;
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(a.handoff.ticket, 1u);
  __syncthreads();
  const int band = static_cast<int>(ticket / 3), c = static_cast<int>(ticket % 3);
  const int tiles = a.handoff.tiles;
  if (threadIdx.x < kRoleThreads) {
    HorizontalRole<kObserve, Path>(a, ring, staged, c, band, tiles);
  } else {
    VerticalRole<kObserve, Path>(a, ring, staged, c, band, tiles);
  }
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
  const BandArgs a{rg,     xyb,   MapTermsAt(prepared, w), h, BandsOf(h),
                   BandHandoff(band_workspace, tiles), advice, chunks,
                   observed ? *observed : BlurPlanes()};
  if (path == F64Path::kInteger) return Launch<IntegerF64>(a, observed, stream);
  return Launch<NativeF64>(a, observed, stream);
}

}  // namespace cuda
}  // namespace s2c
