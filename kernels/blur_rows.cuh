// SPDX-License-Identifier: BSD-3-Clause
// The horizontal pass of the recursive Gaussian on the device, a tile of 32
// columns at a time: blur_steps.h's line functions, one line per thread
// (the filter must run along each line in order, exactness contract layer
// 1), the five blurred planes of a channel (mu1, mu2, sigma11, sigma22,
// sigma12) a warp each, all reading the same two XYB lines. The banded
// blur (blur_bands.cu) runs it over the rows of its band and hands each
// tile's outputs to the vertical pass in shared memory.
//
// Tiles of 32 columns of both lines are copied asynchronously (cp.async, 16
// bytes a copy) into a shared-memory ring of 4 tiles; the products (x1 *
// x1, ...) are formed on the fly, the same f32 bits as a stored product
// plane. A tile made only of libjxl's 4-lane blocks (all but the first and
// the last one or two of a line) takes its samples into registers with
// 16-byte loads and runs its 8 blocks unrolled; the other tiles follow the
// line's schedule step by step (HorizontalStepAt).
#ifndef S2C_KERNELS_BLUR_ROWS_CUH_
#define S2C_KERNELS_BLUR_ROWS_CUH_

#include "ssimulacra2_launch.h"
#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {

constexpr int kRadius = kBlurRadius;
constexpr int kLines = 32;  // lines per warp, one per lane
constexpr int kTile = 32;   // columns per tile
// A warp's outputs of one tile, [line][column]: 4 (mod 32) floats per line,
// so that a warp's 16-byte stores, one line per lane, hit distinct banks in
// each quarter warp.
constexpr int kStagePitch = kTile + 4;
constexpr int kStageFloats = kLines * kStagePitch;

// The shared-memory ring of XYB samples: 4 tiles of both images, kRows rows
// each (the block's first image row is its ring row 0). The tile after
// next is requested into the slot of the tile before last, which no one
// reads any more once the horizontal warps have passed their barrier: the
// horizontal steps of tile t read tiles t - 1 .. t + 1, the terms of tile
// t - 2, which the horizontal warps form before it, tile t - 2, and those
// of tile t - 1, which run beside them, tile t - 1.
template <int kRows_>
struct RingOf {
  static constexpr int kRows = kRows_;
  static constexpr int kTiles = 4;
  static constexpr int kCols = kTile * kTiles;
  static constexpr int kPitch = kCols + 4;  // 4 (mod 32): see kStagePitch
  static constexpr int kFloats = kRows * kPitch;  // one image
  static_assert((kCols & (kCols - 1)) == 0, "ring columns: a power of 2");
};
// A tile of blocks reads columns x0 - N - 1 .. x0 + kTile + N - 2: the
// groups of 4 from x0 - kLead on.
constexpr int kLead = (kRadius + 1 + 3) / 4 * 4;
constexpr int kWindow = (kLead + kTile + kRadius - 2 + 3) / 4 * 4;
static_assert(kLead <= kTile && kRadius - 2 <= kTile, "window within tiles t - 1 .. t + 1");

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
// Waits for every copy of this thread's but those of its newest group.
__device__ __forceinline__ void CopyWaitAllButNewest() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 1;\n" ::: "memory");
#endif
}

// Requests tile t of both XYB images of channel c, image rows row0 ..
// row0 + R::kRows - 1 (row0 may be negative: rows outside the image are
// zero), into the ring, ring row image * R::kRows + row, with kThreads
// threads of which this is `thread`. The planes' rows are padded to 128
// bytes, so a group of 4 that starts inside the line lies inside the plane.
template <class R, int kThreads>
__device__ void RequestTile(const PairPlanes& xyb, int c, int row0, int w, int h, float* ring,
                            int t, int thread) {
  constexpr int kQuads = kTile / 4;
  constexpr int kCopyRows = kThreads / kQuads;
  static_assert(kThreads % kQuads == 0, "copy layout");
  const int x = t * kTile + 4 * (thread % kQuads);
  const int col = x % R::kCols;
  for (int r = thread / kQuads; r < 2 * R::kRows; r += kCopyRows) {
    const PlaneView& in = xyb.img[r / R::kRows].c[c];
    const int y = row0 + r % R::kRows;
    const bool valid = y >= 0 && y < h && x < w;
    // An invalid copy reads nothing; its source is any global address.
    CopyAsync16(ring + r * R::kPitch + col, valid ? in.data + y * in.pitch + x : in.data, valid);
  }
  CopyCommit();
}

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

// Tile x0 .. x0 + kTile - 1 of the blurred plane `kind` of the thread's
// line, from the line's ring rows (x1, and x2 R::kFloats on) into
// out[0 .. kTile - 1]. The warp's plane picks the sampler; the branches do
// not diverge.
template <class R>
__device__ __forceinline__ void HorizontalTile(const AllPoles& poles,
                                               const HorizontalSchedule& sched, int kind,
                                               const float* x1, int len, int x0, float* out) {
  const float* x2 = x1 + R::kFloats;
  const float* first = kind == kMu2 || kind == kSigma22 ? x2 : x1;
  if (kind == kSigma12) {
    Tile<R>(poles, Cross{x1, x2}, sched, len, x0, out);
  } else if (kind >= kSigma11) {
    Tile<R>(poles, Square{first}, sched, len, x0, out);
  } else {
    Tile<R>(poles, Plain{first}, sched, len, x0, out);
  }
}

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_BLUR_ROWS_CUH_
