// SPDX-License-Identifier: BSD-3-Clause
// What the soft double's tests share: the reference operations (the x86-64
// SSE2 instructions themselves, whose NaN rules the soft double follows),
// the draws on all cores and the exact-tie check. Their checks are
// tests/common/check.h's, which may run on every thread.
#ifndef S2C_TESTS_SOFT_DOUBLE_CHECK_H_
#define S2C_TESTS_SOFT_DOUBLE_CHECK_H_

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "../common/check.h"

namespace s2c {
namespace test {

// The reference: one SSE2 instruction each, so that the operand order (which
// NaN comes out when both are NaN) is the instruction's, not the compiler's
// choice for a commutative operator.
inline double HwAdd(double a, double b) {
  asm("addsd %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline double HwSub(double a, double b) {
  asm("subsd %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline double HwMul(double a, double b) {
  asm("mulsd %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline double HwDiv(double a, double b) {
  asm("divsd %1, %0" : "+x"(a) : "x"(b));
  return a;
}
inline double HwFromFloat(float f) {
  double d;
  asm("cvtss2sd %1, %0" : "=x"(d) : "x"(f));
  return d;
}
inline float HwToFloat(double d) {
  float f;
  asm("cvtsd2ss %1, %0" : "=x"(f) : "x"(d));
  return f;
}
inline double HwFromInt64(int64_t v) {
  double d;
  asm("cvtsi2sdq %1, %0" : "=x"(d) : "r"(v));
  return d;
}

// ---- Draws --------------------------------------------------------------------

// The number of random draws: S2C_SOFT_DRAWS if set (the "slow" suite sets
// 10^8), else `fallback`.
inline uint64_t DrawsFromEnv(uint64_t fallback) {
  const char* env = std::getenv("S2C_SOFT_DRAWS");
  return env && *env ? std::strtoull(env, nullptr, 10) : fallback;
}

// Runs fn(rng, first, n) over `total` draws in blocks of 2^16 on every
// hardware thread. Block k's generator is seeded from (seed, k), so the draws
// are the same whatever the number of threads.
template <class Fn>
void ParallelDraws(uint64_t seed, uint64_t total, Fn fn) {
  constexpr uint64_t kBlock = uint64_t{1} << 16;
  const uint64_t blocks = (total + kBlock - 1) / kBlock;
  std::atomic<uint64_t> next{0};
  auto worker = [&] {
    for (uint64_t k = next++; k < blocks; k = next++) {
      std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + k);
      const uint64_t first = k * kBlock;
      fn(rng, first, first + kBlock < total ? kBlock : total - first);
    }
  };
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

// Whether r, the rounded a + b or a * b, was an exact tie: its error e is
// exact (TwoSum, fma) for normal results and is half the distance to the
// neighbour on its side.
inline bool IsTie(double r, double e) {
  if (e == 0.0 || !std::isfinite(r) || std::fabs(r) < 0x1p-969) return false;
  const double next = std::nextafter(r, e > 0 ? INFINITY : -INFINITY);
  return std::fabs(e) * 2 == std::fabs(next - r);
}
inline double AddError(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_SOFT_DOUBLE_CHECK_H_
