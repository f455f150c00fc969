// SPDX-License-Identifier: BSD-3-Clause
// The ordered sum's constants, workspace layout and what the kernels read
// from a Terms functor (its rule, arithmetic, groups, runs and decisions);
// kernels/ordered_sum.cuh describes the passes.
#ifndef S2C_KERNELS_ORDERED_SUM_TRAITS_CUH_
#define S2C_KERNELS_ORDERED_SUM_TRAITS_CUH_

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ordered_sum_launch.h"
#include "steps/decided_increments.h"
#include "steps/ordered_sum.h"
#include "steps/ordered_sum_bits.h"
#include "steps/ordered_sum_signed.h"

namespace s2c {
namespace cuda {
namespace detail {

// A flag a Terms functor may declare, `static constexpr bool kMember =
// ...`: Detector<Terms>::value is its value, false where it declares none.
#define S2C_OPTIONAL_TERMS_FLAG(Detector, kMember)                                     \
  template <class Terms, class = void>                                                 \
  struct Detector : std::false_type {};                                                \
  template <class Terms>                                                               \
  struct Detector<Terms, std::void_t<decltype(Terms::kMember)>>                        \
      : std::bool_constant<Terms::kMember> {}

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
S2C_OPTIONAL_TERMS_FLAG(DeclaresSigned, kSigned);
S2C_OPTIONAL_TERMS_FLAG(DeclaresClamped, kClamped);
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
S2C_OPTIONAL_TERMS_FLAG(HasRuns, kRuns);

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
S2C_OPTIONAL_TERMS_FLAG(HasOneTerm, kOneTerm);

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
S2C_OPTIONAL_TERMS_FLAG(Decides, kDecides);

#undef S2C_OPTIONAL_TERMS_FLAG

}  // namespace detail
}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_ORDERED_SUM_TRAITS_CUH_
