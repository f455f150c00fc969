// SPDX-License-Identifier: BSD-3-Clause
// Running statistics of one segment's scores, for the summary message and
// the element's "stats" property, in bounded memory for 24/7 runs: count,
// mean, min, max, harmonic mean and standard deviation are streaming values
// over every score of the segment; the percentiles are exact over the last
// `window` scores (all of them while the segment has no more), which are
// kept in a ring of at most window doubles (8 MiB by default: 4.8 hours at
// 60 frames per second).
#ifndef S2C_GST_STATS_H_
#define S2C_GST_STATS_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace s2c {

// Every statistic is NaN while no frame is scored: 0 would read as a real
// (and terrible) score.
struct ScoreSummary {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

  uint64_t frames = 0;
  double mean = kNone;  // sum / n, the sum in arrival order
  double min = kNone;
  double max = kNone;
  // libvmaf's: n / sum(1 / (s + 1)) - 1, the sum in arrival order.
  double harmonic_mean = kNone;
  // Percentiles by nearest rank over the last `percentile_frames` scores: pQ
  // is the ceil(Q / 100 * m)-th smallest of them (the 1st for tiny m),
  // always one of the scores; the median is p50, i.e. the lower of the two
  // middle scores when m is even.
  uint64_t percentile_frames = 0;
  double p1 = kNone;
  double p5 = kNone;
  double p10 = kNone;
  double p25 = kNone;
  double median = kNone;
  double p75 = kNone;
  double p95 = kNone;
  // Population standard deviation (Welford's streaming update).
  double stddev = kNone;
};

class ScoreStats {
 public:
  static constexpr size_t kDefaultWindow = size_t{1} << 20;

  explicit ScoreStats(size_t window = kDefaultWindow);

  void Add(double score);
  void Reset();
  uint64_t count() const { return count_; }
  // Scores held for the percentiles: min(count, window).
  size_t held() const { return recent_.size(); }

  ScoreSummary Summarize() const;

 private:
  size_t window_;
  std::vector<double> recent_;  // a ring once it holds window_ scores
  size_t oldest_ = 0;           // the ring's oldest score, once full
  uint64_t count_ = 0;
  double sum_ = 0.0;
  double inverse_sum_ = 0.0;     // of 1 / (s + 1), for the harmonic mean
  double min_ = 0.0;
  double max_ = 0.0;
  double running_mean_ = 0.0;   // Welford
  double squares_ = 0.0;        // Welford's M2
};

}  // namespace s2c

#endif  // S2C_GST_STATS_H_
