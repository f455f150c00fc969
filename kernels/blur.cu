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
// the XYB lines the plane reads are copied asynchronously (cp.async, 16
// bytes a copy) into a shared-memory ring two tiles ahead of use; the
// products (x1 * x1, ...) are formed on the fly, the same f32 bits as a
// stored product plane. A tile made only of libjxl's 4-lane blocks (all but
// the first and the last one or two of a line) takes its samples into
// registers at once and runs its 4 blocks unrolled; the other tiles follow
// the line's schedule step by step (HorizontalStepAt). Each pole's outputs
// are staged in shared memory; at a tile's end the block adds the three
// poles' outputs and writes them, 4 columns a thread. Every line of the
// block has the same length, so all threads take the same path.
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
// Pitches of 4 (mod 32) floats: a warp's 16-byte accesses, one line per
// lane, hit distinct banks in each quarter warp.
constexpr int kRingPitch = kRingCols + 4;
constexpr int kStagePitch = kTile + 4;
constexpr int kRingFloats = kLines * kRingPitch;               // one image
constexpr int kStageFloats = kPoles * kLines * kStagePitch;    // [pole][line]
constexpr size_t kHorizontalSmem = sizeof(float) * (2 * kRingFloats + kStageFloats);
// A tile's row is kQuads groups of 4 columns (16 bytes); thread i copies and
// writes group i % kQuads of rows i / kQuads, i / kQuads + kQuadRows, ...
constexpr int kQuads = kTile / 4;
constexpr int kQuadRows = kThreads / kQuads;
// A tile of blocks reads columns x0 - N - 1 .. x0 + kTile + N - 2: the
// groups of 4 from x0 - kLead on.
constexpr int kLead = (kRadius + 1 + 3) / 4 * 4;
constexpr int kWindow = (kLead + kTile + kRadius - 2 + 3) / 4 * 4;

static_assert(kLead <= kTile && kRadius - 2 <= kTile, "window within tiles t - 1 .. t + 1");
static_assert((kRingCols & (kRingCols - 1)) == 0 && kThreads % kQuads == 0, "ring layout");

struct BlurArgs {
  RecursiveGaussian rg;
  PairPlanes xyb;
  BlurPlanes out;
  int w;
  int h;
};

// The samples a blurred plane reads at a ring column of one line, from the
// ring rows of the XYB images it reads (first: x1 for mu1, sigma11 and
// sigma12, x2 for mu2 and sigma22; second: x2 for sigma12). Quad takes
// columns col .. col + 3, col a multiple of 4.
struct Plain {  // mu1 = x1, mu2 = x2
  static constexpr int kImages = 1;
  const float* first;
  const float* second;
  __device__ float operator()(int col) const { return first[col]; }
  __device__ float4 Quad(int col) const { return *reinterpret_cast<const float4*>(first + col); }
};
struct Square {  // sigma11 = x1 * x1, sigma22 = x2 * x2
  static constexpr int kImages = 1;
  const float* first;
  const float* second;
  __device__ float operator()(int col) const { return first[col] * first[col]; }
  __device__ float4 Quad(int col) const {
    const float4 u = *reinterpret_cast<const float4*>(first + col);
    return make_float4(u.x * u.x, u.y * u.y, u.z * u.z, u.w * u.w);
  }
};
struct Cross {  // sigma12 = x1 * x2
  static constexpr int kImages = 2;
  const float* first;
  const float* second;
  __device__ float operator()(int col) const { return first[col] * second[col]; }
  __device__ float4 Quad(int col) const {
    const float4 u = *reinterpret_cast<const float4*>(first + col);
    const float4 v = *reinterpret_cast<const float4*>(second + col);
    return make_float4(u.x * v.x, u.y * v.y, u.z * v.z, u.w * v.w);
  }
};

// Asynchronous 16-byte copy from global to shared memory (cp.async) of the
// first `bytes` bytes, the rest zero filled (nothing is read when `bytes` is
// 0). Before sm_80 there is no cp.async: the copy is an ordinary load and
// store, the same bits in the ring, only without the overlap.
__device__ __forceinline__ void CopyAsync16(float* shared_dst, const float* src, int bytes) {
#if __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(bytes)
               : "memory");
#else
  for (int i = 0; i < 4; ++i) shared_dst[i] = 4 * i < bytes ? src[i] : 0.0f;
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
// group of 4 columns of every kQuadRows-th row of the block.
struct TileWork {
  const BlurArgs& a;
  float* ring;           // [image][kLines][kRingPitch]
  const float* staged;   // [pole][kLines][kStagePitch]
  int c, kind, line0, quad, row0;

  __device__ TileWork(const BlurArgs& args, float* ring_, const float* staged_)
      : a(args),
        ring(ring_),
        staged(staged_),
        c(blockIdx.z),
        kind(blockIdx.x),
        line0(blockIdx.y * kLines),
        quad(threadIdx.x % kQuads),
        row0(threadIdx.x / kQuads) {}

  // Requests tile t of the `images` XYB images the plane reads into its
  // ring slot, ring row image * kLines + line. The rows are padded to 128
  // bytes, so a group that starts inside the line lies inside the plane.
  __device__ void RequestTile(int t, int images) const {
    const int x = t * kTile + 4 * quad;
    const int first = kind == kMu2 || kind == kSigma22 ? 1 : 0;
    const int col = x % kRingCols;
    for (int r = row0; r < images * kLines; r += kQuadRows) {
      const PlaneView& in = a.xyb.img[first + r / kLines].c[c];
      const int y = line0 + r % kLines;
      const bool valid = y < a.h && x < a.w;
      // An invalid copy reads nothing; its source is any global address.
      CopyAsync16(ring + r * kRingPitch + col, valid ? in.data + y * in.pitch + x : in.data,
                  valid ? 16 : 0);
    }
    CopyCommit();
  }
  // Adds the three poles' staged outputs of tile t and writes them.
  __device__ void FlushTile(int t) const {
    const int x = t * kTile + 4 * quad;
    if (x >= a.w) return;
    const PlaneView& out = a.out.p[c][kind];
    const int rows = min(kLines, a.h - line0);
    for (int r = row0; r < rows; r += kQuadRows) {
      const float* from = staged + r * kStagePitch + 4 * quad;
      const float4 o0 = *reinterpret_cast<const float4*>(from);
      const float4 o1 = *reinterpret_cast<const float4*>(from + kLines * kStagePitch);
      const float4 o2 = *reinterpret_cast<const float4*>(from + 2 * kLines * kStagePitch);
      const float4 v = make_float4(SumPoles(o0.x, o1.x, o2.x), SumPoles(o0.y, o1.y, o2.y),
                                   SumPoles(o0.z, o1.z, o2.z), SumPoles(o0.w, o1.w, o2.w));
      float* to = out.data + (line0 + r) * out.pitch + x;
      if (x + 4 <= a.w) {
        *reinterpret_cast<float4*>(to) = v;
      } else {  // the line ends inside the group: 1 to 3 columns
        to[0] = v.x;
        if (x + 1 < a.w) to[1] = v.y;
        if (x + 2 < a.w) to[2] = v.z;
      }
    }
  }
};

// A tile of 4-lane blocks only (x0 >= the first block, x0 + kTile <= the
// block end): its samples, all in the ring (tiles t - 1 .. t + 1), into
// registers, then the blocks unrolled.
template <class Sampler>
__device__ __forceinline__ void BlockTile(const OnePole& pole, const Sampler& sample, int x0,
                                          float* out) {
  float w[kWindow];  // w[i]: column x0 - kLead + i
#pragma unroll
  for (int i = 0; i < kWindow; i += 4) {
    const float4 v = sample.Quad((x0 - kLead + i) & (kRingCols - 1));
    w[i] = v.x;
    w[i + 1] = v.y;
    w[i + 2] = v.z;
    w[i + 3] = v.w;
  }
  constexpr int kLeft = kLead - kRadius - 1;  // w index of column x0 - N - 1
#pragma unroll
  for (int b = 0; b < kTile; b += 4) {
    float s[4], v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) s[j] = w[kLeft + b + j] + w[kLeft + b + j + 2 * kRadius];
    pole.Block(s, v);
    *reinterpret_cast<float4*>(out + b) = make_float4(v[0], v[1], v[2], v[3]);
  }
}

// Any other tile (the line's first, its scalar tail), position by position
// as BlurLineHorizontal takes them; tile 0 starts at n = -N + 1. A block of
// 4 never crosses a tile: blocks start at multiples of 4.
template <class Sampler>
__device__ __forceinline__ void EdgeTile(const OnePole& pole, const Sampler& sample,
                                         const HorizontalSchedule& sched, int len, int x0,
                                         float* out) {
  const auto in = [&](int i) { return sample(i & (kRingCols - 1)); };
  const auto put = [&](int i, float v) { out[i - x0] = v; };
  const int end = min(x0 + kTile, len);
  for (int n = x0 == 0 ? -kRadius + 1 : x0; n < end;) {
    n = HorizontalStepAt(pole, kRadius, sched, in, put, len, n);
  }
}

// One pole of one line of the block, tile by tile.
template <class Sampler>
__device__ __forceinline__ void BlurLines(const BlurArgs& a, float* ring, float* staged) {
  const int line = threadIdx.x % kLines;
  const int k = threadIdx.x / kLines;
  const TileWork work(a, ring, staged);
  const Sampler sample{ring + line * kRingPitch, ring + kRingFloats + line * kRingPitch};

  work.RequestTile(0, Sampler::kImages);
  work.RequestTile(1, Sampler::kImages);
  work.RequestTile(2, Sampler::kImages);
  CopyWaitAll();
  __syncthreads();

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
    work.RequestTile(t + 3, Sampler::kImages);
    work.FlushTile(t);
    __syncthreads();  // the staged outputs are rewritten by tile t + 1
  }
  CopyWaitAll();  // no copy may land after the block has exited
}

// grid: (kind, line groups, channel); block: kPoles warps.
__global__ void __launch_bounds__(kThreads) BlurHorizontalKernel(BlurArgs a) {
  extern __shared__ float4 smem4[];
  float* ring = reinterpret_cast<float*>(smem4);
  float* staged = ring + 2 * kRingFloats;
  switch (blockIdx.x) {
    case kMu1:
    case kMu2:
      BlurLines<Plain>(a, ring, staged);
      break;
    case kSigma11:
    case kSigma22:
      BlurLines<Square>(a, ring, staged);
      break;
    default:
      BlurLines<Cross>(a, ring, staged);
  }
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
