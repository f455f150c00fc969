// SPDX-License-Identifier: BSD-3-Clause
// The horizontal pass of the recursive Gaussian on the device: blur_steps.h's
// line functions, one line per thread (the filter must run along each line
// in order, exactness contract layer 1), with the memory traffic made
// coalesced around them. The vertical pass is kernels/blur_vertical.cu.
//
// A block holds 32 lines of one channel and one warp per blurred
// plane (mu1, mu2, sigma11, sigma22, sigma12), all reading the same two XYB
// lines. Tiles of 32 columns of both lines are copied asynchronously
// (cp.async) into a shared-memory ring two tiles ahead of use, and outputs
// are staged in shared memory and written tile by tile; the products
// (x1*x1, ...) are formed on the fly, the same f32 bits as a stored product
// plane. A tile made only of libjxl's 4-lane blocks (all but the first and
// the last one or two of a line) takes its 42 samples into registers at
// once and runs its 8 blocks unrolled: the steps are the CPU's
// (HorizontalBlockStep), the loads are all in flight before the first step.
// The other tiles follow the line's schedule step by step. Every line of the
// block has the same length, so all threads take the same path, and the
// block synchronises at each tile's end.
#include "ssimulacra2_launch.h"

#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kRadius = kBlurRadius;
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

// The sample a kind blurs at a ring column of this thread's two lines:
// mu1 = x1, mu2 = x2, sigma11 = x1 * x1, sigma22 = x2 * x2,
// sigma12 = x1 * x2. The kind is the warp's, so the branches do not diverge.
struct KindSampler {
  const float* first;   // x1 for mu1, sigma11, sigma12; x2 for mu2, sigma22
  const float* second;  // x2, read for sigma12 only
  bool product;
  bool cross;
  __device__ KindSampler(const float* line1, const float* line2, int kind)
      : first(kind == kMu2 || kind == kSigma22 ? line2 : line1),
        second(line2),
        product(kind >= kSigma11),
        cross(kind == kSigma12) {}
  __device__ float operator()(int col) const {
    const float u = first[col];
    if (!product) return u;
    return u * (cross ? second[col] : u);
  }
};

// Asynchronous 4-byte copy from global to shared memory (cp.async), zero
// filled when `valid` is false (nothing is read then). Before sm_80 there
// is no cp.async: the copy is an ordinary load and store, the same bits
// in the ring, only without the overlap.
__device__ __forceinline__ void CopyAsync(float* shared_dst, const float* src,
                                          bool valid) {
#if __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst),
               "l"(src), "r"(valid ? 4 : 0)
               : "memory");
#else
  *shared_dst = valid ? *src : 0.0f;
#endif
}
__device__ __forceinline__ void CopyCommit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void CopyWaitAll() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// What one thread of the horizontal pass needs at a tile's end.
constexpr int kRingRowsPerWarp = (2 * kLines + kNumBlurKinds - 1) / kNumBlurKinds;
struct TileWork {
  float* ring;              // [2 * kLines][kRingPitch]
  const float* my_staged;   // this warp's staged outputs, [kLines][kOutPitch]
  // The input rows this thread's warp copies into the ring: ring row
  // kind + i * kNumBlurKinds (x1's lines, then x2's), null past the image.
  const float* row_src[kRingRowsPerWarp];
  float* out;               // this warp's output plane
  ptrdiff_t out_pitch;
  int line0, lane, kind, w, h;

  __device__ TileWork(const BlurArgs& a, float* ring_, const float* staged, int c)
      : ring(ring_),
        my_staged(staged),
        out(a.out.p[c][threadIdx.x / kLines].data),
        out_pitch(a.out.p[c][threadIdx.x / kLines].pitch),
        line0(blockIdx.x * kLines),
        lane(threadIdx.x % kLines),
        kind(threadIdx.x / kLines),
        w(a.w),
        h(a.h) {
#pragma unroll
    for (int i = 0; i < kRingRowsPerWarp; ++i) {
      const int r = kind + i * kNumBlurKinds;
      const int y = line0 + r % kLines;
      const PlaneView& in = a.xyb.img[r < kLines ? 0 : 1].c[c];
      row_src[i] = r < 2 * kLines && y < h ? in.data + y * in.pitch : nullptr;
    }
  }

  // Requests tile t of both input images into its ring slot: every
  // kNumBlurKinds-th row per warp, one coalesced row of 32 columns each.
  __device__ void RequestTile(int t) const {
    const int x = t * kTile + lane;
    const int col = x % kRingCols;
#pragma unroll
    for (int i = 0; i < kRingRowsPerWarp; ++i) {
      const int r = kind + i * kNumBlurKinds;
      if (r >= 2 * kLines) break;
      const bool valid = row_src[i] != nullptr && x < w;
      // An invalid copy reads nothing; its source is any global address.
      CopyAsync(ring + r * kRingPitch + col, valid ? row_src[i] + x : out, valid);
    }
    CopyCommit();
  }
  // Writes this warp's outputs of tile t, a row of 32 columns per store.
  __device__ void FlushTile(int t) const {
    const int x = t * kTile + lane;
    if (x >= w) return;
    float* to = out + line0 * out_pitch + x;
    const float* from = my_staged + lane;
    if (line0 + kLines <= h) {
#pragma unroll
      for (int line = 0; line < kLines; ++line, to += out_pitch) *to = from[line * kOutPitch];
    } else {
      for (int line = 0; line < h - line0; ++line, to += out_pitch) *to = from[line * kOutPitch];
    }
  }
};

// A tile's end: tile t + 2 (requested at the end of tile t - 1) must have
// landed and tile t - 1 is no longer read by any warp, so after the barrier
// tile t + 3 can be requested into t - 1's slot while tile t + 1 is computed.
__device__ __forceinline__ void EndOfTile(const TileWork& work, int t) {
  CopyWaitAll();
  __syncthreads();
  work.FlushTile(t);
  work.RequestTile(t + 3);
  __syncwarp();  // staged rows are rewritten by other lanes next
}

// A tile of 4-lane blocks only (x0 >= the first block, x0 + kTile <= the
// block end): samples x0 - N - 1 .. x0 + kTile + N - 2, all in the ring
// (tiles t - 1 .. t + 1), into registers, then the 8 blocks unrolled.
constexpr int kWindow = kTile + 2 * kRadius;
static_assert(kTile % 4 == 0 && (kRingCols & (kRingCols - 1)) == 0, "ring layout");
__device__ __forceinline__ void BlockTile(const RecursiveGaussian& rg,
                                          const KindSampler& sample, int x0,
                                          HorizontalState& st, float* out) {
  const int first = x0 - kRadius - 1;  // >= 0
  float w[kWindow];
#pragma unroll
  for (int j = 0; j < kWindow; ++j) w[j] = sample((first + j) & (kRingCols - 1));
#pragma unroll
  for (int b = 0; b < kTile; b += 4) {
    float s[4], v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) s[j] = w[b + j] + w[b + j + 2 * kRadius];
    HorizontalBlockStep(rg, s, st, v);
#pragma unroll
    for (int j = 0; j < 4; ++j) out[b + j] = v[j];
  }
}

// Any other tile (the line's first, its scalar tail), position by position
// as BlurLineHorizontal takes them; tile 0 starts at n = -N + 1. A block of
// 4 never crosses a tile: blocks start at multiples of 4.
__device__ __forceinline__ void EdgeTile(const RecursiveGaussian& rg,
                                         const KindSampler& sample,
                                         const HorizontalSchedule& sched, int len,
                                         int x0, HorizontalState& st, float* out) {
  const auto in = [&](int i) { return sample(i & (kRingCols - 1)); };
  const auto put = [&](int i, float v) { out[i - x0] = v; };
  const int end = min(x0 + kTile, len);
  for (int n = x0 == 0 ? -kRadius + 1 : x0; n < end;) {
    n = HorizontalStepAt(rg, sched, in, put, len, n, st);
  }
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
  const TileWork work(a, ring, staged + kind * kLines * kOutPitch, c);

  work.RequestTile(0);
  work.RequestTile(1);
  work.RequestTile(2);
  CopyWaitAll();
  __syncthreads();

  const KindSampler sample(ring + lane * kRingPitch, ring + (kLines + lane) * kRingPitch, kind);
  float* my_out = staged + (kind * kLines + lane) * kOutPitch;
  const HorizontalSchedule sched(kRadius, a.w);
  HorizontalState st;
  const int tiles = (a.w + kTile - 1) / kTile;
  for (int t = 0; t < tiles; ++t) {
    const int x0 = t * kTile;
    if (x0 >= sched.first_block && x0 + kTile <= sched.block_end) {
      BlockTile(a.rg, sample, x0, st, my_out);
    } else {
      EdgeTile(a.rg, sample, sched, a.w, x0, st, my_out);
    }
    EndOfTile(work, t);  // flushes tile t (columns below w only)
  }
  CopyWaitAll();  // no copy may land after the block has exited
}

}  // namespace

cudaError_t PrepareBlurKernels() {
  return cudaFuncSetAttribute(BlurHorizontalKernel,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(kHorizontalSmem));
}

cudaError_t LaunchBlurHorizontal(const RecursiveGaussian& rg,
                                 const PairPlanes& xyb, const BlurPlanes& blurred,
                                 cudaStream_t stream) {
  if (rg.radius != kRadius) return cudaErrorInvalidValue;
  const BlurArgs a{rg, xyb, blurred, blurred.p[0][0].width, blurred.p[0][0].height};
  const dim3 grid((a.h + kLines - 1) / kLines, 3);
  BlurHorizontalKernel<<<grid, kLines * kNumBlurKinds, kHorizontalSmem, stream>>>(a);
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace s2c
