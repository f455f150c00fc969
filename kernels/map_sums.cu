// SPDX-License-Identifier: BSD-3-Clause
// The SSIM and edge maps of one scale, reduced to six sums per channel. The
// terms are pixel_steps.h's MapTerms, evaluated from the stored XYB and
// blurred planes wherever a sum needs them, so no term plane is stored. The
// exact sums are the ordered sum's (ordered_sum.cuh) over all 18 sums of a
// scale at once: its first pass evaluates PrepareTerms from the planes and
// stores the prepared values in place of three blurred planes, and its later
// passes finish the terms from those (FinishTerms). The tree sums exist for
// the benchmark's comparison.
#include "launch.h"

#include "ordered_sum.cuh"
#include "pixel_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kTerms = 6;
constexpr int kAllTerms = 3 * kTerms;  // [c * 6 + k]

// The planes of a scale, by raster pixel: channel c's terms of pixel i.
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
  // Channel c's seven planes at row y.
  struct PlaneRows {
    const float *img1, *mu1, *img2, *mu2, *s11, *s22, *s12;
    __device__ PreparedTerms Prepare(int x) const {
      return PrepareTerms(img1[x], mu1[x], img2[x], mu2[x], s11[x], s22[x], s12[x]);
    }
  };
  __device__ PlaneRows PlanesOf(int c, int y) const {
    return {xyb.img[0].c[c].Row(y), b.p[c][kMu1].Row(y), xyb.img[1].c[c].Row(y),
            b.p[c][kMu2].Row(y), b.p[c][kSigma11].Row(y), b.p[c][kSigma22].Row(y),
            b.p[c][kSigma12].Row(y)};
  }
  // Where the exact sums' first pass keeps a pixel's prepared values: in
  // place of three of the blurred planes it has just read (sigma12 holds the
  // f32 ratio, sigma11 and sigma22 the low and high words of the f64 edge
  // ratio, bits as they are), so nothing more is allocated; only the later
  // passes of the same sums read them.
  struct PreparedRows {
    float *ratio, *edge_lo, *edge_hi;
    __device__ void Store(int x, PreparedTerms p) const {
      ratio[x] = p.ratio;
      edge_lo[x] = __int_as_float(__double2loint(p.edge));
      edge_hi[x] = __int_as_float(__double2hiint(p.edge));
    }
    __device__ PreparedTerms Load(int x) const {
      return {ratio[x], __hiloint2double(__float_as_int(edge_hi[x]), __float_as_int(edge_lo[x]))};
    }
  };
  __device__ PreparedRows PreparedOf(int c, int y) const {
    return {b.p[c][kSigma12].Row(y), b.p[c][kSigma11].Row(y), b.p[c][kSigma22].Row(y)};
  }
};

__device__ void CopyTerms(const PixelTerms& p, double (&t)[kTerms]) {
  for (int k = 0; k < kTerms; ++k) t[k] = p.t[k];
}

// A row's terms from the planes (the tree sums).
struct FromPlanes {
  MapTermsAt::PlaneRows planes;
  __device__ void Terms(int x, double (&t)[kTerms]) const {
    CopyTerms(FinishTerms(planes.Prepare(x)), t);
  }
};
// The same, storing each pixel's prepared values (the exact sums' first
// pass).
struct PreparingPlanes {
  MapTermsAt::PlaneRows planes;
  MapTermsAt::PreparedRows out;
  __device__ void Terms(int x, double (&t)[kTerms]) const {
    const PreparedTerms p = planes.Prepare(x);
    out.Store(x, p);
    CopyTerms(FinishTerms(p), t);
  }
};
// A row's terms from the prepared values (the exact sums' later passes).
struct FromPrepared {
  MapTermsAt::PreparedRows prepared;
  __device__ void Terms(int x, double (&t)[kTerms]) const {
    CopyTerms(FinishTerms(prepared.Load(x)), t);
  }
};

struct RowsFromPlanes {
  __device__ FromPlanes operator()(const MapTermsAt& m, int c, int y) const {
    return {m.PlanesOf(c, y)};
  }
};
struct RowsPreparing {
  __device__ PreparingPlanes operator()(const MapTermsAt& m, int c, int y) const {
    return {m.PlanesOf(c, y), m.PreparedOf(c, y)};
  }
};
struct RowsFromPrepared {
  __device__ FromPrepared operator()(const MapTermsAt& m, int c, int y) const {
    return {m.PreparedOf(c, y)};
  }
};

// The ordered sum's view of the terms: element i is raster pixel i, its 18
// terms those of the three channels, given one channel (group) at a time so
// that the ordered sum's passes run a block per chunk and channel, each
// holding 6 running increments. All 18 sums in one launch measured faster on
// the H200 than one launch per channel (docs/performance.md), mainly at 1080p.
// RowsOf gives a row's .Terms(x, t): from the planes (preparing, in the first
// pass), or from the prepared values.
constexpr int kSumTerms = 3 * kTerms;
template <class RowsOf>
struct ChannelTerms {
  static constexpr int kGroups = 3;
  MapTermsAt m;
  __device__ void operator()(uint64_t i, int c, double (&t)[kTerms]) const {
    int x, y;
    m.Position(i, &x, &y);
    RowsOf()(m, c, y).Terms(x, t);
  }
};

// The same by runs of consecutive pixels (the increments and walk passes):
// the position and the row pointers once per run, again only where the run
// passes a row's end. Not unrolled: unrolled, the increments kernel took 90
// registers instead of 78 and a 4K pair 2.41 ms instead of 2.18 with 6 in
// flight (H200).
template <class RowsOf>
struct ChannelRuns : ChannelTerms<RowsOf> {
  static constexpr bool kRuns = true;
  template <int L, class Visit>
  __device__ void Run(uint64_t first, int c, Visit&& visit) const {
    const MapTermsAt& m = this->m;
    int x, y;
    m.Position(first, &x, &y);
    auto rows = RowsOf()(m, c, y);
#pragma unroll 1
    for (int j = 0; j < L; ++j) {
      if (x == m.w) {
        x = 0;
        rows = RowsOf()(m, c, ++y);
      }
      double t[kTerms];
      rows.Terms(x++, t);
      visit(j, t);
    }
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
      RowsFromPlanes()(terms, c, y).Terms(x, t);
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
  // The first pass stores what the later ones read (the blurred planes are
  // not read again after the sums).
  const MapTermsAt m = Terms(xyb, blurred);
  return LaunchOrderedSums<kSumTerms>(ChannelTerms<RowsPreparing>{m},
                                      ChannelRuns<RowsFromPrepared>{{m}}, n, ws, sums, stream);
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
