// SPDX-License-Identifier: BSD-3-Clause
// The recursive Gaussian on the device: blur_steps.h's line functions, one
// line per thread (the filter must run along each line in order, exactness
// contract layer 1), with the memory traffic made coalesced around them.
//
// Horizontal: a block holds 32 lines of one channel and one warp per blurred
// plane (mu1, mu2, sigma11, sigma22, sigma12), all reading the same two XYB
// lines. Tiles of 32 columns of both lines are copied asynchronously
// (cp.async) into a shared-memory ring two tiles ahead of use, and outputs
// are staged in shared memory and written tile by tile; the products
// (x1*x1, ...) are formed on the fly, the same f32 bits as a stored product
// plane. Every line of the block has the same length, so BlurLineHorizontal
// calls its output functor in the same order in every thread, and that
// functor is where the block synchronises, once per tile.
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

// Which two samples a kind multiplies: mu1 = x1 * 1, mu2 = x2 * 1,
// sigma11 = x1 * x1, sigma22 = x2 * x2, sigma12 = x1 * x2. A product with
// 1.0f is exact, so every kind has the bits of its sample or product, and
// the selection needs no branch in the line's inner loop.
struct KindOperands {
  bool left_x2;
  bool right_one;
  bool right_x2;
  __device__ explicit KindOperands(int kind)
      : left_x2(kind == kMu2 || kind == kSigma22),
        right_one(kind == kMu1 || kind == kMu2),
        right_x2(kind == kSigma22 || kind == kSigma12) {}
  __device__ float Sample(float x1, float x2) const {
    const float left = left_x2 ? x2 : x1;
    const float right = right_one ? 1.0f : (right_x2 ? x2 : x1);
    return left * right;
  }
};

// Asynchronous 4-byte copy from global to shared memory (cp.async), zero
// filled when `valid` is false (nothing is read then).
__device__ __forceinline__ void CopyAsync(float* shared_dst, const float* src,
                                          bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst),
               "l"(src), "r"(valid ? 4 : 0)
               : "memory");
}
__device__ __forceinline__ void CopyCommit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void CopyWaitAll() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// What one thread of the horizontal pass needs at a tile's end.
struct TileWork {
  float* ring;              // [2 * kLines][kRingPitch]
  const float* my_staged;   // this warp's staged outputs, [kLines][kOutPitch]
  const float* in1;
  const float* in2;
  ptrdiff_t in_pitch;       // both images alike
  float* out;               // this warp's output plane
  ptrdiff_t out_pitch;
  int line0, lane, kind, w, h;

  // Requests tile t of both input images into its ring slot: every
  // kNumBlurKinds-th row per warp, one coalesced row of 32 columns each.
  __device__ void RequestTile(int t) const {
    const int x = t * kTile + lane;
    const int col = x % kRingCols;
#pragma unroll
    for (int r = kind; r < 2 * kLines; r += kNumBlurKinds) {
      const int y = line0 + r % kLines;
      const bool valid = y < h && x < w;
      const float* plane = r < kLines ? in1 : in2;
      CopyAsync(ring + r * kRingPitch + col, valid ? plane + y * in_pitch + x : in1, valid);
    }
    CopyCommit();
  }
  // Writes this warp's outputs of tile t, a row of 32 columns per store.
  __device__ void FlushTile(int t) const {
    const int x = t * kTile + lane;
#pragma unroll 8
    for (int line = 0; line < kLines; ++line) {
      const int y = line0 + line;
      if (y < h && x < w) out[y * out_pitch + x] = my_staged[line * kOutPitch + lane];
    }
  }
};

// A tile's end, out of line so that the per-column loop stays small: tile
// t + 2 (requested at the end of tile t - 1) must have landed and tile t - 1
// is no longer read by any warp, so after the barrier tile t + 3 can be
// requested into t - 1's slot while tile t + 1 is computed.
__device__ __noinline__ void EndOfTile(TileWork work, int t) {
  CopyWaitAll();
  __syncthreads();
  work.FlushTile(t);
  work.RequestTile(t + 3);
  __syncwarp();  // staged rows are rewritten by other lanes next
}

// grid: (line groups, channel); block: kNumBlurKinds warps.
__global__ void __launch_bounds__(kLines * kNumBlurKinds)
    BlurHorizontalKernel(BlurArgs a) {
  extern __shared__ float smem[];
  float* ring = smem;                                // [2][kLines][kRingPitch]
  float* staged = smem + 2 * kLines * kRingPitch;    // [kind][kLines][kOutPitch]
  const int c = blockIdx.y;
  const int lane = threadIdx.x % kLines;
  const int kind = threadIdx.x / kLines;
  TileWork work;
  work.ring = ring;
  work.my_staged = staged + kind * kLines * kOutPitch;
  work.in1 = a.xyb.img[0].c[c].data;
  work.in2 = a.xyb.img[1].c[c].data;
  work.in_pitch = a.xyb.img[0].c[c].pitch;
  work.out = a.out.p[c][kind].data;
  work.out_pitch = a.out.p[c][kind].pitch;
  work.line0 = blockIdx.x * kLines;
  work.lane = lane;
  work.kind = kind;
  work.w = a.w;
  work.h = a.h;

  work.RequestTile(0);
  work.RequestTile(1);
  work.RequestTile(2);
  CopyWaitAll();
  __syncthreads();

  const float* line1 = ring + lane * kRingPitch;
  const float* line2 = ring + (kLines + lane) * kRingPitch;
  float* my_out = staged + (kind * kLines + lane) * kOutPitch;
  const KindOperands operands(kind);
  const auto in = [&](int i) {
    const int col = i % kRingCols;
    return operands.Sample(line1[col], line2[col]);
  };
  // Outputs come in increasing i in every thread alike, so the last output
  // of a tile is where the block meets (EndOfTile).
  const auto out = [&](int i, float v) {
    my_out[i % kTile] = v;
    if (i % kTile == kTile - 1) EndOfTile(work, i / kTile);
  };
  BlurLineHorizontal(a.rg, in, out, a.w);
  if (a.w % kTile != 0) {
    __syncwarp();
    work.FlushTile(a.w / kTile);
  }
  CopyWaitAll();  // no copy may land after the block has exited
}

constexpr int kColumnsPerBlock = 128;
// Rows loaded per batch. A batch is requested one batch ahead of its use, so
// that its loads are in flight while the previous batch is computed: the
// pass is a chain of dependent steps per column with few columns per
// multiprocessor, so memory latency, not bandwidth, bounds it.
constexpr int kPrefetch = 32;
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
  // Lower taps of a batch starting at step n0: rows n0 + N - 1 and on,
  // zero outside the image. Rows are read before the steps that overwrite
  // them (step n writes row n, which is a lower tap of step n - N + 1).
  auto fetch = [&](int n0, float (&rows)[kPrefetch]) {
#pragma unroll
    for (int j = 0; j < kPrefetch; ++j) {
      const int r = n0 + kRadius - 1 + j;  // >= 0
      rows[j] = r < h ? col[r * p.pitch] : 0.0f;
    }
  };
  // held[j] is row n0 - N - 1 + j; rows above the image are zero.
  float held[kHeld];
  for (int j = 0; j < 2 * kRadius; ++j) held[j] = 0.0f;
  float ahead[kPrefetch];
  fetch(-kRadius + 1, ahead);
  VerticalState state;
  for (int n0 = -kRadius + 1; n0 < h; n0 += kPrefetch) {
#pragma unroll
    for (int j = 0; j < kPrefetch; ++j) held[2 * kRadius + j] = ahead[j];
    if (n0 + kPrefetch < h) fetch(n0 + kPrefetch, ahead);
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

cudaError_t PrepareBlurKernels() {
  return cudaFuncSetAttribute(BlurHorizontalKernel,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(kHorizontalSmem));
}

cudaError_t LaunchBlurHorizontal(const RecursiveGaussian& rg,
                                 const PairPlanes& xyb, const BlurPlanes& out,
                                 cudaStream_t stream) {
  if (rg.radius != kRadius) return cudaErrorInvalidValue;
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
