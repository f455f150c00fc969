// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the element's files (element_state.h).
#include "element_state.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "pairing.h"

namespace s2c {

ElementSettings ReadSettings(GstSsimulacra2Cmp* self) {
  GST_OBJECT_LOCK(self);
  ElementSettings s = self->priv->props.settings;
  GST_OBJECT_UNLOCK(self);
  return s;
}

bool IsLive(GstSsimulacra2Cmp* self) {
  return GST_CLOCK_TIME_IS_VALID(gst_aggregator_get_latency(Agg(self)));
}

int64_t RefFramePeriod(const ElementState* p) {
  const PadFormat& ref = p->caps.format[kRef];
  if (ref.known && ref.info.fps_n > 0 && ref.info.fps_d > 0) {
    return static_cast<int64_t>(gst_util_uint64_scale_int(GST_SECOND, ref.info.fps_d,
                                                          ref.info.fps_n));
  }
  return p->pairing.ref_period.Get();
}

int64_t CurrentPairingTolerance(const ElementState* p, const ElementSettings& s, bool live) {
  return PairingTolerance(s, live, RefFramePeriod(p));
}

int PairsInFlight(GstSsimulacra2Cmp* self) {
  const int max_in_flight = ReadSettings(self).max_in_flight;
  const Backend* backend = self->priv->queue.backend.get();
  return backend != nullptr ? std::min(max_in_flight, backend->Capacity()) : max_in_flight;
}

// Latency: the frames on the backend (PairsInFlight - 1), plus how long a
// reference frame may wait for its partner: a negative dist-offset (the
// distorted feed runs late) and the pairing tolerance. Without the wait, a live pipeline's
// deadline would pass every reference frame on before its partner arrives.
// With align=auto, also the frames the aligner holds before its verdict.
void UpdateLatency(GstSsimulacra2Cmp* self) {
  ElementState* p = self->priv;
  const ElementSettings settings = ReadSettings(self);
  int frames = PairsInFlight(self) - 1;
  if (settings.align == AlignChoice::kAuto) {
    frames += FrameAligner(AlignMode::kAuto, settings.align_window).FramesHeld();
  }
  GstClockTime latency = static_cast<GstClockTime>(frames) * RefFramePeriod(p);
  if (settings.align == AlignChoice::kOff && settings.dist_offset < 0) {
    // -dist_offset as an unsigned magnitude (INT64_MIN has no int64 negation).
    latency = SaturatingLatency(latency, 0 - static_cast<uint64_t>(settings.dist_offset));
  }
  // The latency matters only live: the live tolerance.
  const int64_t tolerance = CurrentPairingTolerance(p, settings, true);
  latency = SaturatingLatency(latency, static_cast<uint64_t>(tolerance));
  gst_aggregator_set_latency(Agg(self), latency, latency);
}

void PostStructure(GstSsimulacra2Cmp* self, GstStructure* s) {
  gst_element_post_message(GST_ELEMENT(self),
                           gst_message_new_element(GST_OBJECT(self), s));
}

MessageOrigin Origin(ResultsOutputState* out) {
  MessageOrigin origin;
  origin.utc = UtcNow();
  std::lock_guard<std::mutex> lock(out->results_lock);
  origin.label = out->label;
  return origin;
}

namespace {

// "offset:pairs" items joined by ',' (SummaryMessage::offsets).
std::string OffsetsText(const std::vector<std::pair<int64_t, uint64_t>>& offsets) {
  std::string text;
  for (const auto& o : offsets) {
    char item[48];
    std::snprintf(item, sizeof(item), "%s%" PRId64 ":%" PRIu64, text.empty() ? "" : ",",
                  o.first, o.second);
    text += item;
  }
  return text;
}

}  // namespace

// The statistics are copied under the lock and summarized outside it: the
// percentiles sort up to a million scores (tens of ms), which must not hold
// up the streaming thread, while the copy is one memcpy of at most 8 MiB.
SummaryMessage MakeSummary(ResultsOutputState* out, const char* reason) {
  SummaryMessage m;
  m.origin = Origin(out);
  m.reason = reason;
  ScoreStats stats;
  ScoreStats ssim_stats;
  {
    std::lock_guard<std::mutex> lock(out->results_lock);
    m.segment = out->results.segment;
    m.metrics = out->metrics;
    stats = out->results.stats;
    ssim_stats = out->results.ssim_stats;
    m.ref_unpaired = out->results.ref_unpaired;
    m.dist_unpaired = out->results.dist_unpaired;
    m.ref_late = out->results.ref_late;
    m.ref_skipped = out->results.ref_skipped;
    m.ref_overdue = out->results.ref_overdue;
    m.ref_gaps = out->results.ref_gaps;
    m.results_lost = out->results.results_lost;
    m.align_flagged = out->results.align_flagged;
    m.realignments = out->results.realignments;
    m.offsets = OffsetsText(out->results.offsets);
    m.colorimetry_mode = ColorimetryModeName(out->colorimetry_mode);
    m.colorimetry_adopted = out->colorimetry_adopted;
  }
  m.scores = stats.Summarize();
  m.ssim = ssim_stats.Summarize();
  return m;
}

void ResetSegment(ElementState* p, uint64_t segment) {
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    p->output.results = Results();
    p->output.results.segment = segment;
    p->output.results.started_us = g_get_monotonic_time();
  }
  p->monitor.frame_index = 0;
  ResetAlignment(&p->align);
  p->monitor.alarm.Reset();
  p->monitor.window.Reset();
  p->monitor.coverage.Reset();
  p->pairing.ref_period.Reset();
  p->pairing.warned_dist_ended = false;
}

}  // namespace s2c
