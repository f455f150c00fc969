// SPDX-License-Identifier: BSD-3-Clause
// The ordered sum's passes over chunks of terms: the advice, the plan and
// the increments (kernels/ordered_sum.cuh describes them all).
#ifndef S2C_KERNELS_ORDERED_SUM_CHUNKS_CUH_
#define S2C_KERNELS_ORDERED_SUM_CHUNKS_CUH_

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include "ordered_sum_traits.cuh"

namespace s2c {
namespace cuda {
namespace detail {

// Advice only, so any order will do: thread l takes elements l, l + 256,
// ... of the chunk, so that each load is coalesced (runs of 4 consecutive
// elements per thread were slower in the backend, when this pass also
// stored what the later ones read: docs/history/ordered-sum-2026.md). Then
// one reduction per sum in the warp and one across the warps (one barrier
// for all the group's sums).
template <int K, class Terms, class Arith = typename TermArith<Terms>::type>
__global__ void __launch_bounds__(kAdviceThreads)
    OrderedSumAdviceKernel(Terms terms, uint64_t n, uint64_t chunks,
                           typename Arith::Advice* advice) {
  using Advice = typename Arith::Advice;
  constexpr int G = TermGroups<Terms>::value, KG = K / G;
  constexpr int kWarps = kAdviceThreads / 32;
  constexpr int kAdviceTerms = kSumChunkTerms / kAdviceThreads;
  __shared__ Advice warp_sum[kWarps][KG];
  const uint64_t c = blockIdx.x;
  const int g = blockIdx.y;
  Advice acc[KG];
  for (int k = 0; k < KG; ++k) acc[k] = Advice(0);
  for (int j = 0; j < kAdviceTerms; ++j) {
    typename Arith::Term t[KG];
    ElementTerms<KG, G>(terms, n, c * kSumChunkTerms + j * kAdviceThreads + threadIdx.x, g, t);
    for (int k = 0; k < KG; ++k) acc[k] += Arith::AdviceOf(t[k]);
  }
  for (int k = 0; k < KG; ++k) {
    for (int step = 16; step > 0; step /= 2) acc[k] += __shfl_down_sync(0xFFFFFFFFu, acc[k], step);
  }
  if (threadIdx.x % 32 == 0) {
    for (int k = 0; k < KG; ++k) warp_sum[threadIdx.x / 32][k] = acc[k];
  }
  __syncthreads();
  if (threadIdx.x < KG) {
    Advice sum = warp_sum[0][threadIdx.x];
    for (int w = 1; w < kWarps; ++w) sum += warp_sum[w][threadIdx.x];
    advice[(g * KG + threadIdx.x) * chunks + c] = sum;
  }
}

// Templates only so that the header can define them in every user (and
// Arith names the advice's type in the kernel's name).
template <class Rule, class Arith, int kThreads>
__global__ void __launch_bounds__(kThreads)
    OrderedSumPlanKernel(const typename Arith::Advice* advice, uint64_t chunks, int32_t* key) {
  using Advice = typename Arith::Advice;
  constexpr int kTile = kThreads * kPlanItems;
  using Load = cub::BlockLoad<Advice, kThreads, kPlanItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<Advice, kThreads>;
  using Store = cub::BlockStore<int32_t, kThreads, kPlanItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;
  const Advice* a = advice + blockIdx.x * chunks;
  int32_t* p = key + blockIdx.x * chunks;
  Advice carry = Advice(0);
  for (uint64_t base = 0; base < chunks; base += kTile) {
    const int valid = static_cast<int>(chunks - base < kTile ? chunks - base : kTile);
    Advice v[kPlanItems], before[kPlanItems], total;
    Load(temp.load).Load(a + base, v, valid, Advice(0));
    __syncthreads();
    Scan(temp.scan).ExclusiveSum(v, before, total);
    __syncthreads();
    int32_t plan[kPlanItems];
    for (int j = 0; j < kPlanItems; ++j) {
      const Advice b = carry + before[j];
      plan[j] = Rule::Plan(b, b + v[j]);
    }
    Store(temp.store).Store(p + base, plan, valid);
    carry += total;
    __syncthreads();
  }
}

// Lane i + step's increment, in the warp.
__device__ __forceinline__ SumIncrement ShuffleDown(SumIncrement v, int step) {
  return {__shfl_down_sync(0xFFFFFFFFu, v.even, step), __shfl_down_sync(0xFFFFFFFFu, v.odd, step)};
}
__device__ __forceinline__ SignedIncrement ShuffleDown(SignedIncrement v, int step) {
  return {__shfl_down_sync(0xFFFFFFFFu, v.even, step), __shfl_down_sync(0xFFFFFFFFu, v.odd, step),
          __shfl_down_sync(0xFFFFFFFFu, v.hi, step), __shfl_down_sync(0xFFFFFFFFu, v.lo, step)};
}

// The increment of sum k (group g) over the L elements from first, term by
// term: each term's decided increment (DecideOne) where there is one, else
// the exact rule's of the finished term (One); +0.0 past n.
template <int L, class Rule, class Arith, class Terms>
__device__ typename Rule::Increment RunByTerms(const Terms& terms, uint64_t n, uint64_t first,
                                               int g, int k, int32_t plan, float scale) {
  typename Rule::Increment r = Rule::kNothing;
  for (int j = 0; j < L; ++j) {
    const uint64_t i = first + j;
    if (i >= n) break;  // +0.0 adds nothing
    DecidedRun one;
    if (scale != 0.0f) {
      one = terms.DecideOne(i, g, k, plan, scale);
    } else {
      one.undecided = true;
    }
    r = Rule::Compose(r, one.undecided ? Arith::template OneTerm<Rule>(terms.One(i, g, k), plan)
                                       : PlainTotal(one.units));
  }
  return r;
}

// The runs the increments kernel could not decide whole, a few per block,
// queued as (thread, sum) and formed term by term (RunByTerms) by the
// block's threads together, one each: by its own thread, one such run would
// hold up its whole warp, and most warps have one.
constexpr int kExactQueue = 2 * kIncrementThreads;
template <class Increment, int kCapacity>
struct ExactRunQueue {
  int size;                   // entries asked for (may pass the capacity)
  uint16_t entry[kCapacity];  // thread * KG + sum
  Increment inc[kCapacity];
};

// Forms v[k] for each sum k in `exact` (bits) of this thread's run of
// kIncrementTerms elements from chunk_first + threadIdx.x * kIncrementTerms,
// through the queue, in rounds while it overflows. Every thread of the
// block calls it; queue.size is 0 on entry, and a barrier lies between.
// v and slot are indexed by constants only, so that they stay in registers.
template <int KG, class Rule, class Arith, class Terms, class Increment, int kCapacity>
__device__ void ExactRunsTogether(const Terms& terms, uint64_t n, uint64_t chunk_first, int g,
                                  const int32_t* plan, const float* scale, uint32_t exact,
                                  ExactRunQueue<Increment, kCapacity>& queue, Increment (&v)[KG]) {
  static_assert(HasOneTerm<Terms>::value, "the queue forms one sum's run at a time");
  static_assert(kIncrementThreads * KG <= 0xFFFF, "entries fit 16 bits");
  const int lane = threadIdx.x;
  uint32_t pending = exact;
  int slot[KG];
  for (;;) {
    uint32_t queued = 0;
#pragma unroll
    for (int k = 0; k < KG; ++k) {
      if ((pending >> k) & 1) {
        const int at = atomicAdd(&queue.size, 1);
        if (at < kCapacity) {
          queue.entry[at] = static_cast<uint16_t>(lane * KG + k);
          slot[k] = at;
          queued |= 1u << k;
        }
      }
    }
    __syncthreads();
    const int size = min(queue.size, kCapacity);
    for (int at = lane; at < size; at += kIncrementThreads) {
      const int t = queue.entry[at] / KG, k = queue.entry[at] % KG;
      queue.inc[at] = RunByTerms<kIncrementTerms, Rule, Arith>(
          terms, n, chunk_first + static_cast<uint64_t>(t) * kIncrementTerms, g, k, plan[k],
          scale[k]);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < KG; ++k) {
      if ((queued >> k) & 1) v[k] = queue.inc[slot[k]];
    }
    pending &= ~queued;
    if (!__syncthreads_or(pending != 0)) return;  // every thread has read the queue
    if (lane == 0) queue.size = 0;
    __syncthreads();
  }
}

// A chunk's increment is the ordered composition of its terms; any bracketing
// gives the same pair (Then is associative), so this kernel need not follow
// the walk's lanes of kSumLaneTerms: each thread composes kIncrementTerms
// consecutive terms one element at a time, then an ordered tree of adjacent
// threads (warp shuffles, then the warps) composes the chunk. Fewer, longer
// threads halve the shuffle steps per term against lanes of 4.
//
// A thread's run is RunIncrement's, streamed: the fast rule over all its
// terms, and for a sum it could not take whole (a tie, a negative term in
// any of the thread's sums, an unfit term, a plan without a binade) a second
// pass by the exact rule, evaluating the terms again rather than holding
// them. Where the functor decides runs (Decides), its decided totals take
// the fast rule's place, and the runs it leaves undecided go through the
// block's queue (ExactRunsTogether). A term-by-term plan's increment is
// never used (the walk adds such a chunk in rounds), so it is not formed.
//
// Blocks per SM: the functors that decide increments (the integer path's)
// are held to 7 blocks' registers (72 a thread; unbounded, 80 left room
// for 6); the others are not bounded (0: no minimum).
template <class Terms>
constexpr int kIncrementBlocksPerSm = Decides<Terms>::value ? 7 : 0;
template <int K, class Terms, class Rule = typename SumRule<Terms>::type,
          class Arith = typename TermArith<Terms>::type>
__global__ void __launch_bounds__(kIncrementThreads, kIncrementBlocksPerSm<Terms>)
    OrderedSumIncrementKernel(Terms terms, uint64_t n, uint64_t chunks, const int32_t* key,
                              typename Rule::Increment* inc) {
  using Increment = typename Rule::Increment;
  using Term = typename Arith::Term;
  constexpr int G = TermGroups<Terms>::value, KG = K / G;
  static_assert(KG <= 32, "one bit per sum");
  constexpr int kWarps = kIncrementThreads / 32;
  constexpr bool kDecided = Decides<Terms>::value;
  __shared__ int32_t plan[KG];
  __shared__ double scale[Arith::kFastRule && !kDecided ? KG : 1];
  __shared__ float unit_scale[kDecided ? KG : 1];
  __shared__ ExactRunQueue<Increment, kDecided ? kExactQueue : 1> queue;
  __shared__ Increment warp_inc[kWarps][KG];
  const uint64_t c = blockIdx.x;
  const int g = blockIdx.y;
  const int lane = threadIdx.x;
  if constexpr (kDecided) {
    if (lane == 0) queue.size = 0;
  }
  if (lane < KG) {
    plan[lane] = key[(g * KG + lane) * chunks + c];
    if constexpr (kDecided) {
      unit_scale[lane] = UnitScale(plan[lane]);
    } else if constexpr (Arith::kFastRule) {
      scale[lane] = Rule::FastScale(plan[lane]);
    }
  }
  __syncthreads();
  uint32_t wanted = 0;  // bit k: sum k's increment is formed
  for (int k = 0; k < KG; ++k) wanted |= plan[k] != kPlanTermByTerm ? 1u << k : 0u;
  const uint64_t first = c * kSumChunkTerms + static_cast<uint64_t>(lane) * kIncrementTerms;
  Increment v[KG];
  for (int k = 0; k < KG; ++k) v[k] = Rule::kUnfitPair;
  uint32_t exact = 0;  // bit k: sum k needs the exact rule
  if constexpr (kDecided) {
    static_assert(HasRuns<Terms>::value && std::is_same_v<Rule, ClampedTerms>,
                  "a functor that decides runs gives runs of terms clamped at zero");
    // A run that reaches past n is formed by the exact rule (the last one).
    for (int k = 0; k < KG; ++k) v[k] = Rule::kNothing;
    exact = wanted;
    if (wanted && first + kIncrementTerms <= n) {
      int32_t run_key[KG];
      float run_scale[KG];
      DecidedRun run[KG];
      for (int k = 0; k < KG; ++k) {
        run_key[k] = plan[k];
        run_scale[k] = unit_scale[k];
      }
      terms.template Decide<kIncrementTerms>(first, g, run_key, run_scale, run);
      for (int k = 0; k < KG; ++k) {
        if (((wanted >> k) & 1) && DecidedTaken(run[k], run_scale[k])) {
          v[k] = PlainTotal(run[k].units);
          exact &= ~(1u << k);
        }
      }
    }
    ExactRunsTogether<KG, Rule, Arith>(terms, n, c * kSumChunkTerms, g, plan, unit_scale, exact,
                                       queue, v);
  } else {
    if constexpr (!Arith::kFastRule) {
      for (int k = 0; k < KG; ++k) v[k] = Rule::kNothing;
      exact = wanted;
    } else if (wanted) {
      // A tie flag per sum (a tie in one sum must not send the others to the
      // exact rule); what the rule shares between sums (non-negative terms:
      // one negative-term flag for all of them).
      typename Rule::Fast fast[KG];
      typename Rule::FastShared shared;
      RunTerms<kIncrementTerms, KG, G>(terms, n, first, g, [&](int, const Term (&t)[KG]) {
        for (int k = 0; k < KG; ++k) Rule::FastAdd(fast[k], t[k], scale[k], shared);
      });
      for (int k = 0; k < KG; ++k) {
        if (!((wanted >> k) & 1)) continue;
        if (Rule::FastTaken(fast[k], shared)) {
          v[k] = Rule::FastIncrement(fast[k]);
        } else {
          v[k] = Rule::kNothing;
          exact |= 1u << k;
        }
      }
    }
    if (exact) {
      RunTerms<kIncrementTerms, KG, G>(terms, n, first, g, [&](int, const Term (&t)[KG]) {
        for (int k = 0; k < KG; ++k) {
          if ((exact >> k) & 1) {
            v[k] = Rule::Compose(v[k], Arith::template OneTerm<Rule>(t[k], plan[k]));
          }
        }
      });
    }
  }
  // Ordered tree inside the warp: lane i takes lane i + step. Lanes whose
  // result is not used compute garbage, which saturates harmlessly. Where
  // the rule allows it and no thread of the warp met a tie (almost
  // everywhere), the tree is a plain sum (PlainTotal).
  for (int k = 0; k < KG; ++k) {
    bool plain = false;
    if constexpr (Rule::kPlainTotals) plain = __all_sync(0xFFFFFFFFu, SameFromEitherParity(v[k]));
    if (plain) {
      if constexpr (Rule::kPlainTotals) {
        uint64_t total = v[k].even;
        for (int step = 1; step < 32; step *= 2) {
          total += __shfl_down_sync(0xFFFFFFFFu, total, step);
        }
        v[k] = PlainTotal(total);
      }
    } else {
      for (int step = 1; step < 32; step *= 2) v[k] = Rule::Compose(v[k], ShuffleDown(v[k], step));
    }
  }
  if (lane % 32 == 0) {
    for (int k = 0; k < KG; ++k) warp_inc[lane / 32][k] = v[k];
  }
  __syncthreads();
  if (lane < KG) {
    Increment r = warp_inc[0][lane];
    for (int w = 1; w < kWarps; ++w) r = Rule::Compose(r, warp_inc[w][lane]);
    inc[(g * KG + lane) * chunks + c] = r;
  }
}

}  // namespace detail
}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_ORDERED_SUM_CHUNKS_CUH_
