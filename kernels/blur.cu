// SPDX-License-Identifier: BSD-3-Clause
// The horizontal pass of the recursive Gaussian on the device: blur_steps.h's
// line functions, one line per thread (the filter must run along each line
// in order, exactness contract layer 1), with the memory traffic around them
// made wide and coalesced. The vertical pass is kernels/blur_vertical.cu.
//
// A block holds 32 lines of one channel and one warp per blurred plane
// (mu1, mu2, sigma11, sigma22, sigma12), all reading the same two XYB
// lines. Tiles of 32 columns of both lines are copied asynchronously
// (cp.async, 16 bytes a copy) into a shared-memory ring of 8 tiles; the
// products (x1 * x1, ...) are formed on the fly, the same f32 bits as a
// stored product plane. A tile made only of libjxl's 4-lane blocks (all but
// the first and the last one or two of a line) takes its samples into
// registers with 16-byte loads and runs its 8 blocks unrolled; the other
// tiles follow the line's schedule step by step (HorizontalStepAt). Each
// warp stages its outputs in shared memory and writes them tile by tile, 16
// bytes a lane. Every line of the block has the same length, so all
// threads take the same path. The block synchronises every two tiles and
// then requests the two tiles after the next four; where a block may not
// have the shared memory that takes (Turing), it synchronises every tile
// and requests the tile after the next two (Ring).
//
// The pass is latency-bound when it runs alone (a 4K frame's scale 0 has
// 32,400 lines of blurred planes: about 1.6 warps per scheduler of an H200)
// and shares the GPU with other pairs' kernels when pairs are in flight, so
// what it saves is instructions, barriers and shared-memory traffic per
// output. A thread per pole of each line triples the warps but loads each
// sample three times: measured, it shortened the pass alone and slowed
// pairs in flight (docs/decisions.md, D77).
#include "ssimulacra2_launch.h"

#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kRadius = kBlurRadius;
constexpr int kLines = 32;                      // lines per block = warp size
constexpr int kThreads = kLines * kNumBlurKinds;  // a warp per blurred plane
constexpr int kTile = 32;                       // columns per tile
constexpr int kStagePitch = kTile + 4;  // 4 (mod 32): see Ring::kPitch
constexpr int kStageFloats = kLines * kStagePitch;   // one warp's outputs

// The shared-memory ring of XYB samples, for a block that synchronises
// after every kTilesPerSync tiles t (t + 1 a multiple of it) and then
// requests tiles t + 2 kTilesPerSync + 1 .. t + 3 kTilesPerSync, into the
// slots of tiles that no one reads any more. Two tiles per barrier halve
// the barriers but take 87.5 KiB of shared memory per block, more than a
// Turing GPU allows (64 KiB); there the block synchronises every tile.
template <int kTilesPerSync>
struct Ring {
  static constexpr int kCols = kTile * 4 * kTilesPerSync;
  // 4 (mod 32) floats: a warp's 16-byte accesses, one line per lane, hit
  // distinct banks in each quarter warp.
  static constexpr int kPitch = kCols + 4;
  static constexpr int kFloats = kLines * kPitch;  // one image
  static constexpr size_t kSmemBytes =
      sizeof(float) * (2 * kFloats + kNumBlurKinds * kStageFloats);
  static_assert((kCols & (kCols - 1)) == 0, "ring columns: a power of 2");
};
// A tile's row is kQuads groups of 4 columns (16 bytes). In the ring copy,
// thread i takes group i % kQuads of ring rows i / kQuads, i / kQuads +
// kCopyRows, ...; in a warp's write, lane l group l % kQuads of rows
// l / kQuads, l / kQuads + kWriteRows, ...
constexpr int kQuads = kTile / 4;
constexpr int kCopyRows = kThreads / kQuads;
constexpr int kWriteRows = kLines / kQuads;
// A tile of blocks reads columns x0 - N - 1 .. x0 + kTile + N - 2: the
// groups of 4 from x0 - kLead on.
constexpr int kLead = (kRadius + 1 + 3) / 4 * 4;
constexpr int kWindow = (kLead + kTile + kRadius - 2 + 3) / 4 * 4;

static_assert(kLead <= kTile && kRadius - 2 <= kTile, "window within tiles t - 1 .. t + 1");
static_assert(kThreads % kQuads == 0, "copy layout");

struct BlurArgs {
  RecursiveGaussian rg;
  PairPlanes xyb;
  BlurPlanes out;
  int w;
  int h;
};

// The samples a blurred plane reads at a ring column of one line, from the
// line's ring rows: `first` of x1 for mu1, sigma11 and sigma12, of x2 for
// mu2 and sigma22; `second` of x2, for sigma12. Quad takes columns col ..
// col + 3, col a multiple of 4.
struct Plain {  // mu1 = x1, mu2 = x2
  const float* first;
  __device__ float operator()(int col) const { return first[col]; }
  __device__ float4 Quad(int col) const { return *reinterpret_cast<const float4*>(first + col); }
};
struct Square {  // sigma11 = x1 * x1, sigma22 = x2 * x2
  const float* first;
  __device__ float operator()(int col) const { return first[col] * first[col]; }
  __device__ float4 Quad(int col) const {
    const float4 u = *reinterpret_cast<const float4*>(first + col);
    return make_float4(u.x * u.x, u.y * u.y, u.z * u.z, u.w * u.w);
  }
};
struct Cross {  // sigma12 = x1 * x2
  const float* first;
  const float* second;
  __device__ float operator()(int col) const { return first[col] * second[col]; }
  __device__ float4 Quad(int col) const {
    const float4 u = *reinterpret_cast<const float4*>(first + col);
    const float4 v = *reinterpret_cast<const float4*>(second + col);
    return make_float4(u.x * v.x, u.y * v.y, u.z * v.z, u.w * v.w);
  }
};

// Asynchronous 16-byte copy from global to shared memory (cp.async), zero
// filled when `valid` is false (nothing is read then). Before sm_80 there
// is no cp.async: the copy is an ordinary load and store, the same bits in
// the ring, only without the overlap.
__device__ __forceinline__ void CopyAsync16(float* shared_dst, const float* src, bool valid) {
#if __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(valid ? 16 : 0)
               : "memory");
#else
  *reinterpret_cast<float4*>(shared_dst) =
      valid ? *reinterpret_cast<const float4*>(src) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
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

// What a thread copies into the ring and writes out at a tile's end.
template <class R>
struct TileWork {
  const BlurArgs& a;
  float* ring;             // [image][kLines][R::kPitch]
  const float* my_staged;  // this warp's staged outputs, [kLines][kStagePitch]
  int c, kind, line0;

  __device__ TileWork(const BlurArgs& args, float* ring_, const float* staged)
      : a(args),
        ring(ring_),
        my_staged(staged + threadIdx.x / kLines * kStageFloats),
        c(blockIdx.y),
        kind(threadIdx.x / kLines),
        line0(blockIdx.x * kLines) {}

  // Requests tile t of both XYB images into its ring slot, ring row
  // image * kLines + line. The planes' rows are padded to 128 bytes, so a
  // group that starts inside the line lies inside the plane.
  __device__ void RequestTile(int t) const {
    const int x = t * kTile + 4 * (threadIdx.x % kQuads);
    const int col = x % R::kCols;
    for (int r = threadIdx.x / kQuads; r < 2 * kLines; r += kCopyRows) {
      const PlaneView& in = a.xyb.img[r / kLines].c[c];
      const int y = line0 + r % kLines;
      const bool valid = y < a.h && x < a.w;
      // An invalid copy reads nothing; its source is any global address.
      CopyAsync16(ring + r * R::kPitch + col, valid ? in.data + y * in.pitch + x : in.data,
                  valid);
    }
    CopyCommit();
  }
  // Writes this warp's outputs of tile t.
  __device__ void FlushTile(int t) const {
    const int lane = threadIdx.x % kLines;
    const int x = t * kTile + 4 * (lane % kQuads);
    if (x >= a.w) return;
    const PlaneView& out = a.out.p[c][kind];
    const int rows = min(kLines, a.h - line0);
    for (int r = lane / kQuads; r < rows; r += kWriteRows) {
      const float4 v =
          *reinterpret_cast<const float4*>(my_staged + r * kStagePitch + x - t * kTile);
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
template <class R, class Sampler>
__device__ __forceinline__ void BlockTile(const AllPoles& poles, const Sampler& sample, int x0,
                                          float* out) {
  float w[kWindow];  // w[i]: column x0 - kLead + i
#pragma unroll
  for (int i = 0; i < kWindow; i += 4) {
    const float4 v = sample.Quad((x0 - kLead + i) & (R::kCols - 1));
    w[i] = v.x;
    w[i + 1] = v.y;
    w[i + 2] = v.z;
    w[i + 3] = v.w;
  }
  constexpr int kLeft = kLead - kRadius - 1;  // w's index of column x0 - N - 1
#pragma unroll
  for (int b = 0; b < kTile; b += 4) {
    float s[4], v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) s[j] = w[kLeft + b + j] + w[kLeft + b + j + 2 * kRadius];
    poles.Block(s, v);
    *reinterpret_cast<float4*>(out + b) = make_float4(v[0], v[1], v[2], v[3]);
  }
}

// Any other tile (the line's first, its scalar tail), position by position
// as BlurLineHorizontal takes them; tile 0 starts at n = -N + 1. A block of
// 4 never crosses a tile: blocks start at multiples of 4.
template <class R, class Sampler>
__device__ __forceinline__ void EdgeTile(const AllPoles& poles, const Sampler& sample,
                                         const HorizontalSchedule& sched, int len, int x0,
                                         float* out) {
  const auto in = [&](int i) { return sample(i & (R::kCols - 1)); };
  const auto put = [&](int i, float v) { out[i - x0] = v; };
  const int end = min(x0 + kTile, len);
  for (int n = x0 == 0 ? -kRadius + 1 : x0; n < end;) {
    n = HorizontalStepAt(poles, kRadius, sched, in, put, len, n);
  }
}

template <class R, class Sampler>
__device__ __forceinline__ void Tile(const AllPoles& poles, const Sampler& sample,
                                     const HorizontalSchedule& sched, int len, int x0,
                                     float* out) {
  if (x0 >= sched.first_block && x0 + kTile <= sched.block_end) {
    BlockTile<R>(poles, sample, x0, out);
  } else {
    EdgeTile<R>(poles, sample, sched, len, x0, out);
  }
}

// grid: (line groups, channel); block: kNumBlurKinds warps.
template <int kTilesPerSync>
__global__ void __launch_bounds__(kThreads) BlurHorizontalKernel(BlurArgs a) {
  using R = Ring<kTilesPerSync>;
  extern __shared__ float4 smem4[];
  float* ring = reinterpret_cast<float*>(smem4);
  float* staged = ring + 2 * R::kFloats;
  const int line = threadIdx.x % kLines;
  const int kind = threadIdx.x / kLines;
  const TileWork<R> work(a, ring, staged);

  for (int t = 0; t < 3 * kTilesPerSync; ++t) work.RequestTile(t);
  CopyWaitAll();
  __syncthreads();

  const float* x1 = ring + line * R::kPitch;
  const float* x2 = x1 + R::kFloats;
  const float* first = kind == kMu2 || kind == kSigma22 ? x2 : x1;
  float* my_out = staged + kind * kStageFloats + line * kStagePitch;
  const HorizontalSchedule sched(kRadius, a.w);
  HorizontalState st;
  const AllPoles poles{a.rg, st};
  const int tiles = (a.w + kTile - 1) / kTile;
  for (int t = 0; t < tiles; ++t) {
    const int x0 = t * kTile;
    // The warp's plane picks the sampler; the branches do not diverge.
    if (kind == kSigma12) {
      Tile<R>(poles, Cross{x1, x2}, sched, a.w, x0, my_out);
    } else if (kind >= kSigma11) {
      Tile<R>(poles, Square{first}, sched, a.w, x0, my_out);
    } else {
      Tile<R>(poles, Plain{first}, sched, a.w, x0, my_out);
    }
    __syncwarp();  // the warp's lanes write its staged rows, FlushTile reads them
    work.FlushTile(t);
    if ((t + 1) % kTilesPerSync == 0) {
      // The tiles the next kTilesPerSync read must have landed, and the
      // slots requested into must be read by no one.
      CopyWaitAll();
      __syncthreads();
      for (int i = 2 * kTilesPerSync + 1; i <= 3 * kTilesPerSync; ++i) work.RequestTile(t + i);
    } else {
      __syncwarp();  // the staged rows are rewritten by other lanes next
    }
  }
  CopyWaitAll();  // no copy may land after the block has exited
}

// The ring a block of the current device uses: two tiles per barrier where
// the device allows a block that much shared memory.
cudaError_t TilesPerSync(int* tiles) {
  int device = 0, optin = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) {
    e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  }
  *tiles = optin >= static_cast<int>(Ring<2>::kSmemBytes) ? 2 : 1;
  return e;
}

template <int kTilesPerSync>
cudaError_t AllowSharedMemory() {
  return cudaFuncSetAttribute(BlurHorizontalKernel<kTilesPerSync>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(Ring<kTilesPerSync>::kSmemBytes));
}

}  // namespace

cudaError_t PrepareBlurKernels() {
  int tiles = 1;
  const cudaError_t e = TilesPerSync(&tiles);
  if (e != cudaSuccess) return e;
  return tiles == 2 ? AllowSharedMemory<2>() : AllowSharedMemory<1>();
}

cudaError_t LaunchBlurHorizontal(const RecursiveGaussian& rg,
                                 const PairPlanes& xyb, const BlurPlanes& blurred,
                                 cudaStream_t stream) {
  if (rg.radius != kRadius) return cudaErrorInvalidValue;
  int tiles = 1;
  const cudaError_t e = TilesPerSync(&tiles);
  if (e != cudaSuccess) return e;
  const BlurArgs a{rg, xyb, blurred, blurred.p[0][0].width, blurred.p[0][0].height};
  const dim3 grid((a.h + kLines - 1) / kLines, 3);
  if (tiles == 2) {
    BlurHorizontalKernel<2><<<grid, kThreads, Ring<2>::kSmemBytes, stream>>>(a);
  } else {
    BlurHorizontalKernel<1><<<grid, kThreads, Ring<1>::kSmemBytes, stream>>>(a);
  }
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace s2c
