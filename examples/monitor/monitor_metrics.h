// SPDX-License-Identifier: BSD-3-Clause
// The monitor's Prometheus metrics (prometheus-cpp's core): one registry,
// its families, and each channel's series, labelled channel="NAME".
#ifndef S2C_MONITOR_MONITOR_METRICS_H_
#define S2C_MONITOR_MONITOR_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <cstdint>
#include <memory>
#include <string>

namespace s2c::monitor {

class Metrics {
 public:
  Metrics();
  const prometheus::Registry& registry() const { return *registry_; }

 private:
  friend class ChannelMetrics;
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Gauge>& score_;
  prometheus::Family<prometheus::Counter>& frames_scored_;
  prometheus::Family<prometheus::Counter>& frames_skipped_;
  prometheus::Family<prometheus::Gauge>& alarm_;
  prometheus::Family<prometheus::Gauge>& feed_up_;
  prometheus::Family<prometheus::Gauge>& coverage_;
  prometheus::Family<prometheus::Gauge>& window_mean_;
  prometheus::Family<prometheus::Gauge>& window_min_;
  prometheus::Family<prometheus::Gauge>& window_p5_;
  prometheus::Family<prometheus::Counter>& restarts_;
  prometheus::Family<prometheus::Histogram>& distribution_;
  prometheus::Family<prometheus::Gauge>& alignment_offset_;
  prometheus::Family<prometheus::Counter>& realignments_;
};

// One channel's series, from its creation (a channel in the configuration)
// to its destruction (the channel removed from it), across restarts of its
// pipeline. The metrics are thread-safe: pad probes count from streaming
// threads.
class ChannelMetrics {
 public:
  ChannelMetrics(Metrics* metrics, const std::string& channel);
  ~ChannelMetrics();
  ChannelMetrics(const ChannelMetrics&) = delete;
  ChannelMetrics& operator=(const ChannelMetrics&) = delete;

  // A scored pair's SSIMULACRA 2 score: the last score and the histogram.
  void Score(double score);
  // The score is not current (the channel is down or a feed is lost): NaN,
  // never a stale value that reads as the present quality.
  void ScoreStale();
  // A reference frame scored (with either metric), or passed on unscored.
  void CountScored() { frames_scored_.Increment(); }
  void CountSkipped() { frames_skipped_.Increment(); }
  void SetAlarm(bool on) { alarm_.Set(on ? 1 : 0); }
  void SetFeedUp(bool reference, bool up) { (reference ? ref_up_ : dist_up_).Set(up ? 1 : 0); }
  // The last window of summary-interval (the element's window message):
  // the share of its reference frames scored, and the mean, minimum and
  // 5th percentile of its scores (NaN when none was scored).
  void SetWindow(double scored_share, double mean, double min, double p5);
  // NaN before the first window and while the pipeline is down.
  void WindowStale();
  void CountRestart() { restarts_.Increment(); }
  // align=auto or index: the offset of the last alignment message, in
  // frames (distorted minus reference), decided or assumed.
  void SetAlignmentOffset(int64_t frames) { alignment_offset_.Set(static_cast<double>(frames)); }
  // NaN before the first alignment message of a run of the pipeline (and
  // always with align=off, which posts none).
  void AlignmentStale();
  // A decided offset that replaced a decided one: a frame dropped or
  // repeated, a drift, a feed restored.
  void CountRealignment() { realignments_.Increment(); }

 private:
  Metrics* metrics_;
  prometheus::Gauge& score_;
  prometheus::Counter& frames_scored_;
  prometheus::Counter& frames_skipped_;
  prometheus::Gauge& alarm_;
  prometheus::Gauge& ref_up_;
  prometheus::Gauge& dist_up_;
  prometheus::Gauge& coverage_;
  prometheus::Gauge& window_mean_;
  prometheus::Gauge& window_min_;
  prometheus::Gauge& window_p5_;
  prometheus::Counter& restarts_;
  prometheus::Histogram& distribution_;
  prometheus::Gauge& alignment_offset_;
  prometheus::Counter& realignments_;
};

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_MONITOR_METRICS_H_
