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

ScoreStats::ScoreStats(size_t window) : window_(window > 0 ? window : 1) {}

void ScoreStats::Add(double score) {
  if (recent_.size() < window_) {
    recent_.push_back(score);
  } else {
    recent_[oldest_] = score;
    oldest_ = (oldest_ + 1) % window_;
  }
  ++count_;
  sum_ += score;
  inverse_sum_ += 1.0 / (score + 1.0);
  min_ = count_ == 1 ? score : std::min(min_, score);
  max_ = count_ == 1 ? score : std::max(max_, score);
  const double delta = score - running_mean_;
  running_mean_ += delta / static_cast<double>(count_);
  squares_ += delta * (score - running_mean_);
}

void ScoreStats::Reset() { *this = ScoreStats(window_); }

ScoreSummary ScoreStats::Summarize() const {
  ScoreSummary s;
  s.frames = count_;
  if (count_ == 0) return s;
  const double n = static_cast<double>(count_);
  s.mean = sum_ / n;
  s.min = min_;
  s.max = max_;
  s.harmonic_mean = n / inverse_sum_ - 1.0;
  s.stddev = std::sqrt(squares_ / n);
  std::vector<double> sorted(recent_);
  std::sort(sorted.begin(), sorted.end());
  s.percentile_frames = sorted.size();
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
