// SPDX-License-Identifier: BSD-3-Clause
#include "output_queue.h"

#include <algorithm>

#include "cuda_resources.h"
#include "element_state.h"
#include "pairing.h"
#include "score_fanout.h"
#include "video_desc.h"

GST_DEBUG_CATEGORY_EXTERN(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

namespace s2c {
namespace {

// How often the aggregator looks for results while the backend has pairs
// in a live pipeline: results are picked up, and room for new pairs seen,
// within this of being ready.
constexpr GstClockTime kResultPoll = 2 * GST_MSECOND;

// The live deadline of a reference frame: its running time plus the
// aggregator's latency (upstream's and the element's), the moment
// GstAggregator's own timeout uses. Active only in a live pipeline with
// live-policy=pass-unscored; otherwise nothing is ever past its deadline.
struct Deadline {
  bool active = false;
  GstClockTime now = 0;  // the clock's running time
  GstClockTime latency = 0;

  bool Passed(GstClockTime running_time) const {
    return active && GST_CLOCK_TIME_IS_VALID(running_time) &&
           now >= SaturatingLatency(running_time, latency);
  }
  // Whether `work` more of backend time would still end by the deadline.
  bool InTime(GstClockTime running_time, GstClockTime work) const {
    return !active || !GST_CLOCK_TIME_IS_VALID(running_time) ||
           SaturatingLatency(now, work) <= SaturatingLatency(running_time, latency);
  }
  // Whether a reference may leave now. Live, every reference leaves at its
  // deadline and not before: the sink would block the streaming thread
  // until then, and no pair could be started meanwhile.
  bool Due(GstClockTime running_time) const {
    return !active || !GST_CLOCK_TIME_IS_VALID(running_time) || Passed(running_time);
  }
};

// `latency` NONE: not live.
Deadline DeadlineWith(GstSsimulacra2Cmp* self, GstClockTime latency) {
  Deadline d;
  if (ReadSettings(self).live_policy != LivePolicy::kPassUnscored) return d;
  if (!GST_CLOCK_TIME_IS_VALID(latency)) return d;
  GstClock* clock = gst_element_get_clock(GST_ELEMENT(self));
  if (clock == nullptr) return d;
  const GstClockTime now = gst_clock_get_time(clock);
  gst_object_unref(clock);
  const GstClockTime base = gst_element_get_base_time(GST_ELEMENT(self));
  d.active = true;
  d.now = now > base ? now - base : 0;
  d.latency = latency;
  return d;
}

// Reads the aggregator's latency (which takes its source lock, so never
// from get_next_time) and keeps it for QueueNextTime.
Deadline DeadlineNow(GstSsimulacra2Cmp* self) {
  self->priv->queue.live_latency = gst_aggregator_get_latency(Agg(self));
  return DeadlineWith(self, self->priv->queue.live_latency);
}

// The output position moves to the end of what left last, a buffer or a
// gap: the live deadline after EOS is measured from there
// (gst_aggregator_simple_get_next_time semantics).
void AdvancePosition(GstSsimulacra2Cmp* self, GstBuffer* buffer) {
  if (!GST_BUFFER_PTS_IS_VALID(buffer)) return;
  GstClockTime end = GST_BUFFER_PTS(buffer);
  if (GST_BUFFER_DURATION_IS_VALID(buffer)) end += GST_BUFFER_DURATION(buffer);
  GST_OBJECT_LOCK(self);
  GST_AGGREGATOR_PAD(Agg(self)->srcpad)->segment.position = end;
  GST_OBJECT_UNLOCK(self);
}

GstFlowReturn Push(GstSsimulacra2Cmp* self, GstBuffer* buffer) {
  AdvancePosition(self, buffer);
  return gst_aggregator_finish_buffer(Agg(self), buffer);
}

// A reference gap leaves as what it came in as, a GAP event (GstAggregator
// hands it to the element as an empty buffer flagged GAP, which video
// elements downstream would refuse).
GstFlowReturn PushGap(GstSsimulacra2Cmp* self, GstBuffer* gap) {
  GstAggregator* agg = Agg(self);
  GstEvent* segment = gst_pad_get_sticky_event(agg->srcpad, GST_EVENT_SEGMENT, 0);
  if (segment != nullptr) {
    gst_event_unref(segment);
  } else if (self->priv->caps.ref_caps != nullptr) {
    // No buffer has gone out since the start or a flush: stream-start, caps
    // and segment first, as gst_aggregator_finish_buffer would send them.
    gst_aggregator_set_src_caps(agg, self->priv->caps.ref_caps);
  }
  AdvancePosition(self, gap);
  GstEvent* event = gst_event_new_gap(GST_BUFFER_PTS(gap), GST_BUFFER_DURATION(gap));
  gst_buffer_unref(gap);
  gst_pad_push_event(agg->srcpad, event);
  return GST_FLOW_OK;
}

void UnmapPending(Pending* p) {
  if (p->state != PairState::kScoring) return;
  // Unmapping drops the mapped frames' references; the distorted buffer's
  // was its last one.
  gst_video_frame_unmap(&p->ref_frame);
  gst_video_frame_unmap(&p->dist_frame);
  p->state = PairState::kUnscored;
}

// A scored pair leaves: its score fans out (score_fanout.h), then the
// buffer itself.
GstFlowReturn FinishScored(GstSsimulacra2Cmp* self, Pending* pending) {
  GstBuffer* ref = pending->ref;
  pending->ref = nullptr;
  const GstFlowReturn flow = FanOutScore(self, pending->frame, &ref);
  return flow == GST_FLOW_OK ? Push(self, ref) : flow;
}

void CountSkipped(ResultsOutputState* out) {
  std::lock_guard<std::mutex> lock(out->results_lock);
  ++out->results.ref_skipped;
}

// A waiting pair that will not be started: counted in ref-skipped, its
// partner dropped, and its reference left to leave unscored in its turn.
void SkipWaiting(GstSsimulacra2Cmp* self, Pending* pending, const char* why) {
  GST_DEBUG_OBJECT(self, "reference %" GST_TIME_FORMAT " skipped: %s",
                   GST_TIME_ARGS(pending->frame.running_time), why);
  CountSkipped(&self->priv->output);
  gst_clear_buffer(&pending->dist);
  pending->state = PairState::kUnscored;
}

// The front, still on the backend, is due: its reference leaves now,
// unscored and counted, and the pair moves to `abandoned` until the backend
// is done with its frames (the mapped frames keep their own buffer
// references).
GstFlowReturn AbandonFront(GstSsimulacra2Cmp* self) {
  OutputQueueState* q = &self->priv->queue;
  Pending& front = q->pending.front();
  GST_DEBUG_OBJECT(self, "reference %" GST_TIME_FORMAT " leaves at its deadline, its pair "
                   "still on the backend: skipped", GST_TIME_ARGS(front.frame.running_time));
  CountSkipped(&self->priv->output);
  GstBuffer* ref = front.ref;
  front.ref = nullptr;
  q->abandoned.push_back(front);
  q->pending.pop_front();
  return Push(self, ref);
}

// Collects the abandoned pairs the backend has finished (all of them with
// `wait`), throwing their results away. They are its oldest pairs.
Status CollectAbandoned(OutputQueueState* q, bool wait) {
  while (!q->abandoned.empty()) {
    bool ready = false;
    uint64_t tag = 0;
    Result dropped;
    const Status status = q->backend->CollectOldest(wait, &ready, &tag, &dropped);
    if (status.ok() && !ready) return status;
    UnmapPending(&q->abandoned.front());
    q->abandoned.pop_front();
    if (!status.ok()) return status;
  }
  return Status::Ok();
}

// Collects the result of `pending`, the backend's oldest pair once the
// abandoned ones are collected (waiting for all of them with `wait`). A
// score is kept in the entry (kScored) and its frames are released. On a
// failure the pair is gone from the backend: its frames are released too.
Status CollectInto(OutputQueueState* q, Pending* pending, bool wait, bool* ready) {
  *ready = false;
  S2C_RETURN_IF_ERROR(CollectAbandoned(q, wait));
  if (!q->abandoned.empty()) return Status::Ok();
  uint64_t tag = 0;
  Result result;
  const Status status = q->backend->CollectOldest(wait, ready, &tag, &result);
  if (!status.ok()) {
    UnmapPending(pending);
    return status;
  }
  if (!*ready) return status;
  g_assert(tag == pending->tag);
  UnmapPending(pending);
  pending->state = PairState::kScored;
  pending->frame.metrics = result.metrics;
  pending->frame.score = result.score;
  pending->frame.ssim = result.ssim;
  return status;
}

// Collects every result the backend has ready, in order, without waiting:
// a finished pair frees its place on the backend at once, even while its
// reference waits for its turn to leave.
// Live, each result also updates the estimate of the backend's time per
// pair (from the later of the pair's start and the previous result to
// this one), which QueueNextTime's poll keeps within a few ms.
Status CollectFinished(OutputQueueState* q, const Deadline& deadline) {
  S2C_RETURN_IF_ERROR(CollectAbandoned(q, false));
  for (Pending& pending : q->pending) {
    if (pending.state != PairState::kScoring) continue;
    bool ready = false;
    S2C_RETURN_IF_ERROR(CollectInto(q, &pending, false, &ready));
    if (!ready) break;
    if (!deadline.active || !GST_CLOCK_TIME_IS_VALID(pending.started_at)) continue;
    GstClockTime start = pending.started_at;
    if (GST_CLOCK_TIME_IS_VALID(q->last_result_at)) start = std::max(start, q->last_result_at);
    const GstClockTime sample = deadline.now > start ? deadline.now - start : 0;
    q->pair_time = q->pair_time == 0 ? sample : (7 * q->pair_time + sample) / 8;
    q->last_result_at = deadline.now;
  }
  return Status::Ok();
}

// Maps a waiting pair's frames and submits them.
GstFlowReturn StartScoring(GstSsimulacra2Cmp* self, Pending* pending) {
  ElementState* p = self->priv;
  OutputQueueState* q = &p->queue;
  PadFormat& rf = p->caps.format[kRef];
  PadFormat& df = p->caps.format[kDist];
  // Device pointers only when the backend runs on CUDA and both frames live
  // in CUDA memory its context can read; otherwise both are read from host
  // memory (cuda_resources.h).
  const MemoryKind memory =
      PairMemory(GST_ELEMENT(self), q->backend_is_cuda && rf.cuda_memory && df.cuda_memory,
                 pending->ref, pending->dist);
  if (!MapForBackend(&pending->ref_frame, &rf.info, pending->ref, memory)) {
    GST_ELEMENT_ERROR(self, RESOURCE, READ, ("Could not map a reference frame."), (nullptr));
    return GST_FLOW_ERROR;
  }
  if (!MapForBackend(&pending->dist_frame, &df.info, pending->dist, memory)) {
    gst_video_frame_unmap(&pending->ref_frame);
    GST_ELEMENT_ERROR(self, RESOURCE, READ, ("Could not map a distorted frame."), (nullptr));
    return GST_FLOW_ERROR;
  }
  // The mapped frame holds its own reference to the buffer.
  gst_clear_buffer(&pending->dist);
  pending->state = PairState::kScoring;
  pending->tag = q->next_tag++;
  const Status status = q->backend->Submit(
      ViewOfVideoFrame(pending->ref_frame, rf.desc),
      ViewOfVideoFrame(pending->dist_frame, df.desc), memory, pending->tag);
  // The first pair of a size or format sizes the uploads' copies and SSIM's
  // workspace.
  q->device_bytes = q->backend->DeviceBytes();
  if (!status.ok()) {
    UnmapPending(pending);
    if (status.code() == StatusCode::kCancelled) return GST_FLOW_FLUSHING;
    GST_ELEMENT_ERROR(self, STREAM, FAILED,
                      ("The %s backend refused a frame pair.", q->backend->name()),
                      ("%s", status.message().c_str()));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

// Starts waiting pairs, oldest first, while the backend has room. Live, a
// pair is started only if, by the backend's recent time per pair, its
// score can be ready by its deadline behind the pairs already on the
// backend (an idle backend takes it regardless); when more pairs wait than
// there is room for, the oldest are skipped at once. An overloaded backend is better spent on the newest
// frames than on scores that would all come too late.
GstFlowReturn StartWaiting(GstSsimulacra2Cmp* self, const Deadline& deadline,
                           int pairs_in_flight, bool* started) {
  OutputQueueState* q = &self->priv->queue;
  int room = pairs_in_flight - q->backend->InFlight();
  if (room <= 0) return GST_FLOW_OK;
  const auto startable = [&](const Pending& e) {
    return e.state == PairState::kWaiting && !deadline.Passed(e.frame.running_time);
  };
  int excess = deadline.active
                   ? static_cast<int>(std::count_if(q->pending.begin(), q->pending.end(),
                                                    startable)) - room
                   : 0;
  for (Pending& pending : q->pending) {
    if (room == 0) break;
    if (!startable(pending)) continue;
    // An idle backend always takes the pair: its result is also the next
    // sample of the time per pair, without which an estimate from a busy
    // spell would never come down again.
    const int in_flight = q->backend->InFlight();
    const GstClockTime work = (in_flight + 1) * q->pair_time;
    const bool crowded = excess > 0;
    if (crowded || (in_flight > 0 && !deadline.InTime(pending.frame.running_time, work))) {
      --excess;
      SkipWaiting(self, &pending,
                  crowded ? "more pairs wait than the backend has room for"
                          : "the backend cannot score it by its deadline");
      continue;
    }
    const GstFlowReturn flow = StartScoring(self, &pending);
    if (flow != GST_FLOW_OK) return flow;
    pending.started_at = deadline.now;
    --room;
    *started = true;
  }
  return GST_FLOW_OK;
}

// A cancelled backend (a flush or a stop is under way) is no failure.
GstFlowReturn BackendFailed(GstSsimulacra2Cmp* self, const Status& status) {
  if (status.code() == StatusCode::kCancelled) return GST_FLOW_FLUSHING;
  ElementState* p = self->priv;
  GST_ELEMENT_ERROR(self, STREAM, FAILED,
                    ("The %s backend failed to score frame %" G_GUINT64_FORMAT
                     "; no score is reported for it.",
                     p->queue.backend->name(), p->monitor.frame_index),
                    ("%s", status.message().c_str()));
  return GST_FLOW_ERROR;
}

// Sends out the front of the queue while it is ready: unscored, scored, or
// (live) due without a score. Not live, waits for a score while the
// backend has more than `keep` pairs.
GstFlowReturn SendFront(GstSsimulacra2Cmp* self, const Deadline& deadline, int keep,
                        bool* sent) {
  OutputQueueState* q = &self->priv->queue;
  while (!q->pending.empty()) {
    Pending& front = q->pending.front();
    if (!deadline.Due(front.frame.running_time)) return GST_FLOW_OK;
    if (front.state == PairState::kScoring && !deadline.active) {
      bool ready = false;
      const Status status = CollectInto(q, &front, q->backend->InFlight() > keep, &ready);
      if (!status.ok()) return BackendFailed(self, status);
      if (!ready) return GST_FLOW_OK;
    }
    if (front.state == PairState::kWaiting) {
      if (!deadline.active) return GST_FLOW_OK;  // waits for room on the backend
      // Live and due: leaves below, unscored.
      SkipWaiting(self, &front, "its deadline passed while it waited for the backend");
    }
    GST_LOG_OBJECT(self, "reference %" GST_TIME_FORMAT " leaves %s",
                   GST_TIME_ARGS(front.frame.running_time),
                   front.state == PairState::kScored ? "scored"
                   : front.gap                       ? "as a gap"
                                                     : "unscored");
    GstFlowReturn flow;
    if (front.state == PairState::kScored) {
      flow = FinishScored(self, &front);
      q->pending.pop_front();
    } else if (front.state == PairState::kUnscored) {
      if (!front.gap && !front.excluded) {
        CountUnscored(self, front.frame.running_time);
      }
      flow = front.gap ? PushGap(self, front.ref) : Push(self, front.ref);
      front.ref = nullptr;
      q->pending.pop_front();
    } else {
      CountUnscored(self, front.frame.running_time);
      flow = AbandonFront(self);  // live, due, still on the backend
    }
    *sent = true;
    if (flow != GST_FLOW_OK) return flow;
  }
  return GST_FLOW_OK;
}

}  // namespace

void QueueUnscored(OutputQueueState* q, GstBuffer* ref, GstClockTime running_time) {
  Pending pending;
  pending.ref = ref;
  pending.frame.running_time = running_time;
  q->pending.push_back(pending);
}

void QueueExcluded(OutputQueueState* q, GstBuffer* ref, GstClockTime running_time) {
  QueueUnscored(q, ref, running_time);
  q->pending.back().excluded = true;
}

void QueueGap(ElementState* p, GstBuffer* gap, GstClockTime running_time) {
  QueueUnscored(&p->queue, gap, running_time);
  p->queue.pending.back().gap = true;
  std::lock_guard<std::mutex> lock(p->output.results_lock);
  ++p->output.results.ref_gaps;
}

GstFlowReturn QueuePair(GstSsimulacra2Cmp* self, GstBuffer* ref, GstBuffer* dist,
                        const FrameMessage& frame) {
  Pending pending;
  pending.state = PairState::kWaiting;
  pending.ref = ref;
  pending.dist = dist;
  pending.frame = frame;
  self->priv->queue.pending.push_back(pending);
  // At most PairsInFlight - 1 pairs stay on the backend until the next
  // call: the latency UpdateLatency reports, and none at all with one pair.
  return Drain(self, PairsInFlight(self) - 1);
}

GstFlowReturn Drain(GstSsimulacra2Cmp* self, int keep) {
  OutputQueueState* q = &self->priv->queue;
  const int pairs_in_flight = PairsInFlight(self);
  const Deadline deadline = keep == 0 ? Deadline() : DeadlineNow(self);
  for (;;) {
    const Status status = CollectFinished(q, deadline);
    if (!status.ok()) return BackendFailed(self, status);
    bool started = false, sent = false;
    GstFlowReturn flow = StartWaiting(self, deadline, pairs_in_flight, &started);
    if (flow == GST_FLOW_OK) flow = SendFront(self, deadline, keep, &sent);
    if (flow != GST_FLOW_OK) return flow;
    if (!started && !sent) break;
  }
  if (keep > 0) return GST_FLOW_OK;
  // Nothing may stay on the backend when everything is drained.
  const Status rest = CollectAbandoned(q, true);
  return rest.ok() ? GST_FLOW_OK : BackendFailed(self, rest);
}

void DropPending(OutputQueueState* q) {
  // The frames stay mapped until the backend no longer reads them.
  q->backend->DropInFlight();
  for (Pending& abandoned : q->abandoned) UnmapPending(&abandoned);
  q->abandoned.clear();
  for (Pending& pending : q->pending) {
    UnmapPending(&pending);
    gst_clear_buffer(&pending.dist);
    gst_clear_buffer(&pending.ref);
  }
  q->pending.clear();
}

bool DeadlinePassed(GstSsimulacra2Cmp* self, GstClockTime running_time) {
  return DeadlineNow(self).Passed(running_time);
}

GstClockTime QueueNextTime(GstSsimulacra2Cmp* self) {
  const OutputQueueState* q = &self->priv->queue;
  const Deadline deadline = DeadlineWith(self, q->live_latency);
  if (!deadline.active || q->pending.empty()) return GST_CLOCK_TIME_NONE;
  GstClockTime next = q->pending.front().frame.running_time;
  if (q->backend->InFlight() > 0) {
    // Poll for results. The base class adds the latency to the time it is
    // given.
    const GstClockTime poll = deadline.now + kResultPoll;
    const GstClockTime soon = poll > deadline.latency ? poll - deadline.latency : 0;
    if (!GST_CLOCK_TIME_IS_VALID(next) || soon < next) next = soon;
  }
  return next;
}

}  // namespace s2c
