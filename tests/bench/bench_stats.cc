// SPDX-License-Identifier: BSD-3-Clause
// What the element's "stats" property costs the streaming thread: with a
// full window of a million scores, the copy made under the results lock
// (element_state.cc, MakeSummary) beside the summary made outside it, which
// sorts the copy for the percentiles. The median of several runs after one
// warm-up run, in milliseconds.
// Usage: bench_stats [runs]   (default 9)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "stats.h"

namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
  s2c::ScoreStats stats;
  uint64_t x = 88172645463325252u;  // xorshift64: scores in [0, 100)
  for (size_t i = 0; i < s2c::ScoreStats::kDefaultWindow + 1000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    stats.Add(static_cast<double>(x % 10000000) / 100000.0);
  }
  std::vector<double> copy_ms, summary_ms;
  double median_score = 0.0;
  for (int run = -1; run < runs; ++run) {
    const auto t0 = Clock::now();
    s2c::ScoreStats copy;
    copy = stats;
    const auto t1 = Clock::now();
    median_score = copy.Summarize().median;
    const auto t2 = Clock::now();
    if (run < 0) continue;  // warm-up
    copy_ms.push_back(Ms(t0, t1));
    summary_ms.push_back(Ms(t1, t2));
  }
  const double copy = Median(copy_ms), summary = Median(summary_ms);
  std::printf("%zu scores held, %d runs: copy under the lock %.2f ms, "
              "summary outside it %.2f ms (%.1fx the copy; median score %.5f)\n",
              stats.held(), runs, copy, summary, summary / copy, median_score);
  return 0;
}
