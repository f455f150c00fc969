// SPDX-License-Identifier: BSD-3-Clause
// The plan of the exact ordered sum in the same pass as the increments: a
// decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix
// Scan with Decoupled Look-back", 2016) over the chunks' advice. Each chunk
// publishes its tree sums (its aggregate) as soon as its terms are
// evaluated, then gathers the sums of all earlier chunks: a warp inspects 32
// predecessors at once, adds the aggregates of those nearer than the
// nearest one whose inclusive prefix is known, and that prefix; with none
// in the window it adds all 32 and moves on. The chunk then publishes its
// own inclusive prefix. The prefixes are advice only (PlanChunk turns them
// into a plan, which the walk checks), so the order in which doubles are
// added here, which depends on timing, changes the time and never the bits.
#ifndef S2C_KERNELS_ORDERED_SUM_LOOKBACK_CUH_
#define S2C_KERNELS_ORDERED_SUM_LOOKBACK_CUH_

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ordered_sum.h"

namespace s2c {
namespace cuda {
namespace detail {

// A chunk's flag: nothing published yet, its aggregate, its inclusive prefix.
constexpr uint32_t kChunkPending = 0;
constexpr uint32_t kChunkAggregate = 1;
constexpr uint32_t kChunkInclusive = 2;

struct LookBackState {
  uint32_t* flag;     // [group][chunk], zero before the launch
  uint32_t* ticket;   // [group]: the next chunk to hand out, zero before the launch
  double* advice;     // [sum][chunk]: the chunk's aggregate
  double* inclusive;  // [sum][chunk]: the sum of chunks 0 .. chunk
  // Flags and tickets, contiguous, for k sums (at most k groups).
  static size_t FlagBytes(size_t chunks, int k) { return sizeof(uint32_t) * (chunks * k + k); }
};

__device__ __forceinline__ uint32_t LoadFlag(const uint32_t* p) {
  return *static_cast<const volatile uint32_t*>(p);
}
__device__ __forceinline__ void StoreFlag(uint32_t* p, uint32_t v) {
  *static_cast<volatile uint32_t*>(p) = v;
}
__device__ __forceinline__ double LoadPublished(const double* p) {
  return *static_cast<const volatile double*>(p);
}

__device__ __forceinline__ double WarpSum(double v) {
  for (int step = 16; step > 0; step /= 2) v += __shfl_xor_sync(0xFFFFFFFFu, v, step);
  return v;
}

// Lane 0 writes the KG values that lanes 0 .. KG - 1 hold (sum k in lane
// k) to dst[sum][c]; Announce then sets the flag that says they are there.
// One writer, whose fence orders its stores.
template <int KG>
__device__ void Publish(double* dst, int g, uint64_t c, uint64_t chunks, double mine) {
  for (int k = 0; k < KG; ++k) {
    const double v = __shfl_sync(0xFFFFFFFFu, mine, k);
    if (threadIdx.x == 0) dst[(static_cast<size_t>(g) * KG + k) * chunks + c] = v;
  }
}
__device__ __forceinline__ void Announce(uint32_t* flag, uint32_t state) {
  if (threadIdx.x == 0) {
    __threadfence();
    StoreFlag(flag, state);
  }
}

// Run by the 32 threads of a block's first warp: publishes chunk c's
// aggregate of each of the group's KG sums (the warps' partial sums in
// warp_sum), looks back for the sum of every earlier chunk, publishes the
// inclusive prefix, and leaves the chunk's plan and fast-rule scale per sum
// in `plan` and `scale` (shared) and in key[sum][c].
template <int KG, int kWarps>
__device__ void LookBackPlan(const LookBackState& st, int g, uint64_t c, uint64_t chunks,
                             const double (&warp_sum)[kWarps][KG], int32_t* plan, double* scale,
                             int32_t* key) {
  const int lane = threadIdx.x;
  uint32_t* flag = st.flag + g * chunks;
  double aggregate = 0.0;  // lane k < KG: sum k over chunk c
  if (lane < KG) {
    for (int w = 0; w < kWarps; ++w) aggregate += warp_sum[w][lane];
  }
  Publish<KG>(st.advice, g, c, chunks, aggregate);
  if (c == 0) Publish<KG>(st.inclusive, g, c, chunks, aggregate);
  Announce(flag + c, c == 0 ? kChunkInclusive : kChunkAggregate);
  double before = 0.0;  // lane k < KG: sum k over chunks 0 .. c - 1
  if (c > 0) {
    for (int64_t newest = static_cast<int64_t>(c) - 1;; newest -= 32) {
      // Lane i inspects chunk newest - i. Chunk 0 is published inclusive at
      // once, so a window that reaches it stops there: no lane past it reads.
      const int64_t q = newest - lane;
      uint32_t f = kChunkPending;
      if (q >= 0) {
        do {
          f = LoadFlag(flag + q);
        } while (f == kChunkPending);
      }
      const unsigned inclusive = __ballot_sync(0xFFFFFFFFu, q >= 0 && f == kChunkInclusive);
      const int stop = inclusive ? __ffs(inclusive) - 1 : 32;
      __threadfence();  // the values after the flag that announced them
      for (int k = 0; k < KG; ++k) {
        const size_t at = (static_cast<size_t>(g) * KG + k) * chunks + q;
        double v = 0.0;
        if (lane < stop) v = LoadPublished(st.advice + at);
        if (lane == stop) v = LoadPublished(st.inclusive + at);
        v = WarpSum(v);
        if (lane == k) before += v;
      }
      if (inclusive) break;
    }
    Publish<KG>(st.inclusive, g, c, chunks, before + aggregate);
    Announce(flag + c, kChunkInclusive);
  }
  if (lane < KG) {
    const int32_t k = PlanChunk(before, before + aggregate);
    plan[lane] = k;
    scale[lane] = FastRuleScale(k);
    key[(static_cast<size_t>(g) * KG + lane) * chunks + c] = k;
  }
}

}  // namespace detail
}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_ORDERED_SUM_LOOKBACK_CUH_
