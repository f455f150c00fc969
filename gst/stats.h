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
#include <vector>

namespace s2c {

struct ScoreSummary {
  uint64_t frames = 0;
  double mean = 0.0;  // sum / n, the sum in arrival order
  double min = 0.0;
  double max = 0.0;
  // n / sum(1/s); 0 when any score is <= 0, where it is undefined.
  double harmonic_mean = 0.0;
  // Percentiles by nearest rank over the last `percentile_frames` scores: pQ
  // is the ceil(Q / 100 * m)-th smallest of them (the 1st for tiny m),
  // always one of the scores; the median is p50, i.e. the lower of the two
  // middle scores when m is even.
  uint64_t percentile_frames = 0;
  double p1 = 0.0;
  double p5 = 0.0;
  double p10 = 0.0;
  double p25 = 0.0;
  double median = 0.0;
  double p75 = 0.0;
  double p95 = 0.0;
  // Population standard deviation (Welford's streaming update).
  double stddev = 0.0;
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

  // All fields 0 when no frame was scored.
  ScoreSummary Summarize() const;

 private:
  size_t window_;
  std::vector<double> recent_;  // a ring once it holds window_ scores
  size_t oldest_ = 0;           // the ring's oldest score, once full
  uint64_t count_ = 0;
  double sum_ = 0.0;
  double inverse_sum_ = 0.0;
  bool all_positive_ = true;
  double min_ = 0.0;
  double max_ = 0.0;
  double running_mean_ = 0.0;   // Welford
  double squares_ = 0.0;        // Welford's M2
};

}  // namespace s2c

#endif  // S2C_GST_STATS_H_
