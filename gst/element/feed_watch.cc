// SPDX-License-Identifier: BSD-3-Clause
#include "feed_watch.h"

#include <limits>

#include "element_state.h"

namespace s2c {
namespace {

void PostFeed(GstSsimulacra2Cmp* self, int index, bool lost, GstClockTime timeout) {
  FeedMessage m;
  m.distorted = index == kDist;
  m.lost = lost;
  m.timeout = timeout;
  m.origin = Origin(&self->priv->output);
  PostStructure(self, m.ToStructure());
}

gboolean OnTimeout(GstClock* clock, GstClockTime time, GstClockID id, gpointer data);

// Drops the pending check, if any (the feed watch's lock held).
void CancelLocked(FeedWatchState* w) {
  if (w->id == nullptr) return;
  gst_clock_id_unschedule(w->id);
  gst_clock_id_unref(w->id);
  w->id = nullptr;
}

// Schedules the next check for when the feed not yet lost whose last
// buffer is the oldest would be lost (the lock held). None while both are
// lost: the next buffer schedules it.
void ScheduleLocked(GstSsimulacra2Cmp* self) {
  FeedWatchState* w = &self->priv->feed;
  CancelLocked(w);
  GstClockTime next = GST_CLOCK_TIME_NONE;
  for (int i = 0; i < 2; ++i) {
    if (w->lost[i]) continue;
    const GstClockTime at = w->last[i] + w->timeout;
    if (!GST_CLOCK_TIME_IS_VALID(next) || at < next) next = at;
  }
  if (!GST_CLOCK_TIME_IS_VALID(next)) return;
  w->id = gst_clock_new_single_shot_id(w->clock, next);
  // The callback holds the element until it has run or been unscheduled.
  gst_clock_id_wait_async(w->id, OnTimeout, gst_object_ref(self), gst_object_unref);
}

// The distorted feed is lost: its last score no longer describes what is
// on air.
void MarkLastScoreStale(ElementState* p) {
  std::lock_guard<std::mutex> lock(p->output.results_lock);
  p->output.results.last_score = std::numeric_limits<double>::quiet_NaN();
}

// From the clock's thread: the feeds whose last buffer is feed-timeout old
// are lost. Not live, nothing is watched any more (feed_watch.h).
gboolean OnTimeout(GstClock* clock, GstClockTime /*time*/, GstClockID id, gpointer data) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(data);
  ElementState* p = self->priv;
  FeedWatchState* w = &p->feed;
  // The aggregator's lock, which IsLive takes, is never taken under ours.
  const bool live = IsLive(self);
  bool lost[2] = {false, false};
  GstClockTime timeout = 0;
  {
    std::lock_guard<std::mutex> lock(w->lock);
    if (!w->armed || w->id != id) return TRUE;  // stopped, or rescheduled meanwhile
    if (!live) {
      CancelLocked(w);
      return TRUE;
    }
    const GstClockTime now = gst_clock_get_time(clock);
    for (int i = 0; i < 2; ++i) {
      if (w->lost[i] || now < w->last[i] + w->timeout) continue;
      w->lost[i] = lost[i] = true;
    }
    timeout = w->timeout;
    ScheduleLocked(self);
  }
  if (lost[kDist]) MarkLastScoreStale(p);
  for (int i = 0; i < 2; ++i) {
    if (lost[i]) PostFeed(self, i, true, timeout);
  }
  return TRUE;
}

// From the streaming thread upstream of each sink pad: the feed is alive;
// a lost one is restored.
GstPadProbeReturn OnBuffer(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(data);
  FeedWatchState* w = &self->priv->feed;
  const int index = pad == GST_PAD(self->pads[kRef]) ? kRef : kDist;
  bool restored = false;
  GstClockTime timeout = 0;
  {
    std::lock_guard<std::mutex> lock(w->lock);
    if (!w->armed) return GST_PAD_PROBE_OK;
    w->last[index] = gst_clock_get_time(w->clock);
    restored = w->lost[index];
    w->lost[index] = false;
    timeout = w->timeout;
    if (restored) ScheduleLocked(self);
  }
  if (restored) {
    // The offset between the feeds may have changed while one was away:
    // the alignment restarts at this buffer (align_flow.cc).
    self->priv->align.restored_by[index] = GST_PAD_PROBE_INFO_BUFFER(info);
    PostFeed(self, index, false, timeout);
  }
  return GST_PAD_PROBE_OK;
}

}  // namespace

void InstallFeedProbes(GstSsimulacra2Cmp* self) {
  for (GstAggregatorPad* pad : self->pads) {
    gst_pad_add_probe(GST_PAD(pad),
                      static_cast<GstPadProbeType>(GST_PAD_PROBE_TYPE_BUFFER |
                                                   GST_PAD_PROBE_TYPE_BUFFER_LIST),
                      OnBuffer, self, nullptr);
  }
}

void StartFeedWatch(GstSsimulacra2Cmp* self, GstClockTime timeout) {
  StopFeedWatch(self);
  if (timeout == 0) return;
  GstClock* clock = gst_element_get_clock(GST_ELEMENT(self));
  if (clock == nullptr) return;
  FeedWatchState* w = &self->priv->feed;
  std::lock_guard<std::mutex> lock(w->lock);
  w->clock = clock;
  w->timeout = timeout;
  const GstClockTime now = gst_clock_get_time(clock);
  for (int i = 0; i < 2; ++i) {
    w->last[i] = now;
    w->lost[i] = false;
  }
  w->armed = true;
  ScheduleLocked(self);
}

void StopFeedWatch(GstSsimulacra2Cmp* self) {
  FeedWatchState* w = &self->priv->feed;
  std::lock_guard<std::mutex> lock(w->lock);
  w->armed = false;
  CancelLocked(w);
  if (w->clock != nullptr) gst_object_unref(w->clock);
  w->clock = nullptr;
}

}  // namespace s2c
