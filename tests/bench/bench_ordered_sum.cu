// SPDX-License-Identifier: BSD-3-Clause
// Throughput of the exact ordered sum against a plain tree sum
// (cub::DeviceReduce::Sum) of the same terms, one 3840x2160 plane of doubles,
// timed with device events in one run. Prints per-call milliseconds, the
// ratio, a per-kernel breakdown, and six sums at once against six tree sums.
// Timing only: the exact result is checked against the loop once per input.
#include <cuda_runtime.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_reduce.cuh>
#include <vector>

#include "cuda_check.h"
#include "ordered_sum.cuh"
#include "ordered_sum_fixtures.h"
#include "ordered_sum_launch.h"

namespace s2c {
namespace {

constexpr uint64_t kPlane = 3840 * 2160;
constexpr int kReps = 50;

struct SixArrays {
  const double* p[6];
  __device__ void operator()(uint64_t i, double (&t)[6]) const {
    for (int k = 0; k < 6; ++k) t[k] = p[k][i];
  }
};

// Milliseconds per call of f, over kReps calls after two warm-up calls.
template <class F>
float TimeMs(cudaStream_t stream, F f) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  f();
  f();
  CHECK_CUDA(cudaEventRecord(a, stream));
  for (int r = 0; r < kReps; ++r) f();
  CHECK_CUDA(cudaEventRecord(b, stream));
  CHECK_CUDA(cudaEventSynchronize(b));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms / kReps;
}

}  // namespace
}  // namespace s2c

int main() {
  using namespace s2c;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, n = %" PRIu64 " terms (3840x2160), %d calls per timing\n", prop.name,
              kPlane, kReps);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  const test::TermKind kinds[] = {test::TermKind::kSsimLike, test::TermKind::kQuartic,
                                  test::TermKind::kUniform, test::TermKind::kWideRange,
                                  test::TermKind::kZeroIslands, test::TermKind::kTies};
  double* d_terms[6];
  std::vector<double> host[6];
  for (int k = 0; k < 6; ++k) {
    host[k] = test::MakeTerms(kinds[k], kPlane, 7);
    CHECK_CUDA(cudaMalloc(&d_terms[k], sizeof(double) * kPlane));
    CHECK_CUDA(cudaMemcpy(d_terms[k], host[k].data(), sizeof(double) * kPlane,
                          cudaMemcpyHostToDevice));
  }
  s2c::cuda::OrderedSumWorkspace ws;
  ws.bytes = s2c::cuda::OrderedSumWorkspaceBytes(kPlane, 6);
  CHECK_CUDA(cudaMalloc(&ws.data, ws.bytes));
  double* d_out;
  CHECK_CUDA(cudaMalloc(&d_out, sizeof(double) * 6));
  size_t tree_bytes = 0;
  CHECK_CUDA(cub::DeviceReduce::Sum(nullptr, tree_bytes, d_terms[0], d_out, kPlane, stream));
  void* tree_temp;
  CHECK_CUDA(cudaMalloc(&tree_temp, tree_bytes));
  int failures = 0;

  std::printf("%-16s %10s %10s %7s   %s\n", "terms", "exact ms", "tree ms", "ratio",
              "advice/plan/increments/runs/walk ms");
  for (int k = 0; k < 6; ++k) {
    const double* x = d_terms[k];
    const float exact = TimeMs(stream, [&] {
      CHECK_CUDA(s2c::cuda::LaunchOrderedSumOfArray(x, kPlane, ws, d_out, stream));
    });
    const float tree = TimeMs(stream, [&] {
      CHECK_CUDA(cub::DeviceReduce::Sum(tree_temp, tree_bytes, x, d_out + 1, kPlane, stream));
    });
    // The stages one at a time (same calls as LaunchOrderedSums<1>).
    const uint64_t chunks = s2c::cuda::detail::ChunkCount(kPlane);
    s2c::cuda::detail::OrderedSumBuffers<SumIncrement> b;
    s2c::cuda::detail::BuffersBytes(chunks, 1, &b, static_cast<char*>(ws.data));
    const unsigned grid = static_cast<unsigned>(chunks);
    const unsigned tiles = static_cast<unsigned>((chunks + kSumRunTile - 1) / kSumRunTile);
    const s2c::cuda::ArrayTerms terms{x};
    const float t_advice = TimeMs(stream, [&] {
      s2c::cuda::detail::OrderedSumAdviceKernel<1><<<grid, s2c::cuda::detail::kAdviceThreads, 0, stream>>>(terms, kPlane, chunks, static_cast<double*>(b.advice));
    });
    const float t_plan = TimeMs(stream, [&] {
      s2c::cuda::detail::OrderedSumPlanKernel<NonNegativeTerms, s2c::TermsAsDoubles, s2c::cuda::detail::kPlanThreads><<<1, s2c::cuda::detail::kPlanThreads, 0, stream>>>(static_cast<const double*>(b.advice), chunks, b.key);
    });
    const float t_inc = TimeMs(stream, [&] {
      s2c::cuda::detail::OrderedSumIncrementKernel<1><<<grid, s2c::cuda::detail::kIncrementThreads, 0, stream>>>(terms, kPlane, chunks, b.key, b.inc);
    });
    const float t_runs = TimeMs(stream, [&] {
      s2c::cuda::detail::OrderedSumRunsKernel<NonNegativeTerms, s2c::cuda::detail::kRunThreads><<<dim3(tiles, 1), s2c::cuda::detail::kRunThreads, 0, stream>>>(
          b.key, b.inc, chunks, b.suffix, b.run_end);
    });
    const float t_walk = TimeMs(stream, [&] {
      const s2c::cuda::OrderedSumsToWalk<s2c::cuda::ArrayTerms> sums{terms, kPlane, ws, d_out};
      CHECK_CUDA((s2c::cuda::LaunchOrderedSumWalks<1, 1>(&sums, 1, stream)));
    });
    CHECK_CUDA(cudaGetLastError());
    // Term-by-term chunks of this input under its plan, for the record.
    std::vector<int32_t> plan_key(chunks);
    CHECK_CUDA(cudaMemcpy(plan_key.data(), b.key, sizeof(int32_t) * chunks, cudaMemcpyDeviceToHost));
    int tbt = 0;
    for (int32_t key : plan_key) tbt += key == s2c::kPlanTermByTerm;
    double got;
    CHECK_CUDA(s2c::cuda::LaunchOrderedSumOfArray(x, kPlane, ws, d_out, stream));
    CHECK_CUDA(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    const double want = test::LoopSum(host[k].data(), kPlane);
    const bool same = test::Bits(got) == test::Bits(want);
    failures += !same;
    std::printf("%-16s %10.4f %10.4f %7.2f   %.4f/%.4f/%.4f/%.4f/%.4f  (%d of %" PRIu64
                " chunks planned term by term; %s)\n",
                test::TermKindName(kinds[k]), exact, tree, exact / tree, t_advice, t_plan, t_inc,
                t_runs, t_walk, tbt, chunks, same ? "== loop" : "DIFFERS FROM LOOP");
  }

  // How the walk grows with the length (ssim-like terms): its cost is the
  // chunks it adds in rounds (the first nonzero one, one or two per binade
  // edge) and the windows of runs it stages.
  std::printf("%-10s %10s %10s   (ssim-like terms)\n", "n", "exact ms", "walk ms");
  for (uint64_t n : {uint64_t{1024}, uint64_t{8192}, uint64_t{65536}, uint64_t{1} << 20, kPlane}) {
    const double* x = d_terms[0];
    const float exact = TimeMs(stream, [&] {
      CHECK_CUDA(s2c::cuda::LaunchOrderedSumOfArray(x, n, ws, d_out, stream));
    });
    const s2c::cuda::ArrayTerms terms{x};
    const float walk = TimeMs(stream, [&] {
      const s2c::cuda::OrderedSumsToWalk<s2c::cuda::ArrayTerms> sums{terms, n, ws, d_out};
      CHECK_CUDA((s2c::cuda::LaunchOrderedSumWalks<1, 1>(&sums, 1, stream)));
    });
    double got;
    CHECK_CUDA(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    const bool same = test::Bits(got) == test::Bits(test::LoopSum(host[0].data(), n));
    failures += !same;
    std::printf("%-10" PRIu64 " %10.4f %10.4f   %s\n", n, exact, walk, same ? "== loop" : "DIFFERS FROM LOOP");
  }

  // Six sums at once from one functor (the backend's shape), against six tree sums.
  SixArrays six;
  for (int k = 0; k < 6; ++k) six.p[k] = d_terms[k];
  const float exact6 = TimeMs(stream, [&] {
    CHECK_CUDA(s2c::cuda::LaunchOrderedSums<6>(six, kPlane, ws, d_out, stream));
  });
  const float tree6 = TimeMs(stream, [&] {
    for (int k = 0; k < 6; ++k) {
      CHECK_CUDA(cub::DeviceReduce::Sum(tree_temp, tree_bytes, d_terms[k], d_out + k, kPlane, stream));
    }
  });
  double got6[6];
  CHECK_CUDA(s2c::cuda::LaunchOrderedSums<6>(six, kPlane, ws, d_out, stream));
  CHECK_CUDA(cudaMemcpy(got6, d_out, sizeof got6, cudaMemcpyDeviceToHost));
  int same6 = 0;
  for (int k = 0; k < 6; ++k) {
    same6 += test::Bits(got6[k]) == test::Bits(test::LoopSum(host[k].data(), kPlane));
  }
  failures += same6 != 6;
  std::printf("six sums at once: exact %.4f ms, six tree sums %.4f ms, ratio %.2f (%d of 6 == loop)\n",
              exact6, tree6, exact6 / tree6, same6);

  // Terms of either sign (the signed rule, SSIM's sums), one plane each.
  s2c::cuda::OrderedSumWorkspace signed_ws;
  signed_ws.bytes = s2c::cuda::OrderedSumWorkspaceBytes(kPlane, 1, true);
  CHECK_CUDA(cudaMalloc(&signed_ws.data, signed_ws.bytes));
  std::printf("%-16s %10s %10s %7s   (terms of either sign)\n", "terms", "exact ms", "tree ms",
              "ratio");
  for (test::TermKind kind : test::kSignedTermKinds) {
    const std::vector<double> h = test::MakeTerms(kind, kPlane, 7);
    CHECK_CUDA(cudaMemcpy(d_terms[0], h.data(), sizeof(double) * kPlane, cudaMemcpyHostToDevice));
    const double* x = d_terms[0];
    const float exact = TimeMs(stream, [&] {
      CHECK_CUDA(s2c::cuda::LaunchSignedOrderedSumOfArray(x, kPlane, signed_ws, d_out, stream));
    });
    const float tree = TimeMs(stream, [&] {
      CHECK_CUDA(cub::DeviceReduce::Sum(tree_temp, tree_bytes, x, d_out + 1, kPlane, stream));
    });
    double got;
    CHECK_CUDA(s2c::cuda::LaunchSignedOrderedSumOfArray(x, kPlane, signed_ws, d_out, stream));
    CHECK_CUDA(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    const bool same = test::Bits(got) == test::Bits(test::LoopSum(h.data(), kPlane));
    failures += !same;
    std::printf("%-16s %10.4f %10.4f %7.2f   %s\n", test::TermKindName(kind), exact, tree,
                exact / tree, same ? "== loop" : "DIFFERS FROM LOOP");
  }
  return failures ? 1 : 0;
}
