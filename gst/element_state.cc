// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the element's files (element_state.h).
#include "element_state.h"

namespace s2c {

ElementSettings ReadSettings(GstSsimulacra2Cmp* self) {
  GST_OBJECT_LOCK(self);
  ElementSettings s = self->priv->settings;
  GST_OBJECT_UNLOCK(self);
  return s;
}

bool IsLive(GstSsimulacra2Cmp* self) {
  return GST_CLOCK_TIME_IS_VALID(gst_aggregator_get_latency(Agg(self)));
}

void PostStructure(GstSsimulacra2Cmp* self, GstStructure* s) {
  gst_element_post_message(GST_ELEMENT(self),
                           gst_message_new_element(GST_OBJECT(self), s));
}

MessageOrigin Origin(ElementState* p) {
  MessageOrigin origin;
  origin.utc = UtcNow();
  std::lock_guard<std::mutex> lock(p->results_lock);
  origin.label = p->label;
  return origin;
}

SummaryMessage MakeSummary(ElementState* p, const char* reason) {
  SummaryMessage m;
  m.origin = Origin(p);
  std::lock_guard<std::mutex> lock(p->results_lock);
  m.reason = reason;
  m.segment = p->results.segment;
  m.metrics = p->metrics;
  m.scores = p->results.stats.Summarize();
  m.ssim = p->results.ssim_stats.Summarize();
  m.ref_unpaired = p->results.ref_unpaired;
  m.dist_unpaired = p->results.dist_unpaired;
  m.ref_late = p->results.ref_late;
  m.ref_skipped = p->results.ref_skipped;
  m.ref_gaps = p->results.ref_gaps;
  m.results_lost = p->results.results_lost;
  return m;
}

void ResetSegment(ElementState* p, uint64_t segment) {
  {
    std::lock_guard<std::mutex> lock(p->results_lock);
    p->results = Results();
    p->results.segment = segment;
    p->results.started_us = g_get_monotonic_time();
  }
  p->frame_index = 0;
  p->alarm.Reset();
  p->warned_dist_ended = false;
}

}  // namespace s2c
