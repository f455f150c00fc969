// SPDX-License-Identifier: BSD-3-Clause
#include "stats.h"

#include <algorithm>
#include <cmath>

namespace s2c {
namespace {

// The ceil(percent / 100 * n)-th smallest of the sorted scores, in integers:
// in double, percent / 100 * n can land just above a whole number (0.07 *
// 100 is 7.000000000000001), which would move the rank by one.
double NearestRank(const std::vector<double>& sorted, int percent) {
  const size_t n = sorted.size();
  const size_t rank = (static_cast<size_t>(percent) * n + 99) / 100;
  return sorted[rank == 0 ? 0 : rank - 1];
}

}  // namespace

ScoreSummary ScoreStats::Summarize() const {
  ScoreSummary s;
  s.frames = scores_.size();
  if (scores_.empty()) return s;
  const double n = static_cast<double>(scores_.size());
  double sum = 0.0;
  double inverse_sum = 0.0;
  bool all_positive = true;
  s.min = scores_[0];
  s.max = scores_[0];
  for (double v : scores_) {
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    if (v > 0.0) {
      inverse_sum += 1.0 / v;
    } else {
      all_positive = false;
    }
  }
  s.mean = sum / n;
  s.harmonic_mean = all_positive ? n / inverse_sum : 0.0;
  double square_sum = 0.0;
  for (double v : scores_) square_sum += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(square_sum / n);

  std::vector<double> sorted(scores_);
  std::sort(sorted.begin(), sorted.end());
  s.p1 = NearestRank(sorted, 1);
  s.p5 = NearestRank(sorted, 5);
  s.p10 = NearestRank(sorted, 10);
  s.p25 = NearestRank(sorted, 25);
  s.median = NearestRank(sorted, 50);
  s.p75 = NearestRank(sorted, 75);
  s.p95 = NearestRank(sorted, 95);
  return s;
}

}  // namespace s2c
