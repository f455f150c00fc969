// SPDX-License-Identifier: BSD-3-Clause
// The SSIM and edge maps of one scale, reduced to six sums per channel. The
// vertical pass (kernels/blur_vertical.cu) has formed each pixel's prepared
// values (pixel_steps.h, PrepareTerms), stored them in place of three
// blurred planes, and added the chunks' sums of the finished terms to the
// advice in the sums' workspace. The exact sums are the ordered sum's later
// passes over all 18 sums of a scale at once, finishing the terms from the
// prepared values (FinishTerms); no term plane is stored: the plan,
// increments and runs scale by scale (LaunchOrderedSumChunks), then the
// walks of all scales in one kernel (LaunchOrderedSumWalks). The tree sums, for the
// benchmark's comparison, add up the chunks' sums instead.
#include "ssimulacra2_launch.h"

#include <cub/block/block_reduce.cuh>

#include "map_terms.cuh"
#include "ordered_sum.cuh"

namespace s2c {
namespace cuda {
namespace {

// The ordered sum's view of the terms: element i is raster pixel i, its 18
// terms those of the three channels, given one channel (group) at a time so
// that the ordered sum's passes run a block per chunk and channel, each
// holding 6 running increments. All 18 sums in one launch measured faster on
// the H200 than one launch per channel, mainly at 1080p
// (docs/history/performance-2026-2.md).
// The terms are finished from the prepared values, by Path (NativeF64 or
// IntegerF64, src/steps/f64_policies.h), as doubles or their bit patterns.
template <class Path>
struct PreparedTermsOf {
  using Term = typename Path::Term;
  static constexpr int kGroups = 3;
  // FinishTerms clamps every term at zero (each is >= 0, -0.0 or NaN), so
  // the sums take the rule without the negative-term check (ClampedTerms).
  static constexpr bool kClamped = true;
  MapTermsAt m;
  __device__ void operator()(uint64_t i, int c, Term (&t)[kTerms]) const {
    int x, y;
    m.Position(i, &x, &y);
    Path::Finish(m.PreparedOf(c, y).Load(x), t);
  }
  // One term of pixel i (the walk's, which adds one sum per block): the
  // integer path's other five would cost as much again.
  static constexpr bool kOneTerm = true;
  __device__ Term One(uint64_t i, int c, int k) const {
    int x, y;
    m.Position(i, &x, &y);
    return Path::FinishOne(m.PreparedOf(c, y).Load(x), k);
  }
  // Runs of consecutive pixels (the increments and walk passes): the
  // position and the row pointers once per run, again only where the run
  // passes a row's end. Not unrolled: unrolled, the increments kernel took
  // 90 registers instead of 78 and a 4K pair 2.41 ms instead of 2.18 with
  // 6 in flight (H200).
  static constexpr bool kRuns = true;
  template <int L, class Visit>
  __device__ void Run(uint64_t first, int c, Visit&& visit) const {
    ForEachPrepared<L>(first, c, [&](int j, PreparedBits p) {
      Term t[kTerms];
      Path::Finish(p, t);
      visit(j, t);
    });
  }
  // The increments of a run's terms decided without finishing them, where
  // the path can (IntegerF64: decided_increments.h). One pixel at a time:
  // loading the run's pixels first and unrolling the decisions took 80
  // registers instead of 70 and stalled on instruction fetch (a 4K pair's
  // increments 1456 us instead of 927, H200).
  static constexpr bool kDecides = Path::kDecidesIncrements;
  template <int L>
  __device__ void Decide(uint64_t first, int c, const int32_t (&key)[kTerms],
                         const float (&scale)[kTerms], DecidedRun (&run)[kTerms]) const {
    ForEachPrepared<L>(first, c,
                       [&](int, PreparedBits p) { Path::DecideIncrements(p, key, scale, run); });
  }
  // Term k of pixel i alone, decided where it can be (a run the pass could
  // not decide whole finishes only its undecided terms).
  __device__ DecidedRun DecideOne(uint64_t i, int c, int k, int32_t key, float scale) const {
    int x, y;
    m.Position(i, &x, &y);
    DecidedRun run;
    Path::DecideIncrement(m.PreparedOf(c, y).Load(x), k, key, scale, run);
    return run;
  }

 private:
  template <int L, class Visit>
  __device__ void ForEachPrepared(uint64_t first, int c, Visit&& visit) const {
    int x, y;
    m.Position(first, &x, &y);
    auto rows = m.PreparedOf(c, y);
#pragma unroll 1
    for (int j = 0; j < L; ++j) {
      if (x == m.w) {
        x = 0;
        rows = m.PreparedOf(c, ++y);
      }
      visit(j, rows.Load(x++));
    }
  }
};

constexpr int kChunkSumThreads = 256;

// Tree sums: one block per sum adds up its chunks' sums (the native path's
// advice).
__global__ void __launch_bounds__(kChunkSumThreads)
    SumChunksKernel(const double* advice, uint64_t chunks, double* sums) {
  const double* a = advice + blockIdx.x * chunks;
  double v = 0.0;
  for (uint64_t c = threadIdx.x; c < chunks; c += kChunkSumThreads) v += a[c];
  using Reduce = cub::BlockReduce<double, kChunkSumThreads>;
  __shared__ typename Reduce::TempStorage temp;
  v = Reduce(temp).Sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = v;
}

template <class Path>
cudaError_t LaunchChunks(const BlurPlanes& prepared, void* workspace, cudaStream_t stream) {
  const int w = prepared.p[0][0].width, h = prepared.p[0][0].height;
  const uint64_t n = static_cast<uint64_t>(w) * h;
  return LaunchOrderedSumChunks<kSumTerms>(PreparedTermsOf<Path>{MapTermsAt(prepared, w)}, n,
                                           MapSumsWorkspace(workspace, n), stream);
}

template <class Path>
cudaError_t LaunchWalks(const MapSumsOfScale* scales, int count, cudaStream_t stream) {
  if (count < 1 || count > kMaxMapSumScales) return cudaErrorInvalidValue;
  OrderedSumsToWalk<PreparedTermsOf<Path>> sums[kMaxMapSumScales];
  for (int s = 0; s < count; ++s) {
    const BlurPlanes& prepared = scales[s].prepared;
    const int w = prepared.p[0][0].width, h = prepared.p[0][0].height;
    const uint64_t n = static_cast<uint64_t>(w) * h;
    sums[s] = {PreparedTermsOf<Path>{MapTermsAt(prepared, w)}, n,
               MapSumsWorkspace(scales[s].workspace, n), scales[s].sums};
  }
  return LaunchOrderedSumWalks<kSumTerms, kMaxMapSumScales>(sums, count, stream);
}

}  // namespace

size_t MapSumsWorkspaceBytes(int width, int height) {
  return MapSumsWorkspace(nullptr, static_cast<uint64_t>(width) * height).bytes;
}

cudaError_t LaunchMapSumChunks(const BlurPlanes& prepared, void* workspace, F64Path path,
                               cudaStream_t stream) {
  return path == F64Path::kInteger ? LaunchChunks<IntegerF64>(prepared, workspace, stream)
                                   : LaunchChunks<NativeF64>(prepared, workspace, stream);
}

cudaError_t LaunchMapSumWalks(const MapSumsOfScale* scales, int count, F64Path path,
                              cudaStream_t stream) {
  return path == F64Path::kInteger ? LaunchWalks<IntegerF64>(scales, count, stream)
                                   : LaunchWalks<NativeF64>(scales, count, stream);
}

cudaError_t LaunchMapSumsTree(int width, int height, void* workspace, double* sums,
                              cudaStream_t stream) {
  const uint64_t n = static_cast<uint64_t>(width) * height;
  SumChunksKernel<<<kSumTerms, kChunkSumThreads, 0, stream>>>(
      OrderedSumAdvice(MapSumsWorkspace(workspace, n)), OrderedSumChunks(n), sums);
  return cudaGetLastError();
}

}  // namespace cuda
}  // namespace s2c
