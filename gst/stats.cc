// SPDX-License-Identifier: BSD-3-Clause
#include "stats.h"

#include <algorithm>
#include <cmath>

namespace s2c {

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
  const size_t rank = static_cast<size_t>(std::ceil(0.05 * n));
  const size_t index = rank == 0 ? 0 : rank - 1;
  std::nth_element(sorted.begin(), sorted.begin() + index, sorted.end());
  s.p5 = sorted[index];
  return s;
}

}  // namespace s2c
