// SPDX-License-Identifier: BSD-3-Clause
// SSIM on the device, as Xiph's daala tools/dump_ssim computes it
// (docs/metric.md, "SSIM"), one plane at a time:
//   horizontal  one block per row and 256 columns: the row's samples in
//               shared memory, each thread the five window moments of one
//               pixel (the window is symmetric, so taps k and -k share a
//               multiply); integers, exact in any order (held in fp32 for
//               8-bit samples, where they stay below 2^24)
//   vertical    each thread four rows of one column: the vertical window
//               over the horizontal moments, the weight from the windows'
//               taps inside the plane, and the term (ssim_steps.h,
//               SsimTerm: the CPU's function; on the integer path its soft
//               form, soft_terms.h) into the plane's doubles (or their bits)
//   sums        the signed ordered sums of the planes' terms: the bits of
//               the CPU's raster-order loops (or cub's tree, for the
//               benchmark); luma's on a side stream as soon as its terms
//               are written, beside the chroma planes' passes, then the two
//               chroma sums in one launch
// Samples outside the plane count as zero, which is the CPU's truncated
// window for the five moments; the weight is hsum[x] * vsum[y].
#include <cub/device/device_reduce.cuh>

#include "ordered_sum.cuh"
#include "ssim_launch.h"
#include "steps/f64_policies.h"
#include "steps/frontend_steps.h"
#include "steps/ssim_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kRowTile = 256;  // horizontal: columns per block
constexpr int kVCols = 32;     // vertical: columns per block
constexpr int kVGroups = 8;    // vertical: row groups per block
constexpr int kVRows = 4;      // vertical: rows per thread

// Horizontal moments fit 32 bits up to 11-bit samples (at most 2^8 times a
// square below 2^22); beyond, 64 bits. For 8-bit samples they stay below
// 2^24 (256 * 255^2), every product and partial sum too, so float holds
// them exactly and the pass runs on the full-rate fp32 units (fmaf of such
// integers is exact). The vertical sums, at most 2^16 times a square, fit
// 32 bits up to 8-bit samples (2^16 * 255^2 < 2^32).
constexpr int kNarrowMomentsBits = 11;
constexpr int kNarrowVerticalBits = 8;

// acc + w * v, exactly: integers, or floats that hold integers whose
// products and sums stay below 2^24.
__device__ __forceinline__ float MulAdd(float w, float v, float acc) { return fmaf(w, v, acc); }
template <class T>
__device__ __forceinline__ T MulAdd(T w, T v, T acc) {
  return acc + w * v;
}

size_t Align(size_t v) { return (v + 255) & ~size_t{255}; }

// Acc: the arithmetic (float, uint32_t or uint64_t, see above); Moment: what
// is stored for the vertical pass.
template <class Acc, class Moment>
__global__ void __launch_bounds__(kRowTile)
    SsimHorizontalKernel(PairFrames f, SsimPlaneArgs p, Moment* moments) {
  extern __shared__ __align__(8) unsigned char smem[];
  const int taps = 2 * p.hoffs + 1;
  const int span = kRowTile + 2 * p.hoffs;
  Acc* win = reinterpret_cast<Acc*>(smem);
  Acc* s = win + taps;
  Acc* d = s + span;
  const int y = blockIdx.x;
  const int x0 = blockIdx.y * kRowTile;
  for (int i = threadIdx.x; i < taps; i += kRowTile) win[i] = static_cast<Acc>(p.hwin[i]);
  const ComponentLayout& cr = f.layout[0].comp[p.component];
  const ComponentLayout& cd = f.layout[1].comp[p.component];
  for (int i = threadIdx.x; i < span; i += kRowTile) {
    const int x = x0 - p.hoffs + i;
    const bool inside = x >= 0 && x < p.width;
    s[i] = static_cast<Acc>(inside ? LoadSample(f.view[0], cr, x, y) : 0u);
    d[i] = static_cast<Acc>(inside ? LoadSample(f.view[1], cd, x, y) : 0u);
  }
  __syncthreads();
  const int x = x0 + static_cast<int>(threadIdx.x);
  if (x >= p.width) return;
  const int c = static_cast<int>(threadIdx.x) + p.hoffs;
  const Acc w0 = win[p.hoffs];
  const Acc a = s[c], b = d[c];
  Acc mux = w0 * a, muy = w0 * b, x2 = w0 * (a * a), xy = w0 * (a * b), y2 = w0 * (b * b);
  for (int k = 1; k <= p.hoffs; ++k) {
    const Acc wk = win[p.hoffs + k];
    const Acc s0 = s[c - k], s1 = s[c + k];
    const Acc d0 = d[c - k], d1 = d[c + k];
    mux = MulAdd(wk, s0 + s1, mux);
    muy = MulAdd(wk, d0 + d1, muy);
    x2 = MulAdd(wk, MulAdd(s1, s1, s0 * s0), x2);
    xy = MulAdd(wk, MulAdd(s1, d1, s0 * d0), xy);
    y2 = MulAdd(wk, MulAdd(d1, d1, d0 * d0), y2);
  }
  const size_t plane = static_cast<size_t>(p.width) * p.height;
  const size_t i = static_cast<size_t>(y) * p.width + x;
  moments[i] = static_cast<Moment>(mux);
  moments[plane + i] = static_cast<Moment>(muy);
  moments[2 * plane + i] = static_cast<Moment>(x2);
  moments[3 * plane + i] = static_cast<Moment>(xy);
  moments[4 * plane + i] = static_cast<Moment>(y2);
}

// Path: NativeF64 or IntegerF64 (src/steps/f64_policies.h), whose Term is
// what `terms` holds.
template <class Moment, class VAcc, class Path>
__global__ void __launch_bounds__(kVCols* kVGroups)
    SsimVerticalKernel(SsimPlaneArgs p, const Moment* moments, int64_t samplemax,
                       typename Path::Term* terms) {
  // The taps with kVRows zeros on either side, so that every row of the
  // thread's span takes a tap for every output row without a branch.
  extern __shared__ int32_t vw[];
  const int taps = 2 * p.voffs + 1;
  for (int i = threadIdx.y * kVCols + threadIdx.x; i < taps + 2 * kVRows; i += kVCols * kVGroups) {
    vw[i] = (i >= kVRows && i < kVRows + taps) ? p.vwin[i - kVRows] : 0;
  }
  __syncthreads();
  const int x = blockIdx.x * kVCols + static_cast<int>(threadIdx.x);
  const int y0 = (blockIdx.y * kVGroups + static_cast<int>(threadIdx.y)) * kVRows;
  if (x >= p.width || y0 >= p.height) return;
  const size_t plane = static_cast<size_t>(p.width) * p.height;
  VAcc acc[kVRows][5];
#pragma unroll
  for (int j = 0; j < kVRows; ++j) {
#pragma unroll
    for (int q = 0; q < 5; ++q) acc[j][q] = 0;
  }
  const int r_first = max(0, y0 - p.voffs);
  const int r_last = min(p.height - 1, y0 + kVRows - 1 + p.voffs);
  // Row r + 1's moments are loaded while row r's are added (the loads are
  // what the pass waits on).
  const Moment* column = moments + x;
  Moment h[5], next[5] = {};
#pragma unroll
  for (int q = 0; q < 5; ++q) h[q] = column[q * plane + static_cast<size_t>(r_first) * p.width];
  for (int r = r_first; r <= r_last; ++r) {
    if (r < r_last) {
      const size_t i = static_cast<size_t>(r + 1) * p.width;
#pragma unroll
      for (int q = 0; q < 5; ++q) next[q] = column[q * plane + i];
    }
    const int32_t* wr = vw + (r - y0 + p.voffs + kVRows);  // output j takes wr[-j]
#pragma unroll
    for (int j = 0; j < kVRows; ++j) {
      const uint32_t wt = static_cast<uint32_t>(wr[-j]);
#pragma unroll
      for (int q = 0; q < 5; ++q) acc[j][q] += static_cast<VAcc>(wt) * h[q];
    }
#pragma unroll
    for (int q = 0; q < 5; ++q) h[q] = next[q];
  }
#pragma unroll
  for (int j = 0; j < kVRows; ++j) {
    const int y = y0 + j;
    if (y >= p.height) break;
    SsimMoments m;
    m.mux = static_cast<int64_t>(acc[j][0]);
    m.muy = static_cast<int64_t>(acc[j][1]);
    m.x2 = static_cast<int64_t>(acc[j][2]);
    m.xy = static_cast<int64_t>(acc[j][3]);
    m.y2 = static_cast<int64_t>(acc[j][4]);
    m.w = static_cast<int64_t>(p.hsum[x]) * p.vsum[y];
    terms[static_cast<size_t>(y) * p.width + x] = Path::Ssim(m, samplemax);
  }
}

struct SsimWorkspace {
  void* moments;
  double* terms[3];  // doubles, or on the integer path their bit patterns
  OrderedSumWorkspace luma_sum;    // one sum of Y' terms
  OrderedSumWorkspace chroma_sum;  // two sums of Cb and Cr terms
  void* tree[2];                   // cub's scratch: luma, chroma
  size_t tree_bytes;
};

uint64_t Pixels(const SsimPlaneArgs& p) { return static_cast<uint64_t>(p.width) * p.height; }

size_t CarveWorkspace(const SsimPlaneArgs planes[3], int bit_depth, char* base,
                      SsimWorkspace* out) {
  const uint64_t n = Pixels(planes[0]);  // the largest plane
  const size_t acc = bit_depth <= kNarrowMomentsBits ? 4 : 8;
  size_t tree_bytes = 0;
  cub::DeviceReduce::Sum(nullptr, tree_bytes, static_cast<const double*>(nullptr),
                         static_cast<double*>(nullptr), static_cast<int64_t>(n));
  SsimWorkspace w;
  size_t off = 0;
  auto take = [&](size_t bytes) {
    char* p = base ? base + off : nullptr;
    off += Align(bytes);
    return p;
  };
  w.moments = take(5 * acc * n);
  for (int k = 0; k < 3; ++k) {
    w.terms[k] = reinterpret_cast<double*>(take(sizeof(double) * Pixels(planes[k])));
  }
  w.luma_sum.bytes = OrderedSumWorkspaceBytes(n, 1, true);
  w.luma_sum.data = take(w.luma_sum.bytes);
  w.chroma_sum.bytes = OrderedSumWorkspaceBytes(Pixels(planes[1]), 2, true);
  w.chroma_sum.data = take(w.chroma_sum.bytes);
  w.tree_bytes = tree_bytes;
  for (void*& t : w.tree) t = take(tree_bytes);
  if (out) *out = w;
  return off;
}

// HAcc: the horizontal pass's arithmetic, Moment: its results, VAcc: the
// vertical pass's sums.
template <class HAcc, class Moment, class VAcc, class Path>
cudaError_t LaunchMoments(const PairFrames& frames, const SsimPlaneArgs& p, void* moments,
                          double* terms, cudaStream_t stream) {
  Moment* m = static_cast<Moment*>(moments);
  const int64_t samplemax = (int64_t{1} << frames.layout[0].bit_depth) - 1;
  const size_t hshared = sizeof(HAcc) * (2 * p.hoffs + 1 + 2 * (kRowTile + 2 * p.hoffs));
  const dim3 hgrid(p.height, (p.width + kRowTile - 1) / kRowTile);
  SsimHorizontalKernel<HAcc, Moment><<<hgrid, kRowTile, hshared, stream>>>(frames, p, m);
  const size_t vshared = sizeof(int32_t) * (2 * p.voffs + 1 + 2 * kVRows);
  const dim3 vgrid((p.width + kVCols - 1) / kVCols,
                   (p.height + kVGroups * kVRows - 1) / (kVGroups * kVRows));
  SsimVerticalKernel<Moment, VAcc, Path><<<vgrid, dim3(kVCols, kVGroups), vshared, stream>>>(
      p, m, samplemax, reinterpret_cast<typename Path::Term*>(terms));
  return cudaGetLastError();
}

// The two chroma planes' terms (of one size) as the two sums of one launch,
// a group each.
template <class Path>
struct ChromaTerms {
  static constexpr bool kSigned = true;
  static constexpr int kGroups = 2;
  using Term = typename Path::Term;
  const Term* terms[2];
  __device__ void operator()(uint64_t i, int group, Term (&t)[1]) const {
    t[0] = terms[group][i];
  }
};

// One plane's moments and terms on `stream`, at the arithmetic its bit
// depth allows (see above).
template <class Path>
cudaError_t LaunchPlane(const PairFrames& frames, const SsimPlaneArgs& p, const SsimWorkspace& w,
                        double* terms, cudaStream_t stream) {
  const int bit_depth = frames.layout[0].bit_depth;
  if (bit_depth <= kNarrowVerticalBits) {
    return LaunchMoments<float, uint32_t, uint32_t, Path>(frames, p, w.moments, terms, stream);
  }
  if (bit_depth <= kNarrowMomentsBits) {
    return LaunchMoments<uint32_t, uint32_t, uint64_t, Path>(frames, p, w.moments, terms, stream);
  }
  return LaunchMoments<uint64_t, uint64_t, uint64_t, Path>(frames, p, w.moments, terms, stream);
}

// The sum of n terms into *d_sum on `stream`, exact (one plane) or by cub.
cudaError_t LaunchTreeSum(const SsimWorkspace& w, int which, const double* terms, uint64_t n,
                          double* d_sum, cudaStream_t stream) {
  size_t bytes = w.tree_bytes;
  return cub::DeviceReduce::Sum(w.tree[which], bytes, terms, d_sum, static_cast<int64_t>(n),
                                stream);
}

// The three planes' terms and sums, by Path; the tree sums add doubles, so
// they are the native path's only.
template <class Path>
cudaError_t LaunchSums(const PairFrames& frames, const SsimPlaneArgs planes[3],
                       const SsimWorkspace& w, bool exact, double* d_sums,
                       const SsimStreams& streams) {
  using Term = typename Path::Term;
  const Term* terms[3];
  for (int k = 0; k < 3; ++k) terms[k] = reinterpret_cast<const Term*>(w.terms[k]);
  cudaError_t e = LaunchPlane<Path>(frames, planes[0], w, w.terms[0], streams.main);
  if (e == cudaSuccess) e = cudaEventRecord(streams.luma_ready, streams.main);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(streams.side, streams.luma_ready, 0);
  if (e != cudaSuccess) return e;
  const uint64_t n = Pixels(planes[0]), nc = Pixels(planes[1]);
  e = exact ? LaunchOrderedSums<1>(ArrayTermsOf<true, Term>{terms[0]}, n, w.luma_sum, d_sums,
                                   streams.side)
            : LaunchTreeSum(w, 0, w.terms[0], n, d_sums, streams.side);
  if (e == cudaSuccess) e = cudaEventRecord(streams.side_done, streams.side);
  for (int k = 1; k < 3 && e == cudaSuccess; ++k) {
    e = LaunchPlane<Path>(frames, planes[k], w, w.terms[k], streams.main);
  }
  if (e != cudaSuccess) return e;
  if (exact) {
    e = LaunchOrderedSums<2>(ChromaTerms<Path>{{terms[1], terms[2]}}, nc, w.chroma_sum,
                             d_sums + 1, streams.main);
  } else {
    for (int k = 1; k < 3 && e == cudaSuccess; ++k) {
      e = LaunchTreeSum(w, 1, w.terms[k], nc, d_sums + k, streams.main);
    }
  }
  if (e != cudaSuccess) return e;
  return cudaStreamWaitEvent(streams.main, streams.side_done, 0);
}

}  // namespace

size_t SsimWorkspaceBytes(const SsimPlaneArgs planes[3], int bit_depth) {
  return CarveWorkspace(planes, bit_depth, nullptr, nullptr);
}

cudaError_t LaunchSsimSums(const PairFrames& frames, const SsimPlaneArgs planes[3],
                           void* workspace, size_t workspace_bytes, bool exact, F64Path path,
                           double* d_sums, const SsimStreams& streams) {
  const int bit_depth = frames.layout[0].bit_depth;
  for (int k = 0; k < 3; ++k) {
    if (planes[k].width < 1 || planes[k].height < 1 || Pixels(planes[k]) > Pixels(planes[0])) {
      return cudaErrorInvalidValue;
    }
  }
  if (Pixels(planes[1]) != Pixels(planes[2]) ||
      workspace_bytes < SsimWorkspaceBytes(planes, bit_depth)) {
    return cudaErrorInvalidValue;
  }
  SsimWorkspace w;
  CarveWorkspace(planes, bit_depth, static_cast<char*>(workspace), &w);
  if (path == F64Path::kInteger && exact) {
    return LaunchSums<IntegerF64>(frames, planes, w, exact, d_sums, streams);
  }
  return LaunchSums<NativeF64>(frames, planes, w, exact, d_sums, streams);
}

}  // namespace cuda
}  // namespace s2c
