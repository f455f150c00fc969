// SPDX-License-Identifier: BSD-3-Clause
#include "monitor_metrics.h"

#include <limits>

namespace s2c::monitor {
namespace {

// SSIMULACRA 2's scale in steps of 10: below 30 is bad, 50 medium, 70 good,
// 90 excellent. Scores below 0 count in the first bucket.
prometheus::Histogram::BucketBoundaries ScoreBuckets() {
  return {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
}

}  // namespace

Metrics::Metrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      score_(prometheus::BuildGauge()
                 .Name("ssimulacra2cmp_score")
                 .Help("The channel's last SSIMULACRA 2.1 score; NaN while it is not current")
                 .Register(*registry_)),
      frames_scored_(prometheus::BuildCounter()
                         .Name("ssimulacra2cmp_frames_scored_total")
                         .Help("Reference frames scored")
                         .Register(*registry_)),
      frames_skipped_(prometheus::BuildCounter()
                          .Name("ssimulacra2cmp_frames_skipped_total")
                          .Help("Reference frames passed on unscored (no partner, or no "
                                "score by their deadline)")
                          .Register(*registry_)),
      alarm_(prometheus::BuildGauge()
                 .Name("ssimulacra2cmp_alarm")
                 .Help("1 while the score is below the channel's threshold")
                 .Register(*registry_)),
      feed_up_(prometheus::BuildGauge()
                   .Name("ssimulacra2cmp_feed_up")
                   .Help("1 while the feed delivers frames")
                   .Register(*registry_)),
      coverage_(prometheus::BuildGauge()
                    .Name("ssimulacra2cmp_coverage_ratio")
                    .Help("Share of the reference frames scored over the last window "
                          "(summary-interval); NaN before the first")
                    .Register(*registry_)),
      window_mean_(prometheus::BuildGauge()
                       .Name("ssimulacra2cmp_window_score_mean")
                       .Help("Mean SSIMULACRA 2.1 score of the last window (summary-interval); "
                             "NaN when none was scored")
                       .Register(*registry_)),
      window_min_(prometheus::BuildGauge()
                      .Name("ssimulacra2cmp_window_score_min")
                      .Help("Lowest SSIMULACRA 2.1 score of the last window (summary-interval); "
                            "NaN when none was scored")
                      .Register(*registry_)),
      window_p5_(prometheus::BuildGauge()
                     .Name("ssimulacra2cmp_window_score_p5")
                     .Help("5th percentile of the SSIMULACRA 2.1 scores of the last window "
                           "(summary-interval); NaN when none was scored")
                     .Register(*registry_)),
      restarts_(prometheus::BuildCounter()
                    .Name("ssimulacra2cmp_channel_restarts_total")
                    .Help("Restarts of the channel's pipeline after a failure")
                    .Register(*registry_)),
      distribution_(prometheus::BuildHistogram()
                        .Name("ssimulacra2cmp_score_distribution")
                        .Help("SSIMULACRA 2.1 scores")
                        .Register(*registry_)),
      alignment_offset_(prometheus::BuildGauge()
                            .Name("ssimulacra2cmp_alignment_offset_frames")
                            .Help("align=auto or index: the distorted stream's offset in frames "
                                  "(distorted minus reference frame number) of the last "
                                  "alignment message; NaN before the first")
                            .Register(*registry_)),
      realignments_(prometheus::BuildCounter()
                        .Name("ssimulacra2cmp_realignments_total")
                        .Help("align=auto: offsets decided anew after the first of a run "
                              "(a frame dropped or repeated, a drift, a feed restored)")
                        .Register(*registry_)) {}

ChannelMetrics::ChannelMetrics(Metrics* metrics, const std::string& channel)
    : metrics_(metrics),
      score_(metrics->score_.Add({{"channel", channel}})),
      frames_scored_(metrics->frames_scored_.Add({{"channel", channel}})),
      frames_skipped_(metrics->frames_skipped_.Add({{"channel", channel}})),
      alarm_(metrics->alarm_.Add({{"channel", channel}})),
      ref_up_(metrics->feed_up_.Add({{"channel", channel}, {"feed", "reference"}})),
      dist_up_(metrics->feed_up_.Add({{"channel", channel}, {"feed", "distorted"}})),
      coverage_(metrics->coverage_.Add({{"channel", channel}})),
      window_mean_(metrics->window_mean_.Add({{"channel", channel}})),
      window_min_(metrics->window_min_.Add({{"channel", channel}})),
      window_p5_(metrics->window_p5_.Add({{"channel", channel}})),
      restarts_(metrics->restarts_.Add({{"channel", channel}})),
      distribution_(metrics->distribution_.Add({{"channel", channel}}, ScoreBuckets())),
      alignment_offset_(metrics->alignment_offset_.Add({{"channel", channel}})),
      realignments_(metrics->realignments_.Add({{"channel", channel}})) {
  ScoreStale();
  WindowStale();
  AlignmentStale();
}

ChannelMetrics::~ChannelMetrics() {
  metrics_->score_.Remove(&score_);
  metrics_->frames_scored_.Remove(&frames_scored_);
  metrics_->frames_skipped_.Remove(&frames_skipped_);
  metrics_->alarm_.Remove(&alarm_);
  metrics_->feed_up_.Remove(&ref_up_);
  metrics_->feed_up_.Remove(&dist_up_);
  metrics_->coverage_.Remove(&coverage_);
  metrics_->window_mean_.Remove(&window_mean_);
  metrics_->window_min_.Remove(&window_min_);
  metrics_->window_p5_.Remove(&window_p5_);
  metrics_->restarts_.Remove(&restarts_);
  metrics_->distribution_.Remove(&distribution_);
  metrics_->alignment_offset_.Remove(&alignment_offset_);
  metrics_->realignments_.Remove(&realignments_);
}

void ChannelMetrics::Score(double score) {
  score_.Set(score);
  distribution_.Observe(score);
}

void ChannelMetrics::ScoreStale() { score_.Set(std::numeric_limits<double>::quiet_NaN()); }

void ChannelMetrics::SetWindow(double scored_share, double mean, double min, double p5) {
  coverage_.Set(scored_share);
  window_mean_.Set(mean);
  window_min_.Set(min);
  window_p5_.Set(p5);
}

void ChannelMetrics::AlignmentStale() {
  alignment_offset_.Set(std::numeric_limits<double>::quiet_NaN());
}

void ChannelMetrics::WindowStale() {
  const double none = std::numeric_limits<double>::quiet_NaN();
  SetWindow(none, none, none, none);
}

}  // namespace s2c::monitor
