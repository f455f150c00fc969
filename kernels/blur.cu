// SPDX-License-Identifier: BSD-3-Clause
// The horizontal pass of the recursive Gaussian on the device: blur_steps.h's
// line functions with each line run in order (the filter must run along a
// line in order, exactness contract layer 1), and its three poles on three
// threads. The poles never read each other's state, so they are three
// independent chains; only their outputs meet, added in libjxl's order
// (SumPoles) when the outputs are written. A line's chain is long (3840
// steps at 4K) and a frame has few lines per blurred plane (32,400 at 4K
// scale 0), so the poles are what fills the GPU: three times the threads of
// a thread per line. The vertical pass is kernels/blur_vertical.cu.
//
// A block holds 32 lines of one channel and one blurred plane (mu1, mu2,
// sigma11, sigma22 or sigma12), one warp per pole. Tiles of 16 columns of
// the XYB lines the plane reads are copied asynchronously (cp.async) into a
// shared-memory ring two tiles ahead of use; the products (x1 * x1, ...) are
// formed on the fly, the same f32 bits as a stored product plane. A tile
// made only of libjxl's 4-lane blocks (all but the first and the last one
// or two of a line) takes its 26 samples into registers at once and runs
// its 4 blocks unrolled; the other tiles follow the line's schedule step by
// step (HorizontalStepAt). Each pole's outputs are staged in shared memory;
// at a tile's end the block adds the three poles' outputs and writes them,
// a row of 16 columns per half warp. Every line of the block has the same
// length, so all threads take the same path.
#include "ssimulacra2_launch.h"

#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kRadius = kBlurRadius;
constexpr int kLines = 32;                  // lines per block = warp size
constexpr int kPoles = 3;                   // warps per block, one per pole
constexpr int kThreads = kLines * kPoles;
constexpr int kTile = 16;                   // columns per tile
constexpr int kRingTiles = 4;               // tiles t - 1 .. t + 2 resident
constexpr int kRingCols = kTile * kRingTiles;
// 66 = 2 (mod 32): a warp's 8-byte loads, one line per lane, hit distinct
// banks in each half warp.
constexpr int kRingPitch = kRingCols + 2;
// 20: a warp's 16-byte stores, one line per lane, hit distinct banks in
// each quarter warp.
constexpr int kStagePitch = kTile + 4;
constexpr int kRingFloats = kLines * kRingPitch;               // one image
constexpr int kStageFloats = kPoles * kLines * kStagePitch;    // [pole][line]
constexpr size_t kHorizontalSmem = sizeof(float) * (2 * kRingFloats + kStageFloats);
// The threads of a block copy and write a tile's rows together: thread i
// takes column i % kTile of rows i / kTile, i / kTile + kRowStride, ...
constexpr int kRowStride = kThreads / kTile;

// The window of a tile reaches N + 1 columns back into the previous tile
// and N - 2 into the next; pairs of samples are loaded as 8-byte words.
static_assert(kRadius + 1 <= kTile && kRadius - 2 <= kTile, "window within a tile");
static_assert((kRadius + 1) % 2 == 0 && kTile % 4 == 0, "aligned sample pairs");
static_assert((kRingCols & (kRingCols - 1)) == 0 && kThreads % kTile == 0, "ring layout");

struct BlurArgs {
  RecursiveGaussian rg;
  PairPlanes xyb;
  BlurPlanes out;
  int w;
  int h;
};

// The XYB images a blurred plane reads: x1 for mu1 and sigma11, x2 for mu2
// and sigma22, both for sigma12.
__device__ int FirstImage(int kind) { return kind == kMu2 || kind == kSigma22 ? 1 : 0; }
__device__ int NumImages(int kind) { return kind == kSigma12 ? 2 : 1; }

// The sample a plane blurs at a ring column of one line: mu1 = x1,
// mu2 = x2, sigma11 = x1 * x1, sigma22 = x2 * x2, sigma12 = x1 * x2. The
// kind is the block's, so the branches do not diverge.
struct KindSampler {
  const float* first;   // this line's ring row of the first image read
  const float* second;  // of x2, read for sigma12 only
  bool product;
  bool cross;
  __device__ KindSampler(const float* ring, int line, int kind)
      : first(ring + line * kRingPitch),
        second(ring + kRingFloats + line * kRingPitch),
        product(kind >= kSigma11),
        cross(kind == kSigma12) {}
  __device__ float operator()(int col) const {
    const float u = first[col];
    if (!product) return u;
    return u * (cross ? second[col] : u);
  }
  // Columns col and col + 1, col even.
  __device__ float2 Pair(int col) const {
    const float2 u = *reinterpret_cast<const float2*>(first + col);
    if (!product) return u;
    const float2 v = cross ? *reinterpret_cast<const float2*>(second + col) : u;
    return make_float2(u.x * v.x, u.y * v.y);
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

// What a thread copies into the ring and writes out at a tile's ends: one
// column of every kRowStride-th line of the block.
struct TileWork {
  const BlurArgs& a;
  float* ring;           // [image][kLines][kRingPitch]
  const float* staged;   // [pole][kLines][kStagePitch]
  int c, kind, line0, col, row0;

  __device__ TileWork(const BlurArgs& args, float* ring_, const float* staged_)
      : a(args),
        ring(ring_),
        staged(staged_),
        c(blockIdx.z),
        kind(blockIdx.x),
        line0(blockIdx.y * kLines),
        col(threadIdx.x % kTile),
        row0(threadIdx.x / kTile) {}

  // Requests tile t of the images the plane reads into its ring slot.
  __device__ void RequestTile(int t) const {
    const int x = t * kTile + col;
    const int first = FirstImage(kind);
    for (int i = 0; i < NumImages(kind); ++i) {
      const PlaneView& in = a.xyb.img[first + i].c[c];
      float* dst = ring + i * kRingFloats + row0 * kRingPitch + x % kRingCols;
      const float* src = in.data + (line0 + row0) * in.pitch + x;
      for (int r = row0; r < kLines; r += kRowStride) {
        const bool valid = line0 + r < a.h && x < a.w;
        // An invalid copy reads nothing; its source is any global address.
        CopyAsync(dst, valid ? src : in.data, valid);
        dst += kRowStride * kRingPitch;
        src += kRowStride * in.pitch;
      }
    }
    CopyCommit();
  }
  // Adds the three poles' staged outputs of tile t and writes them.
  __device__ void FlushTile(int t) const {
    const int x = t * kTile + col;
    if (x >= a.w) return;
    const PlaneView& out = a.out.p[c][kind];
    const int rows = min(kLines, a.h - line0);
    const float* from = staged + row0 * kStagePitch + col;
    float* to = out.data + (line0 + row0) * out.pitch + x;
    for (int r = row0; r < rows; r += kRowStride) {
      *to = SumPoles(from[0], from[kLines * kStagePitch], from[2 * kLines * kStagePitch]);
      from += kRowStride * kStagePitch;
      to += kRowStride * out.pitch;
    }
  }
};

// A tile of 4-lane blocks only (x0 >= the first block, x0 + kTile <= the
// block end): samples x0 - N - 1 .. x0 + kTile + N - 2, all in the ring
// (tiles t - 1 .. t + 1), into registers, then the blocks unrolled.
constexpr int kWindow = kTile + 2 * kRadius;
__device__ __forceinline__ void BlockTile(const OnePole& pole, const KindSampler& sample,
                                          int x0, float* out) {
  const int first = x0 - kRadius - 1;  // >= 0, even
  float w[kWindow];
#pragma unroll
  for (int j = 0; j < kWindow; j += 2) {
    const float2 v = sample.Pair((first + j) & (kRingCols - 1));
    w[j] = v.x;
    w[j + 1] = v.y;
  }
#pragma unroll
  for (int b = 0; b < kTile; b += 4) {
    float s[4], v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) s[j] = w[b + j] + w[b + j + 2 * kRadius];
    pole.Block(s, v);
    *reinterpret_cast<float4*>(out + b) = make_float4(v[0], v[1], v[2], v[3]);
  }
}

// Any other tile (the line's first, its scalar tail), position by position
// as BlurLineHorizontal takes them; tile 0 starts at n = -N + 1. A block of
// 4 never crosses a tile: blocks start at multiples of 4.
__device__ __forceinline__ void EdgeTile(const OnePole& pole, const KindSampler& sample,
                                         const HorizontalSchedule& sched, int len,
                                         int x0, float* out) {
  const auto in = [&](int i) { return sample(i & (kRingCols - 1)); };
  const auto put = [&](int i, float v) { out[i - x0] = v; };
  const int end = min(x0 + kTile, len);
  for (int n = x0 == 0 ? -kRadius + 1 : x0; n < end;) {
    n = HorizontalStepAt(pole, kRadius, sched, in, put, len, n);
  }
}

// grid: (kind, line groups, channel); block: kPoles warps.
__global__ void __launch_bounds__(kThreads) BlurHorizontalKernel(BlurArgs a) {
  extern __shared__ float smem[];
  float* ring = smem;
  float* staged = smem + 2 * kRingFloats;
  const int line = threadIdx.x % kLines;
  const int k = threadIdx.x / kLines;
  const TileWork work(a, ring, staged);

  work.RequestTile(0);
  work.RequestTile(1);
  work.RequestTile(2);
  CopyWaitAll();
  __syncthreads();

  const KindSampler sample(ring, line, work.kind);
  float* my_out = staged + (k * kLines + line) * kStagePitch;
  const HorizontalSchedule sched(kRadius, a.w);
  PoleState st;
  const OnePole pole{a.rg, k, st};
  const int tiles = (a.w + kTile - 1) / kTile;
  for (int t = 0; t < tiles; ++t) {
    const int x0 = t * kTile;
    if (x0 >= sched.first_block && x0 + kTile <= sched.block_end) {
      BlockTile(pole, sample, x0, my_out);
    } else {
      EdgeTile(pole, sample, sched, a.w, x0, my_out);
    }
    // Tile t + 2 (requested at the end of tile t - 1) must have landed, the
    // poles' outputs of tile t must be staged, and tile t - 1's ring slot
    // must be read by no one before tile t + 3 is requested into it.
    CopyWaitAll();
    __syncthreads();
    work.RequestTile(t + 3);
    work.FlushTile(t);
    __syncthreads();  // the staged outputs are rewritten by tile t + 1
  }
  CopyWaitAll();  // no copy may land after the block has exited
}

}  // namespace

cudaError_t PrepareBlurKernels() {
  // Eight blocks of 24 KiB per SM hold the 1020 blocks of a 4K frame's
  // scale 0 at once: ask for the largest shared-memory share.
  return cudaFuncSetAttribute(BlurHorizontalKernel,
                              cudaFuncAttributePreferredSharedMemoryCarveout,
                              cudaSharedmemCarveoutMaxShared);
}

cudaError_t LaunchBlurHorizontal(const RecursiveGaussian& rg,
                                 const PairPlanes& xyb, const BlurPlanes& blurred,
                                 cudaStream_t stream) {
  if (rg.radius != kRadius) return cudaErrorInvalidValue;
  const BlurArgs a{rg, xyb, blurred, blurred.p[0][0].width, blurred.p[0][0].height};
  const dim3 grid(kNumBlurKinds, (a.h + kLines - 1) / kLines, 3);
  BlurHorizontalKernel<<<grid, kThreads, kHorizontalSmem, stream>>>(a);
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace s2c
