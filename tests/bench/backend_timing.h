// SPDX-License-Identifier: BSD-3-Clause
// Timing helpers of the backend benchmarks (bench_cuda, bench_ssim): the
// median of runs, and pairs per wall-clock millisecond with a given number
// in flight. Timing only; nothing here checks a score.
#ifndef S2C_TESTS_BENCH_BACKEND_TIMING_H_
#define S2C_TESTS_BENCH_BACKEND_TIMING_H_

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "backend.h"

namespace s2c {
namespace test {

inline double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Timing {
  double per_pair_ms = 0.0;  // median
  double stages_ms[5] = {};  // medians: upload, scale start, blur h, blur v, sums
  double score = 0.0;
  s2c::Result last;  // the last pair's result
  int pairs = 0;
};

inline bool Check(const s2c::Status& st, const char* what) {
  if (st.ok()) return true;
  std::printf("ERROR %s: %s\n", what, st.message().c_str());
  return false;
}

// `depth` pairs in flight, wall clock per pair.
inline Timing Throughput(s2c::Backend& b, const s2c::FrameView& ref,
                  const s2c::FrameView& dist, s2c::MemoryKind mem, int depth,
                  int pairs, double seconds) {
  Timing t;
  auto run = [&](int n) -> double {
    const auto start = std::chrono::steady_clock::now();
    int submitted = 0, collected = 0;
    while (collected < n) {
      while (submitted < n && b.InFlight() < depth) {
        if (!Check(b.Submit(ref, dist, mem, submitted), "submit")) return -1.0;
        ++submitted;
      }
      bool ready = false;
      uint64_t tag = 0;
      s2c::Result r;
      if (!Check(b.CollectOldest(true, &ready, &tag, &r), "collect")) return -1.0;
      t.score = r.score;
      t.last = r;
      ++collected;
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
               .count() / n;
  };
  run(depth + 2);  // warm-up
  std::vector<double> per_pair;
  const auto start = std::chrono::steady_clock::now();
  for (int rep = 0; rep < 5; ++rep) {
    const double ms = run(pairs);
    if (ms < 0) return t;
    per_pair.push_back(ms);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > seconds && per_pair.size() >= 1) break;
  }
  t.per_pair_ms = Median(per_pair);
  t.pairs = static_cast<int>(per_pair.size()) * pairs;
  return t;
}

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_BENCH_BACKEND_TIMING_H_
