// SPDX-License-Identifier: BSD-3-Clause
// The ordered sum's passes over a sum's chunks in order: the runs scan and
// the walk (kernels/ordered_sum.cuh describes them all).
#ifndef S2C_KERNELS_ORDERED_SUM_WALK_CUH_
#define S2C_KERNELS_ORDERED_SUM_WALK_CUH_

#include <cub/block/block_scan.cuh>

#include "ordered_sum_traits.cuh"

namespace s2c {
namespace cuda {
namespace detail {

// An element of the runs scan, visited from a tile's last chunk to its first.
template <class Increment>
struct RunPiece {
  Increment v;
  uint32_t end;
  uint32_t ends_run;  // the chunk is the last of its run: the scan restarts
};
template <class Rule>
struct RunPieceOp {
  using Piece = RunPiece<typename Rule::Increment>;
  __device__ Piece operator()(Piece later, Piece earlier) const {
    if (earlier.ends_run) return earlier;
    return {Rule::Compose(earlier.v, later.v), later.end, later.ends_run};
  }
};

template <class Rule, int kThreads>
__global__ void __launch_bounds__(kThreads)
    OrderedSumRunsKernel(const int32_t* key, const typename Rule::Increment* inc, uint64_t chunks,
                         typename Rule::Increment* suffix, uint32_t* run_end) {
  using Piece = RunPiece<typename Rule::Increment>;
  constexpr int kItems = kSumRunTile / kThreads;
  using Scan = cub::BlockScan<Piece, kThreads>;
  __shared__ typename Scan::TempStorage temp;
  const uint64_t off = blockIdx.y * chunks;
  const uint64_t last = (static_cast<uint64_t>(blockIdx.x) + 1) * kSumRunTile - 1;
  Piece piece[kItems];
  for (int j = 0; j < kItems; ++j) {
    const uint64_t c = last - (threadIdx.x * kItems + j);
    piece[j] = {Rule::kNothing, static_cast<uint32_t>(c + 1), 1};
    if (c < chunks) {
      piece[j].v = inc[off + c];
      piece[j].ends_run = EndsRun(key + off, c, chunks);
    }
  }
  Scan(temp).InclusiveScan(piece, piece, RunPieceOp<Rule>());
  for (int j = 0; j < kItems; ++j) {
    const uint64_t c = last - (threadIdx.x * kItems + j);
    if (c < chunks) {
      suffix[off + c] = piece[j].v;
      run_end[off + c] = piece[j].end;
    }
  }
}

// What the walk needs of one launch's K sums, their chunk passes done: the
// terms, the workspace's buffers and where the sums' bits go.
template <class Terms, class Increment>
struct WalkJob {
  Terms terms;
  uint64_t n, chunks;
  OrderedSumBuffers<Increment> b;
  uint64_t* out;
};
// Up to kJobs launches walked by one kernel, block (k, j) adding sum k of
// job j: the walks are chains of latency whose blocks fill a few of the
// GPU's multiprocessors, so launches whose chunk passes are all done (the
// backend's scales) are walked side by side rather than one after another.
template <class Terms, class Increment, int kJobs>
struct WalkJobs {
  WalkJob<Terms, Increment> job[kJobs];
};

template <int K, int kJobs, class Terms, class Rule = typename SumRule<Terms>::type,
          class Arith = typename TermArith<Terms>::type>
__global__ void __launch_bounds__(kSumChunkLanes)
    OrderedSumWalkKernel(const __grid_constant__ WalkJobs<Terms, typename Rule::Increment, kJobs>
                             jobs) {
  using Increment = typename Rule::Increment;
  using Term = typename Arith::Term;
  constexpr int G = TermGroups<Terms>::value, KG = K / G;
  constexpr int kWalkWindow = Rule::kWalkWindow;  // chunks of runs in shared memory
  static_assert(kWalkWindow % kSumChunkLanes == 0, "whole rounds of staging");
  // Warp scans, then the warps' totals: one barrier a scan, where the
  // default raking scan takes two and runs a serial stretch per thread.
  using Scan = cub::BlockScan<Increment, kSumChunkLanes, cub::BLOCK_SCAN_WARP_SCANS>;
  using PlainScan = cub::BlockScan<uint64_t, kSumChunkLanes, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename Scan::TempStorage ordered;
    typename PlainScan::TempStorage plain;
  } temp;
  // A window of the runs, staged by the whole block so that lane 0 steps
  // through shared memory rather than waiting on global loads.
  __shared__ int32_t window_key[kWalkWindow];
  __shared__ Increment window_suffix[kWalkWindow];
  __shared__ uint32_t window_end[kWalkWindow];
  __shared__ Term x[kSumChunkTerms];
  // Terms as bit patterns: the step codes of a chunk's rest (AddRestCoded).
  __shared__ uint64_t code[Arith::kCodedRest ? kSumChunkTerms : 1];
  __shared__ Increment prefix[kSumChunkLanes];
  // Written by lane 0 only, read by all after a barrier; every thread keeps
  // its own copy of the position so that no read overlaps lane 0's writes.
  __shared__ uint64_t sum_bits;
  __shared__ uint64_t next;
  __shared__ int next_lane;
  __shared__ int next_term;  // a coded rest's
  const WalkJob<Terms, Increment>& job = jobs.job[blockIdx.y];
  const Terms& terms = job.terms;
  const uint64_t n = job.n, chunks = job.chunks;
  const OrderedSumBuffers<Increment>& b = job.b;
  const int k = blockIdx.x;
  const int lane = threadIdx.x;
  const uint64_t off = k * chunks;
  if (lane == 0) sum_bits = 0;  // +0.0
  uint64_t pos = 0, base = 0, stop = 0;
  for (;;) {
    if (pos >= stop) {
      if (pos >= chunks) break;
      base = pos;
      stop = min(chunks, base + kWalkWindow);
#pragma unroll
      for (int r = 0; r < kWalkWindow / kSumChunkLanes; ++r) {
        const uint64_t i = lane + r * kSumChunkLanes;
        if (i < stop - base) {
          window_key[i] = b.key[off + base + i];
          window_suffix[i] = b.suffix[off + base + i];
          window_end[i] = b.run_end[off + base + i];
        }
      }
    }
    __syncthreads();  // window staged; sum_bits and next settled
    if (lane == 0) {
      next = WalkRuns<Rule>(&sum_bits, pos, stop, base, window_key, b.inc + off + base,
                      window_suffix, window_end);
    }
    __syncthreads();
    pos = next;
    if (pos >= stop) continue;
    // Chunk pos, in rounds. The lane's terms go to shared memory as they
    // come (a run's loop is not unrolled), then into registers.
    const uint64_t lane_first = pos * kSumChunkTerms + lane * kSumLaneTerms;
    if constexpr (HasOneTerm<Terms>::value) {
      for (int j = 0; j < kSumLaneTerms; ++j) {
        const uint64_t i = lane_first + j;
        x[lane * kSumLaneTerms + j] = i < n ? terms.One(i, k / KG, k % KG) : Term{};
      }
    } else {
      RunTerms<kSumLaneTerms, KG, G>(terms, n, lane_first, k / KG,
                                     [&](int j, const Term (&t)[KG]) {
                                       Term v = t[0];
                                       for (int kk = 1; kk < KG; ++kk) v = kk == k % KG ? t[kk] : v;
                                       x[lane * kSumLaneTerms + j] = v;
                                     });
    }
    Term mine[kSumLaneTerms];
#pragma unroll
    for (int j = 0; j < kSumLaneTerms; ++j) mine[j] = x[lane * kSumLaneTerms + j];
    const uint64_t left = n - pos * kSumChunkTerms;
    const int nterms = left < kSumChunkTerms ? static_cast<int>(left) : kSumChunkTerms;
    // Lanes the last round passed (TermByTermEnd).
    int from = 0, passed = PassedBeforeFirstRound(sum_bits, Arith::kClimbs);
    const bool finite = __syncthreads_and(Arith::Finite(mine, kSumLaneTerms));  // x complete
    for (int round = 0; from < kSumChunkLanes; ++round) {
      const uint64_t s = sum_bits;
      const int key = Rule::Key(s);
      const int end = key == kPlanTermByTerm || round == kSumMaxChunkRounds
                          ? nterms
                          : TermByTermEnd(from, passed, nterms, Arith::kClimbs);
      if (end > from * kSumLaneTerms || end >= nterms) {
        // Terms one by one up to stop, then rounds again unless that was
        // the chunk's end.
        const int stop = min(end, nterms);
        if constexpr (Arith::kCodedRest) {
          // The lanes form their terms' step codes under the sum's binade,
          // lane 0 adds them (AddRestByCodes is the host's form), again
          // wherever the sum moves into another binade with terms left.
          uint64_t rest_sum = s;
          int first = from * kSumLaneTerms;
          for (;;) {
            const int code_key = BinadeKey(rest_sum);
            if (code_key >= 1) {
#pragma unroll
              for (int j = 0; j < kSumLaneTerms; ++j) {
                const int i = lane * kSumLaneTerms + j;
                if (i >= first) code[i] = TermStepCode(mine[j], code_key);
              }
            }
            __syncthreads();  // codes formed; everyone has read sum_bits
            if (lane == 0) {
              int f = first;
              sum_bits = AddRestCoded(rest_sum, x, code, code_key, stop, &f);
              next_term = f;
            }
            __syncthreads();
            first = next_term;
            if (first >= stop) break;
            rest_sum = sum_bits;
          }
        } else {
          __syncthreads();  // everyone has read sum_bits
          if (lane == 0) sum_bits = Arith::AddRest(s, x, stop, from * kSumLaneTerms, finite);
          if (stop < nterms) __syncthreads();  // sum_bits settled for the next round
        }
        if (stop == nterms) break;
        from = end / kSumLaneTerms;
        passed = kSumChunkLanes;
        continue;
      }
      // The lanes composed from `from` on: by a plain sum where the rule
      // allows it and no lane met a tie (PlainTotal; past the binade edge the
      // lanes are unfit, which counts as no tie), else by the ordered scan.
      const Increment lane_inc =
          lane >= from ? Arith::template Lane<Rule>(mine, key) : Rule::kNothing;
      Increment p;
      bool plain = false;
      if constexpr (Rule::kPlainTotals) plain = __syncthreads_and(SameFromEitherParity(lane_inc));
      if (plain) {
        if constexpr (Rule::kPlainTotals) {
          uint64_t total;
          PlainScan(temp.plain).InclusiveSum(lane_inc.even, total);
          p = PlainTotal(total);
        }
      } else {
        Scan(temp.ordered).InclusiveScan(lane_inc, p, ThenOp<Rule>());
      }
      prefix[lane] = p;
      uint64_t probe = s;
      const bool fits = lane >= from && Rule::Advance(&probe, key, p);
      const int fitting = __syncthreads_count(fits);
      if (lane == 0) {
        int f = from;
        sum_bits = ChunkRound<Rule, Arith>(s, x, nterms, prefix, fitting, &f);
        next_lane = f;
      }
      __syncthreads();
      passed = next_lane - from;
      from = next_lane;
    }
    ++pos;
  }
  if (lane == 0) job.out[k] = sum_bits;  // the double's bits
}

}  // namespace detail
}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_ORDERED_SUM_WALK_CUH_
