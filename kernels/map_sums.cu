// SPDX-License-Identifier: BSD-3-Clause
// The SSIM and edge maps of one scale, reduced to six sums per channel. The
// terms are pixel_steps.h's MapTerms, evaluated from the stored XYB and
// blurred planes wherever a sum needs them, so no term plane is stored. The
// exact sums are the ordered sum's (ordered_sum.cuh) over all 18 sums of a
// scale at once; the tree sums exist for the benchmark's comparison.
#include "launch.h"

#include "ordered_sum.cuh"
#include "pixel_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kTerms = 6;
constexpr int kAllTerms = 3 * kTerms;  // [c * 6 + k]

// The 18 terms of raster pixel i: channel c's six at [c * 6 + k].
struct MapTermsAt {
  PairPlanes xyb;
  BlurPlanes b;
  int w;
  double inv_w;  // 1.0 / w
  // Column and row of raster index i < 2^53 without a 64-bit division: the
  // quotient from the reciprocal is off by at most one, and the remainder
  // tells which way.
  __device__ void Position(uint64_t i, int* x, int* y) const {
    long long q = static_cast<long long>(static_cast<double>(i) * inv_w);
    long long r = static_cast<long long>(i) - q * w;
    if (r < 0) {
      --q;
      r += w;
    } else if (r >= w) {
      ++q;
      r -= w;
    }
    *x = static_cast<int>(r);
    *y = static_cast<int>(q);
  }
  __device__ void Channel(int c, int x, int y, double t[kTerms]) const {
    const PixelTerms p = MapTerms(
        xyb.img[0].c[c].Row(y)[x], b.p[c][kMu1].Row(y)[x],
        xyb.img[1].c[c].Row(y)[x], b.p[c][kMu2].Row(y)[x],
        b.p[c][kSigma11].Row(y)[x], b.p[c][kSigma22].Row(y)[x],
        b.p[c][kSigma12].Row(y)[x]);
    for (int k = 0; k < kTerms; ++k) t[k] = p.t[k];
  }
};

// The ordered sum's view of the terms: element i is raster pixel i, its
// terms those of kSumChannels channels from `first`. All three channels in
// one launch (18 sums) measured faster on the H200 than one launch per
// channel (docs/performance.md), mainly at 1080p.
constexpr int kSumChannels = 3;
constexpr int kSumTerms = kSumChannels * kTerms;
struct ChannelTerms {
  MapTermsAt m;
  int first;
  __device__ void operator()(uint64_t i, double (&t)[kSumTerms]) const {
    int x, y;
    m.Position(i, &x, &y);
    for (int c = 0; c < kSumChannels; ++c) m.Channel(first + c, x, y, t + c * kTerms);
  }
};

constexpr int kTreeBlock = 256;

// Tree sums, first level: each block's partial sums of all 18 terms.
__global__ void __launch_bounds__(kTreeBlock)
    MapSumsTreeKernel(MapTermsAt terms, int h, double* partials) {
  double acc[kAllTerms];
  for (int j = 0; j < kAllTerms; ++j) acc[j] = 0.0;
  const size_t n = static_cast<size_t>(terms.w) * h;
  for (size_t i = blockIdx.x * static_cast<size_t>(kTreeBlock) + threadIdx.x;
       i < n; i += static_cast<size_t>(gridDim.x) * kTreeBlock) {
    int x, y;
    terms.Position(i, &x, &y);
    for (int c = 0; c < 3; ++c) {
      double t[kTerms];
      terms.Channel(c, x, y, t);
      for (int k = 0; k < kTerms; ++k) acc[c * kTerms + k] += t[k];
    }
  }
  __shared__ double warp_sums[kTreeBlock / 32][kAllTerms];
  for (int j = 0; j < kAllTerms; ++j) {
    double v = acc[j];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32][j] = v;
  }
  __syncthreads();
  if (threadIdx.x < kAllTerms) {
    double v = 0.0;
    for (int wi = 0; wi < kTreeBlock / 32; ++wi) v += warp_sums[wi][threadIdx.x];
    partials[blockIdx.x * kAllTerms + threadIdx.x] = v;
  }
}

__global__ void SumPartialsKernel(const double* partials, int count, double* sums) {
  const int j = threadIdx.x;
  if (j >= kAllTerms) return;
  double s = 0.0;
  for (int b = 0; b < count; ++b) s += partials[b * kAllTerms + j];
  sums[j] = s;
}

MapTermsAt Terms(const PairPlanes& xyb, const BlurPlanes& blurred) {
  const int w = xyb.img[0].c[0].width;
  return MapTermsAt{xyb, blurred, w, 1.0 / w};
}

}  // namespace

size_t MapSumsWorkspaceBytes(int width, int height) {
  return OrderedSumWorkspaceBytes(static_cast<uint64_t>(width) * height, kSumTerms);
}

cudaError_t LaunchMapSumsExact(const PairPlanes& xyb, const BlurPlanes& blurred,
                               void* workspace, double* sums,
                               cudaStream_t stream) {
  const int w = xyb.img[0].c[0].width, h = xyb.img[0].c[0].height;
  const uint64_t n = static_cast<uint64_t>(w) * h;
  OrderedSumWorkspace ws;
  ws.data = workspace;
  ws.bytes = MapSumsWorkspaceBytes(w, h);
  for (int c = 0; c < 3; c += kSumChannels) {
    const cudaError_t e = LaunchOrderedSums<kSumTerms>(
        ChannelTerms{Terms(xyb, blurred), c}, n, ws, sums + c * kTerms, stream);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t LaunchMapSumsTree(const PairPlanes& xyb, const BlurPlanes& blurred,
                              double* partials, double* sums,
                              cudaStream_t stream) {
  const int w = xyb.img[0].c[0].width, h = xyb.img[0].c[0].height;
  const size_t n = static_cast<size_t>(w) * h;
  size_t blocks = (n + kTreeBlock - 1) / kTreeBlock;
  if (blocks > static_cast<size_t>(kTreeSumPartials)) blocks = kTreeSumPartials;
  MapSumsTreeKernel<<<static_cast<unsigned>(blocks), kTreeBlock, 0, stream>>>(
      Terms(xyb, blurred), h, partials);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  SumPartialsKernel<<<1, 32, 0, stream>>>(partials, static_cast<int>(blocks), sums);
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace s2c
