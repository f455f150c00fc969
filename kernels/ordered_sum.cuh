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
//   walk       one block per sum: lane 0 steps over runs with the exact sum,
//              through windows of them staged in shared memory; a chunk that
//              fails its check is added by the block in rounds: the lanes
//              that fit the sum's binade at once (an ordered prefix scan),
//              then the lane where the sum leaves it, term by term.
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

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include "ordered_sum_launch.h"
#include "steps/decided_increments.h"
#include "steps/ordered_sum.h"
#include "steps/ordered_sum_bits.h"
#include "steps/ordered_sum_signed.h"

namespace s2c {
namespace cuda {
namespace detail {

constexpr int kAdviceThreads = 256;
constexpr int kIncrementTerms = kSumThreadTerms;  // consecutive, per thread
constexpr int kIncrementThreads = kSumChunkTerms / kIncrementTerms;
constexpr int kPlanThreads = 256;
constexpr int kPlanItems = 16;  // chunks per thread in the plan's scan
constexpr int kRunThreads = 256;
static_assert(kSumChunkLanes % 32 == 0, "chunks are whole warps");
static_assert(kSumChunkTerms % kAdviceThreads == 0 && kAdviceThreads % 32 == 0, "advice");
static_assert(kSumChunkTerms % kIncrementThreads == 0 && kIncrementThreads % 32 == 0, "increments");

template <class Increment>
struct OrderedSumBuffers {
  void* advice;            // [sum][chunk], the terms' Advice (8 bytes each at most)
  int32_t* key;            // [sum][chunk], the plan
  Increment* inc;          // [sum][chunk]
  Increment* suffix;       // [sum][chunk], the rest of the chunk's run
  uint32_t* run_end;       // [sum][chunk]
};

inline size_t AlignUp(size_t v) { return (v + 255) & ~size_t{255}; }

inline size_t ChunkCount(uint64_t n) { return (n + kSumChunkTerms - 1) / kSumChunkTerms; }

template <class Increment>
size_t BuffersBytes(size_t chunks, int k, OrderedSumBuffers<Increment>* b, char* base) {
  size_t off = 0;
  auto take = [&](size_t bytes) {
    char* p = base ? base + off : nullptr;
    off += AlignUp(bytes * chunks * k);
    return p;
  };
  OrderedSumBuffers<Increment> out;
  out.advice = take(sizeof(double));
  out.key = reinterpret_cast<int32_t*>(take(sizeof(int32_t)));
  out.inc = reinterpret_cast<Increment*>(take(sizeof(Increment)));
  out.suffix = reinterpret_cast<Increment*>(take(sizeof(Increment)));
  out.run_end = reinterpret_cast<uint32_t*>(take(sizeof(uint32_t)));
  if (b) *b = out;
  return off;
}

template <class Rule>
struct ThenOp {
  using Increment = typename Rule::Increment;
  __device__ Increment operator()(Increment a, Increment b) const { return Rule::Compose(a, b); }
};

// The rule of a functor's sums: terms of either sign where it declares
// `static constexpr bool kSigned = true` (src/steps/ordered_sum_signed.h); terms
// that are clamped at zero where it declares `static constexpr bool kClamped
// = true` (each term >= 0, -0.0 or NaN, by construction: ClampedTerms,
// src/steps/ordered_sum.h, cheaper still); else never negative (NonNegativeTerms,
// which checks that they are not).
template <class Terms, class = void>
struct DeclaresSigned : std::false_type {};
template <class Terms>
struct DeclaresSigned<Terms, std::void_t<decltype(Terms::kSigned)>>
    : std::bool_constant<Terms::kSigned> {};
template <class Terms, class = void>
struct DeclaresClamped : std::false_type {};
template <class Terms>
struct DeclaresClamped<Terms, std::void_t<decltype(Terms::kClamped)>>
    : std::bool_constant<Terms::kClamped> {};
template <class Terms>
struct SumRule {
  static_assert(!(DeclaresSigned<Terms>::value && DeclaresClamped<Terms>::value),
                "terms clamped at zero are not signed");
  using type = std::conditional_t<DeclaresSigned<Terms>::value, SignedTerms,
                                  std::conditional_t<DeclaresClamped<Terms>::value, ClampedTerms,
                                                     NonNegativeTerms>>;
};

// The arithmetic of a functor's terms: doubles (TermsAsDoubles,
// src/steps/ordered_sum.h), or, where it declares `using Term = uint64_t`,
// their bit patterns (TermsAsBits, src/steps/ordered_sum_bits.h), for which
// no kernel computes in f64.
template <class Terms, class = void>
struct TermArith {
  using type = TermsAsDoubles;
};
template <class Terms>
struct TermArith<Terms, std::void_t<typename Terms::Term>> {
  static_assert(std::is_same_v<typename Terms::Term, double> ||
                    std::is_same_v<typename Terms::Term, uint64_t>,
                "terms are doubles or their bit patterns");
  using type = std::conditional_t<std::is_same_v<typename Terms::Term, uint64_t>, TermsAsBits,
                                  TermsAsDoubles>;
};

// Sums in groups: a functor may declare `static constexpr int kGroups = G`
// (G divides K) and give one group's K / G terms at a time,
//   __device__ void operator()(uint64_t i, int group, double (&t)[K / G]) const
// (terms group * K / G onwards). The advice and increments kernels then run
// one block per chunk and group, so that a thread holds K / G running
// increments rather than K (the backend's 18 sums are 3 channels of 6 terms
// with nothing shared between channels but the pixel position).
template <class Terms, class = void>
struct TermGroups {
  static constexpr int value = 1;
};
template <class Terms>
struct TermGroups<Terms, std::void_t<decltype(Terms::kGroups)>> {
  static constexpr int value = Terms::kGroups;
};

// Group g's terms of element i, zero past n. The passes take the terms of one
// element at a time and fold them in at once, so that no thread holds more
// than one element's terms (arrays of several elements' terms went to local
// memory and capped the occupancy).
template <int KG, int G, class Terms, class Term>
__device__ void ElementTerms(const Terms& terms, uint64_t n, uint64_t i, int g, Term (&t)[KG]) {
  if (i >= n) {
    for (int k = 0; k < KG; ++k) t[k] = Term{};  // +0.0
  } else if constexpr (G == 1) {
    terms(i, t);
  } else {
    terms(i, g, t);
  }
}

// Runs of consecutive elements: a functor may also declare
// `static constexpr bool kRuns = true` and define
//   template <int L, class Visit>
//   __device__ void Run(uint64_t first, int group, Visit&& visit) const
// calling visit(j, t) with the terms of elements first .. first + L - 1 in
// order, so that consecutive elements share work (the backend's finds the
// pixel position and the planes' row pointers once per run, not once per
// element). RunTerms uses it for runs wholly below n, else ElementTerms.
template <class Terms, class = void>
struct HasRuns : std::false_type {};
template <class Terms>
struct HasRuns<Terms, std::void_t<decltype(Terms::kRuns)>> : std::bool_constant<Terms::kRuns> {};

template <int L, int KG, int G, class Terms, class Visit>
__device__ __forceinline__ void RunTerms(const Terms& terms, uint64_t n, uint64_t first, int g,
                                         Visit&& visit) {
  if constexpr (HasRuns<Terms>::value) {
    if (first + L <= n) {
      terms.template Run<L>(first, g, visit);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < L; ++j) {
    typename TermArith<Terms>::type::Term t[KG];
    ElementTerms<KG, G>(terms, n, first + j, g, t);
    visit(j, t);
  }
}

// One term of an element: a functor may declare `static constexpr bool
// kOneTerm = true` and define
//   __device__ Term One(uint64_t i, int group, int k) const
// giving term k of group `group` of element i < n alone, for the walk, which
// adds one sum per block and otherwise forms the group's K / G terms to
// keep one.
template <class Terms, class = void>
struct HasOneTerm : std::false_type {};
template <class Terms>
struct HasOneTerm<Terms, std::void_t<decltype(Terms::kOneTerm)>>
    : std::bool_constant<Terms::kOneTerm> {};

// Increments decided without the terms: a functor may declare `static
// constexpr bool kDecides = true` and define
//   template <int L>
//   __device__ void Decide(uint64_t first, int group, const int32_t (&key)[K / G],
//                          const float (&scale)[K / G], DecidedRun (&run)[K / G]) const
//   __device__ DecidedRun DecideOne(uint64_t i, int group, int k, int32_t key,
//                                   float scale) const
// Decide adds to run[k] the increments of elements first .. first + L - 1
// < n under key[k] (scale[k] = UnitScale(key[k])), DecideOne that of
// element i's term k alone, each exactly the one-term rule's where it marks
// none undecided (the metric's terms on the integer path:
// src/steps/decided_increments.h). The increments kernel takes a decided
// run's total as its increment (DecidedTaken) in place of the fast rule;
// the runs it cannot take go to a queue (ExactRunsTogether). Such terms are
// clamped at zero (kClamped), and are given one at a time too (kOneTerm).
template <class Terms, class = void>
struct Decides : std::false_type {};
template <class Terms>
struct Decides<Terms, std::void_t<decltype(Terms::kDecides)>>
    : std::bool_constant<Terms::kDecides> {};

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
template <int K, class Terms, class Rule = typename SumRule<Terms>::type,
          class Arith = typename TermArith<Terms>::type>
__global__ void __launch_bounds__(kIncrementThreads)
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

template <int K, class Terms, class Rule = typename SumRule<Terms>::type,
          class Arith = typename TermArith<Terms>::type>
__global__ void __launch_bounds__(kSumChunkLanes)
    OrderedSumWalkKernel(Terms terms, uint64_t n, uint64_t chunks,
                         OrderedSumBuffers<typename Rule::Increment> b, uint64_t* out) {
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
  if (lane == 0) out[k] = sum_bits;  // the double's bits
}

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

// Enqueues on stream the K exact sums of terms(0..n-1) whose advice is
// already in the workspace (OrderedSumAdvice): the plan, increments, runs
// and walk passes. d_out receives K doubles when the stream reaches that
// point. The workspace must not be used by another launch in flight.
// Returns the launch error, if any; no sync.
template <int K, class Terms>
cudaError_t LaunchOrderedSumsAdvised(const Terms& terms, uint64_t n,
                                     const OrderedSumWorkspace& ws, double* d_out,
                                     cudaStream_t stream) {
  using Rule = typename detail::SumRule<Terms>::type;
  using Arith = typename detail::TermArith<Terms>::type;
  using Advice = typename Arith::Advice;
  constexpr int G = detail::TermGroups<Terms>::value;
  constexpr bool kSigned = std::is_same_v<Rule, SignedTerms>;
  static_assert(K >= 1 && K % G == 0 && K / G <= detail::kIncrementThreads, "K sums per launch");
  if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(double) * K, stream);  // +0.0
  if (!detail::WorkspaceFits(n, K, kSigned, ws)) return cudaErrorInvalidValue;
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
  detail::OrderedSumWalkKernel<K><<<K, kSumChunkLanes, 0, stream>>>(
      terms, n, chunks, b, reinterpret_cast<uint64_t*>(d_out));
  return cudaGetLastError();
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
