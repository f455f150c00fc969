// SPDX-License-Identifier: BSD-3-Clause
#include "score_fanout.h"

#include <mutex>
#include <string>

#include "element_state.h"
#include "results_output.h"
#include "score_meta.h"

GST_DEBUG_CATEGORY_EXTERN(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

namespace s2c {
namespace {

// The threshold watches SSIMULACRA 2's score (none without it).
void UpdateAlarm(GstSsimulacra2Cmp* self, const ElementSettings& s,
                 const FrameMessage& f) {
  ElementState* p = self->priv;
  if (!(f.metrics & kMetricSsimulacra2)) return;
  AlarmRule rule;
  rule.threshold = s.threshold;
  rule.hysteresis = s.threshold_hysteresis;
  rule.hold = s.threshold_hold;
  const AlarmChange change = p->monitor.alarm.Update(rule, f.score, f.running_time);
  if (change == AlarmChange::kNone) return;
  ThresholdMessage m;
  m.cleared = change == AlarmChange::kCleared;
  m.score = f.score;
  m.threshold = s.threshold;
  m.frame_index = f.frame_index;
  m.timestamp = f.timestamp;
  m.running_time = f.running_time;
  m.origin = f.origin;
  PostStructure(self, m.ToStructure());
}

// Coverage is checked over summary-interval when set, else over windows of
// this much running time: long enough that a burst of skips in a live
// stream does not warn, short enough that an operator hears of a feed that
// stopped pairing within seconds.
constexpr GstClockTime kDefaultCoverageWindow = 10 * GST_SECOND;

// A reference frame leaves: it counts in min-coverage's window, and one
// that fell short gets a warning and a coverage message.
void CountCoverage(GstSsimulacra2Cmp* self, const ElementSettings& s,
                   GstClockTime running_time, bool scored) {
  ElementState* p = self->priv;
  LossCounts counts;
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    counts.ref_skipped = p->output.results.ref_skipped;
    counts.ref_overdue = p->output.results.ref_overdue;
    counts.ref_unpaired = p->output.results.ref_unpaired;
    counts.dist_unpaired = p->output.results.dist_unpaired;
    counts.ref_late = p->output.results.ref_late;
  }
  const GstClockTime window = s.summary_interval > 0 ? s.summary_interval : kDefaultCoverageWindow;
  CoverageMessage m;
  if (!p->monitor.coverage.Add(window, s.min_coverage, running_time, scored, counts, &m)) return;
  m.pairing_tolerance = p->pairing.pairing_tolerance;
  m.origin = Origin(&p->output);
  const std::string text = ExplainCoverage(m);
  GST_ELEMENT_WARNING(self, STREAM, FAILED, ("%s", text.c_str()), (nullptr));
  PostStructure(self, m.ToStructure());
}

// A reference frame leaves (gaps aside), from a scored pair or not: it
// counts in the summary-interval's window, which it may close (`score`:
// SSIMULACRA 2's when `has_score`), and in min-coverage's.
void CountInWindow(GstSsimulacra2Cmp* self, GstClockTime running_time, bool scored,
                   bool has_score, double score) {
  ElementState* p = self->priv;
  const ElementSettings s = ReadSettings(self);
  CountCoverage(self, s, running_time, scored);
  WindowMessage m;
  if (!p->monitor.window.Add(s.summary_interval, running_time, has_score, score, &m)) return;
  m.origin = Origin(&p->output);
  PostStructure(self, m.ToStructure());
}

// A scored pair's frame-index: the reference buffer's frame number when it
// carries one (offset N with offset_end N + 1, GStreamer's convention for
// video, as videotestsrc, videorate and ssimulacra2cmp-compare set it; a
// parser's byte offsets lack that end), else `count`, the scored pairs of
// the segment before this one.
uint64_t FrameIndex(GstBuffer* ref, uint64_t count) {
  const guint64 offset = GST_BUFFER_OFFSET(ref);
  return GST_BUFFER_OFFSET_IS_VALID(ref) && GST_BUFFER_OFFSET_END(ref) == offset + 1 ? offset
                                                                                      : count;
}

}  // namespace

GstFlowReturn FanOutScore(GstSsimulacra2Cmp* self, const FrameMessage& scored, GstBuffer** ref) {
  ElementState* p = self->priv;
  const ElementSettings s = ReadSettings(self);
  const double score = scored.score;
  FrameMessage f = scored;
  f.frame_index = FrameIndex(*ref, p->monitor.frame_index++);
  f.origin = Origin(&p->output);
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    f.segment = p->output.results.segment;
    if (f.metrics & kMetricSsimulacra2) {
      p->output.results.stats.Add(score);
      p->output.results.last_score = score;
    }
    if (f.metrics & kMetricSsim) p->output.results.ssim_stats.Add(f.ssim.combined);
    if (f.align_flagged) ++p->output.results.align_flagged;
  }
  *ref = gst_buffer_make_writable(*ref);
  ScoreMeta meta;
  meta.metrics = f.metrics;
  meta.score = score;
  meta.ssim = f.ssim.combined;
  meta.ssim_db = f.ssim.combined_db;
  meta.frame_index = f.frame_index;
  meta.dist_timestamp = f.dist_timestamp;
  meta.dist_frame_index = f.dist_frame_index;
  AddScoreMeta(*ref, meta);
  if (s.post_messages) PostStructure(self, f.ToStructure());
  UpdateAlarm(self, s, f);
  CountInWindow(self, f.running_time, true, (f.metrics & kMetricSsimulacra2) != 0, score);
  if (WriteFrameResults(self, f) != GST_FLOW_OK) {
    gst_clear_buffer(ref);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

void CountUnscored(GstSsimulacra2Cmp* self, GstClockTime running_time) {
  CountInWindow(self, running_time, false, false, 0.0);
}

}  // namespace s2c
