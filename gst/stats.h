// SPDX-License-Identifier: BSD-3-Clause
// Running statistics of one segment's scores, for the summary message and
// the element's "stats" property. Every score is kept (8 bytes a frame) so
// that the percentiles are exact; the vector grows by doubling, so there is
// no allocation on most frames.
#ifndef S2C_GST_STATS_H_
#define S2C_GST_STATS_H_

#include <cstdint>
#include <vector>

namespace s2c {

struct ScoreSummary {
  uint64_t frames = 0;
  double mean = 0.0;
  double min = 0.0;
  double max = 0.0;
  // n / sum(1/s); 0 when any score is <= 0, where it is undefined.
  double harmonic_mean = 0.0;
  // Percentiles by nearest rank: pQ is the ceil(Q / 100 * n)-th smallest
  // score (the 1st for tiny n), always one of the scores; the median is p50,
  // i.e. the lower of the two middle scores when n is even.
  double p1 = 0.0;
  double p5 = 0.0;
  double p10 = 0.0;
  double p25 = 0.0;
  double median = 0.0;
  double p75 = 0.0;
  double p95 = 0.0;
  // Population standard deviation, two passes over the scores.
  double stddev = 0.0;
};

class ScoreStats {
 public:
  void Add(double score) { scores_.push_back(score); }
  void Reset() { scores_.clear(); }
  uint64_t count() const { return scores_.size(); }

  // All fields 0 when no frame was scored.
  ScoreSummary Summarize() const;

 private:
  std::vector<double> scores_;
};

}  // namespace s2c

#endif  // S2C_GST_STATS_H_
