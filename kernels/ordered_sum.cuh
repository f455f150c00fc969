// SPDX-License-Identifier: BSD-3-Clause
// Device side of the exact ordered sum (src/steps/ordered_sum.h): K sums of the
// terms a functor gives, each with the bits of the CPU's loop
// `s = 0.0; for i in raster order: s += t[i]`.
//
// Terms is a device-callable functor
//   __device__ void operator()(uint64_t i, double (&t)[K]) const
// giving the K terms of element i (or, with kGroups, one group of them at a
// time: see TermGroups; with kRuns, runs of consecutive elements: see
// HasRuns); the passes evaluate it again rather than storing 8 bytes per
// term and sum. Five kernels per launch, all on the caller's stream, no
// allocation and no synchronisation inside:
//   advice     one block per chunk of 1024 terms: tree sums (the plan's
//              input); a caller that forms the terms anyway may give the
//              advice itself instead (LaunchOrderedSumsAdvised)
//   plan       one block per sum: prefix of the advice, a binade per chunk
//   increments one block per chunk: runs of 8 consecutive terms composed in
//              order, then an ordered tree of adjacent runs, under the plan
//   runs       one block per tile of 1024 chunks and sum: an ordered segmented
//              scan from the tile's end, so that each chunk knows the composed
//              rest of its run of chunks that share a binade
//   walk       one block per sum, of several launches at once where the
//              caller has them (LaunchOrderedSumWalks): lane 0 steps over
//              runs with the exact sum, through windows of them staged in
//              shared memory; a chunk that fails its check is added by the
//              block in rounds: the lanes that fit the sum's binade at once
//              (an ordered prefix scan), then the lane where the sum leaves
//              it, term by term.
// Order matters everywhere increments are combined (Then is not
// commutative): only adjacent pieces, earlier on the left. The arithmetic
// is a rule's (SumRule): NonNegativeTerms (src/steps/ordered_sum.h); where the
// functor declares kClamped, ClampedTerms, the same without its check for
// negative terms; where it declares kSigned, SignedTerms
// (src/steps/ordered_sum_signed.h), whose increments also carry their reach and
// whose walk stages windows of 512 chunks.
#ifndef S2C_KERNELS_ORDERED_SUM_CUH_
#define S2C_KERNELS_ORDERED_SUM_CUH_

#include <cuda_runtime.h>

#include <cstdint>

#include "ordered_sum_chunks.cuh"
#include "ordered_sum_traits.cuh"
#include "ordered_sum_walk.cuh"

namespace s2c {
namespace cuda {
namespace detail {

// A launch of k sums of n > 0 terms fits `ws`, and its chunks fit the
// kernels' 32-bit grid and run ends.
inline bool WorkspaceFits(uint64_t n, int k, bool signed_terms, const OrderedSumWorkspace& ws) {
  return ws.bytes >= OrderedSumWorkspaceBytes(n, k, signed_terms) && ChunkCount(n) <= 0x7FFFFFFFu;
}

}  // namespace detail

// Where the advice of K sums of n elements lives in their workspace: sum
// k's chunk c (elements c * kSumChunkTerms onwards) at [k * chunks + c],
// chunks = OrderedSumChunks(n). A caller that forms the terms anyway may
// write the chunks' sums there itself, in any order and approximately
// (atomic adds will do: the plan only guesses binades, and the walk
// checks every guess, so a wrong advice costs time, never a bit), and
// then enqueue the other passes with LaunchOrderedSumsAdvised.
// The advice is of the terms' Advice type: double, or for terms given as
// bit patterns a float (src/steps/ordered_sum.h, kFloatAdviceExp).
inline uint64_t OrderedSumChunks(uint64_t n) { return detail::ChunkCount(n); }
template <class Advice = double>
Advice* OrderedSumAdvice(const OrderedSumWorkspace& ws) {
  // BuffersBytes takes the advice first, for every rule, 8 bytes a chunk.
  static_assert(sizeof(Advice) <= sizeof(double), "advice fits its buffer");
  return static_cast<Advice*>(ws.data);
}

// Enqueues on stream the chunk passes of the K exact sums of terms(0..n-1),
// n > 0, whose advice is already in the workspace (OrderedSumAdvice): the
// plan, increments and runs. The walk (LaunchOrderedSumWalks) finishes them.
template <int K, class Terms>
cudaError_t LaunchOrderedSumChunks(const Terms& terms, uint64_t n, const OrderedSumWorkspace& ws,
                                   cudaStream_t stream) {
  using Rule = typename detail::SumRule<Terms>::type;
  using Arith = typename detail::TermArith<Terms>::type;
  using Advice = typename Arith::Advice;
  constexpr int G = detail::TermGroups<Terms>::value;
  constexpr bool kSigned = std::is_same_v<Rule, SignedTerms>;
  static_assert(K >= 1 && K % G == 0 && K / G <= detail::kIncrementThreads, "K sums per launch");
  if (n == 0 || !detail::WorkspaceFits(n, K, kSigned, ws)) return cudaErrorInvalidValue;
  const uint64_t chunks = detail::ChunkCount(n);
  detail::OrderedSumBuffers<typename Rule::Increment> b;
  detail::BuffersBytes(chunks, K, &b, static_cast<char*>(ws.data));
  const unsigned grid = static_cast<unsigned>(chunks);
  const unsigned tiles = static_cast<unsigned>((chunks + kSumRunTile - 1) / kSumRunTile);
  detail::OrderedSumPlanKernel<Rule, Arith, detail::kPlanThreads>
      <<<K, detail::kPlanThreads, 0, stream>>>(static_cast<const Advice*>(b.advice), chunks,
                                               b.key);
  detail::OrderedSumIncrementKernel<K>
      <<<dim3(grid, G), detail::kIncrementThreads, 0, stream>>>(terms, n, chunks, b.key, b.inc);
  detail::OrderedSumRunsKernel<Rule, detail::kRunThreads>
      <<<dim3(tiles, K), detail::kRunThreads, 0, stream>>>(b.key, b.inc, chunks, b.suffix,
                                                            b.run_end);
  return cudaGetLastError();
}

// One launch's K sums for LaunchOrderedSumWalks: n > 0 terms whose chunk
// passes are enqueued in `ws`, and where the K doubles go.
template <class Terms>
struct OrderedSumsToWalk {
  Terms terms;
  uint64_t n;
  OrderedSumWorkspace ws;
  double* out;
};

// Enqueues on stream the walks of `count` launches (1 to kJobs) of K sums
// each, whose chunk passes (LaunchOrderedSumChunks) come before on the same
// stream, in one kernel: the sums of all of them side by side. Each `out`
// receives its K doubles when the stream reaches that point. Returns the
// launch error, if any; no sync.
template <int K, int kJobs, class Terms>
cudaError_t LaunchOrderedSumWalks(const OrderedSumsToWalk<Terms>* sums, int count,
                                  cudaStream_t stream) {
  using Rule = typename detail::SumRule<Terms>::type;
  constexpr bool kSigned = std::is_same_v<Rule, SignedTerms>;
  if (count < 1 || count > kJobs) return cudaErrorInvalidValue;
  detail::WalkJobs<Terms, typename Rule::Increment, kJobs> jobs{};
  for (int j = 0; j < count; ++j) {
    const OrderedSumsToWalk<Terms>& s = sums[j];
    if (s.n == 0 || !detail::WorkspaceFits(s.n, K, kSigned, s.ws)) return cudaErrorInvalidValue;
    detail::WalkJob<Terms, typename Rule::Increment>& job = jobs.job[j];
    job.terms = s.terms;
    job.n = s.n;
    job.chunks = detail::ChunkCount(s.n);
    detail::BuffersBytes(job.chunks, K, &job.b, static_cast<char*>(s.ws.data));
    job.out = reinterpret_cast<uint64_t*>(s.out);
  }
  detail::OrderedSumWalkKernel<K, kJobs>
      <<<dim3(K, static_cast<unsigned>(count)), kSumChunkLanes, 0, stream>>>(jobs);
  return cudaGetLastError();
}

// Enqueues on stream the K exact sums of terms(0..n-1) whose advice is
// already in the workspace (OrderedSumAdvice): the chunk passes and the
// walk. d_out receives K doubles when the stream reaches that point. The
// workspace must not be used by another launch in flight. Returns the
// launch error, if any; no sync.
template <int K, class Terms>
cudaError_t LaunchOrderedSumsAdvised(const Terms& terms, uint64_t n,
                                     const OrderedSumWorkspace& ws, double* d_out,
                                     cudaStream_t stream) {
  if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(double) * K, stream);  // +0.0
  const cudaError_t e = LaunchOrderedSumChunks<K>(terms, n, ws, stream);
  if (e != cudaSuccess) return e;
  const OrderedSumsToWalk<Terms> sums{terms, n, ws, d_out};
  return LaunchOrderedSumWalks<K, 1>(&sums, 1, stream);
}

// Enqueues the K exact sums of terms(0..n-1) on stream: the advice pass
// (the chunks' tree sums), then LaunchOrderedSumsAdvised.
template <int K, class Terms>
cudaError_t LaunchOrderedSums(const Terms& terms, uint64_t n, const OrderedSumWorkspace& ws,
                              double* d_out, cudaStream_t stream) {
  using Rule = typename detail::SumRule<Terms>::type;
  using Advice = typename detail::TermArith<Terms>::type::Advice;
  constexpr int G = detail::TermGroups<Terms>::value;
  constexpr bool kSigned = std::is_same_v<Rule, SignedTerms>;
  if (n != 0 && detail::WorkspaceFits(n, K, kSigned, ws)) {  // else the rest says why
    const uint64_t chunks = detail::ChunkCount(n);
    detail::OrderedSumAdviceKernel<K><<<dim3(static_cast<unsigned>(chunks), G),
                                        detail::kAdviceThreads, 0, stream>>>(
        terms, n, chunks, OrderedSumAdvice<Advice>(ws));
  }
  return LaunchOrderedSumsAdvised<K>(terms, n, ws, d_out, stream);
}

// Terms of a plain device array (one sum), never negative, or of either
// sign (kSigned); doubles, or their bit patterns (TermT uint64_t).
template <bool kTermsSigned = false, class TermT = double>
struct ArrayTermsOf {
  static constexpr bool kSigned = kTermsSigned;
  using Term = TermT;
  const Term* p;
  __device__ void operator()(uint64_t i, Term (&t)[1]) const { t[0] = p[i]; }
};
using ArrayTerms = ArrayTermsOf<false>;
using SignedArrayTerms = ArrayTermsOf<true>;

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_ORDERED_SUM_CUH_
