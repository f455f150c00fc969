// SPDX-License-Identifier: BSD-3-Clause
// The element's streaming path: with align=off each aggregate call takes one
// pairing decision (pairing.h) on the heads of ref_sink and dist_sink and
// queues a pair for scoring or lets one frame go unpaired (align=auto and
// index: align_flow.h); the output queue (output_queue.h) then sends out,
// in order, every reference buffer whose turn has come. Buffers are popped
// once, so no pair is ever scored twice.
#include "frame_flow.h"

#include "align_flow.h"
#include "element_state.h"
#include "output_queue.h"
#include "pad_caps.h"
#include "pairing.h"
#include "results_output.h"

GST_DEBUG_CATEGORY_EXTERN(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

namespace s2c {
namespace {

// Timestamps of the reference buffer as the frame message reports them.
FrameMessage DescribeRef(GstAggregatorPad* pad, GstBuffer* ref,
                              GstBuffer* dist) {
  FrameMessage f;
  f.timestamp = GST_BUFFER_PTS(ref);
  f.duration = GST_BUFFER_DURATION(ref);
  f.dist_timestamp = GST_BUFFER_PTS(dist);
  if (GST_CLOCK_TIME_IS_VALID(f.timestamp)) {
    GST_OBJECT_LOCK(pad);
    f.stream_time = gst_segment_to_stream_time(&pad->segment, GST_FORMAT_TIME, f.timestamp);
    f.running_time = gst_segment_to_running_time(&pad->segment, GST_FORMAT_TIME, f.timestamp);
    GST_OBJECT_UNLOCK(pad);
  }
  return f;
}

// Live, a resolution change reaches one pad a frame or more before the
// other, and a distorted branch renegotiating to the reference's size
// (pad_caps.h) first sends the frames it had already made: the pairs of
// two sizes are skipped, their references leave unscored and are counted
// in ref-skipped, with one warning each time the sizes start to differ,
// and scoring resumes when they agree again. A monitor that runs around
// the clock goes on rather than stopping.
GstFlowReturn SkipPairOfTwoSizes(GstSsimulacra2Cmp* self, GstBuffer* ref, GstBuffer* dist,
                                 GstClockTime ref_running_time) {
  ElementState* p = self->priv;
  const FrameDesc& r = p->caps.format[kRef].desc;
  const FrameDesc& d = p->caps.format[kDist].desc;
  if (!p->caps.sizes_differ) {
    GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                        ("The reference is %dx%d but the distorted stream is %dx%d; the "
                         "pairs are skipped (counted in ref-skipped) until both have one "
                         "size%s.",
                         r.width, r.height, d.width, d.height,
                         p->caps.dist_follow.size
                             ? " (the distorted branch is renegotiating to the reference's)"
                             : ""),
                        (nullptr));
    p->caps.sizes_differ = true;
  }
  p->monitor.coverage.NoteSizesDiffer(r.width, r.height, d.width, d.height);
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    ++p->output.results.ref_skipped;
  }
  gst_buffer_unref(dist);
  QueueUnscored(&p->queue, ref, ref_running_time);
  return Drain(self, PairsInFlight(self) - 1);
}

// Live, a pair whose reference's deadline has passed before it was paired:
// the streaming thread came to it late (held up downstream, most often: a
// sink or element slower than real time blocks it in its push), not the
// backend. Its reference leaves unscored at once, counted in ref-overdue,
// so that the backend's ref-skipped stays its own.
GstFlowReturn PassOverdue(GstSsimulacra2Cmp* self, GstBuffer* ref, GstBuffer* dist,
                          GstClockTime ref_running_time) {
  ElementState* p = self->priv;
  GST_DEBUG_OBJECT(self, "reference %" GST_TIME_FORMAT " paired after its deadline: overdue",
                   GST_TIME_ARGS(ref_running_time));
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    ++p->output.results.ref_overdue;
  }
  gst_buffer_unref(dist);
  QueueUnscored(&p->queue, ref, ref_running_time);
  return Drain(self, PairsInFlight(self) - 1);
}

// After the backend was set up for a new size: the pairs it has room for.
// Where that is fewer than
// max-in-flight (device-memory-limit), a warning says so, once per change,
// and the latency follows.
void NoteConfigured(GstSsimulacra2Cmp* self, const FrameDesc& size) {
  ElementState* p = self->priv;
  const int max_in_flight = ReadSettings(self).max_in_flight;
  const int pairs = PairsInFlight(self);
  GST_INFO_OBJECT(self, "%dx%d frames: %d pairs in flight (max-in-flight %d), %" G_GUINT64_FORMAT
                  " bytes of device memory",
                  size.width, size.height, pairs, max_in_flight,
                  static_cast<guint64>(p->queue.device_bytes));
  if (pairs < max_in_flight && pairs != p->queue.warned_pairs) {
    GST_ELEMENT_WARNING(self, RESOURCE, NO_SPACE_LEFT,
                        ("Only %d of max-in-flight=%d frame pairs fit in device-memory-limit "
                         "for %dx%d frames; scoring goes on with %d in flight.",
                         pairs, max_in_flight, size.width, size.height, pairs),
                        (nullptr));
    p->queue.warned_pairs = pairs;
  }
  UpdateLatency(self);
}

// Checks a pair against the negotiated formats, sets the backend up for a
// new size, and queues the pair for scoring.
GstFlowReturn ScorePair(GstSsimulacra2Cmp* self, GstBuffer* ref, GstBuffer* dist,
                        GstClockTime ref_running_time, const PairOrigin& origin) {
  ElementState* p = self->priv;
  PadFormat& rf = p->caps.format[kRef];
  PadFormat& df = p->caps.format[kDist];
  if (!rf.known || !df.known) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("A buffer arrived before its caps."), (nullptr));
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  CheckDistFollow(self);
  if (!SameSize(rf, df)) {
    if (IsLive(self) || p->caps.dist_follow.size) {
      return SkipPairOfTwoSizes(self, ref, dist, ref_running_time);
    }
    ReportSizeMismatch(self, rf, df);
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  p->caps.sizes_differ = false;
  if (!p->caps.ssim_formats.ok()) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("metrics includes ssim: %s.",
                                                p->caps.ssim_formats.message().c_str()),
                      (nullptr));
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  p->caps.paired_any = true;
  GstFlowReturn flow = GST_FLOW_OK;
  OutputQueueState& q = p->queue;
  if (rf.desc.width != q.configured_width || rf.desc.height != q.configured_height) {
    flow = Drain(self, 0);
    const Status status =
        flow == GST_FLOW_OK ? q.backend->Configure(rf.desc.width, rf.desc.height)
                            : Status::Ok();
    // What the backend holds for the new size, or still holds after a refusal.
    q.device_bytes = q.backend->DeviceBytes();
    if (!status.ok()) {
      GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                        ("The %s backend could not be set up for %dx%d frames: %s.",
                         q.backend->name(), rf.desc.width, rf.desc.height,
                         status.message().c_str()),
                        ("%s", status.message().c_str()));
      flow = GST_FLOW_ERROR;
    }
    if (flow == GST_FLOW_OK) {
      q.configured_width = rf.desc.width;
      q.configured_height = rf.desc.height;
      NoteConfigured(self, rf.desc);
    }
  }
  if (flow != GST_FLOW_OK) {
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return flow;
  }
  FrameMessage frame = DescribeRef(self->pads[kRef], ref, dist);
  frame.dist_frame_index = origin.dist_index;
  frame.align_flagged = origin.flagged;
  return QueuePair(self, ref, dist, frame);
}

}  // namespace

bool IsGap(GstBuffer* buffer) {
  return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_GAP) &&
         gst_buffer_get_size(buffer) == 0;
}

PadHead HeadOf(GstAggregatorPad* pad, GstBuffer* buffer, int64_t offset) {
  PadHead head;
  head.has_buffer = buffer != nullptr;
  head.eos = buffer == nullptr && gst_aggregator_pad_is_eos(pad);
  if (buffer == nullptr || !GST_BUFFER_PTS_IS_VALID(buffer)) return head;
  GST_OBJECT_LOCK(pad);
  guint64 rt = GST_CLOCK_TIME_NONE;
  const int sign = gst_segment_to_running_time_full(
      &pad->segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer), &rt);
  GST_OBJECT_UNLOCK(pad);
  if (sign == 0) return head;
  head.timed = true;
  head.running_time = OffsetRunningTime(sign, rt, offset);
  return head;
}

GstClockTime RunningTime(const PadHead& head) {
  return head.timed && head.running_time >= 0 ? static_cast<GstClockTime>(head.running_time)
                                              : GST_CLOCK_TIME_NONE;
}

void NoteRefFrame(PairingState* pairing, const PadHead& head, GstBuffer* ref) {
  if (!head.timed) return;
  const int64_t duration =
      GST_BUFFER_DURATION_IS_VALID(ref) ? static_cast<int64_t>(GST_BUFFER_DURATION(ref)) : 0;
  pairing->ref_period.Note(head.running_time, duration);
}

GstFlowReturn TakePair(GstSsimulacra2Cmp* self, GstBuffer* ref, GstBuffer* dist,
                       GstClockTime ref_running_time, const PairOrigin& origin) {
  gst_aggregator_selected_samples(Agg(self), GST_BUFFER_PTS(ref), GST_BUFFER_DTS(ref),
                                  GST_BUFFER_DURATION(ref), nullptr);
  if (DeadlinePassed(self, ref_running_time)) {
    return PassOverdue(self, ref, dist, ref_running_time);
  }
  return ScorePair(self, ref, dist, ref_running_time, origin);
}

GstFlowReturn PassUnpaired(GstSsimulacra2Cmp* self, GstBuffer* ref,
                           GstClockTime ref_running_time, bool late) {
  ElementState* p = self->priv;
  if (gst_aggregator_pad_is_eos(self->pads[kDist]) && !p->pairing.warned_dist_ended) {
    p->pairing.warned_dist_ended = true;
    GST_ELEMENT_WARNING(self, STREAM, FAILED,
                        ("The distorted stream ended before the reference; "
                         "the rest of the reference passes through unscored."),
                        (nullptr));
  }
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    if (late) {
      ++p->output.results.ref_late;
    } else {
      ++p->output.results.ref_unpaired;
    }
  }
  QueueUnscored(&p->queue, ref, ref_running_time);
  return Drain(self, PairsInFlight(self) - 1);
}

GstFlowReturn Finish(GstSsimulacra2Cmp* self) {
  GstFlowReturn flow = Drain(self, 0);
  if (flow == GST_FLOW_FLUSHING) return flow;  // a flush came: no summary of it here
  const GstFlowReturn ended = EndSegment(self, "eos");
  if (flow == GST_FLOW_OK) flow = ended;
  return flow == GST_FLOW_OK ? GST_FLOW_EOS : flow;
}

bool SameSize(const PadFormat& a, const PadFormat& b) {
  return a.desc.width == b.desc.width && a.desc.height == b.desc.height;
}

void ReportSizeMismatch(GstSsimulacra2Cmp* self, const PadFormat& r, const PadFormat& d) {
  GST_ELEMENT_ERROR(self, STREAM, FORMAT,
                    ("The reference is %dx%d but the distorted stream is %dx%d; "
                     "insert videoscale ! video/x-raw,width=%d,height=%d before "
                     "dist_sink.",
                     r.desc.width, r.desc.height, d.desc.width, d.desc.height,
                     r.desc.width, r.desc.height),
                    (nullptr));
  self->priv->caps.negotiation_failed = true;
}

namespace {

// align=off: one pairing decision on the heads of the two pads.
GstFlowReturn AggregateByTime(GstSsimulacra2Cmp* self, const ElementSettings& s,
                              bool timeout) {
  ElementState* p = self->priv;
  AlignState& a = p->align;
  GstAggregatorPad* ref_pad = self->pads[kRef];
  GstAggregatorPad* dist_pad = self->pads[kDist];

  GstBuffer* ref = gst_aggregator_pad_peek_buffer(ref_pad);
  GstBuffer* dist = gst_aggregator_pad_peek_buffer(dist_pad);
  // Gaps carry no frame: a reference gap goes out as a GAP event, counted
  // in ref-gaps; a distorted gap is dropped, so the reference frames it
  // covers count as unpaired.
  const bool ref_gap = ref != nullptr && IsGap(ref);
  const bool dist_gap = !ref_gap && dist != nullptr && IsGap(dist);
  const PadHead ref_head = HeadOf(ref_pad, ref, 0);
  const PadHead dist_head = HeadOf(dist_pad, dist, s.dist_offset);
  if (!ref_gap) NoteRefFrame(&p->pairing, ref_head, ref);
  gst_clear_buffer(&ref);
  gst_clear_buffer(&dist);
  if (ref_gap) {
    QueueGap(p, gst_aggregator_pad_pop_buffer(ref_pad), RunningTime(ref_head));
    return Drain(self, PairsInFlight(self) - 1);
  }
  if (dist_gap) {
    gst_aggregator_pad_drop_buffer(dist_pad);
    p->monitor.coverage.NoteDistGap();
    return GST_FLOW_OK;
  }
  // The start frames are left out on purpose, counted in nothing.
  if (ref_head.has_buffer && a.arrived[kRef] < s.ref_start_frame) {
    ++a.arrived[kRef];
    QueueExcluded(&p->queue, gst_aggregator_pad_pop_buffer(ref_pad), RunningTime(ref_head));
    return Drain(self, PairsInFlight(self) - 1);
  }
  if (dist_head.has_buffer && a.arrived[kDist] < s.dist_start_frame) {
    ++a.arrived[kDist];
    gst_aggregator_pad_drop_buffer(dist_pad);
    return GST_FLOW_OK;
  }

  // The timeout may have been for a pair in flight (GetNextTime): the
  // reference at the pad is late only once its own deadline has passed.
  const bool ref_timeout =
      timeout && (!GST_CLOCK_TIME_IS_VALID(RunningTime(ref_head)) ||
                  DeadlinePassed(self, RunningTime(ref_head)));
  const bool live = IsLive(self);
  const int64_t tolerance = CurrentPairingTolerance(p, s, live);
  if (tolerance != p->pairing.pairing_tolerance) {
    GST_DEBUG_OBJECT(self, "pairing tolerance %" GST_STIME_FORMAT " (reference frame period %"
                     GST_STIME_FORMAT ")", GST_STIME_ARGS(tolerance),
                     GST_STIME_ARGS(RefFramePeriod(p)));
    p->pairing.pairing_tolerance = tolerance;
    // Live, a frame period measured only now (no framerate in the caps)
    // changes the tolerance, and with it the latency.
    if (live) UpdateLatency(self);
  }
  const PairAction action = DecidePairing(
      ref_head, dist_head, p->pairing.pairing_tolerance, ref_timeout,
      s.live_policy == LivePolicy::kPassUnscored);
  if (action != PairAction::kWait) {
    GST_LOG_OBJECT(self, "ref %" GST_STIME_FORMAT " dist %" GST_STIME_FORMAT
                   " (running times), timeout %d: %s",
                   GST_STIME_ARGS(ref_head.timed ? ref_head.running_time : GST_CLOCK_STIME_NONE),
                   GST_STIME_ARGS(dist_head.timed ? dist_head.running_time
                                                  : GST_CLOCK_STIME_NONE),
                   ref_timeout, PairActionName(action));
  }
  if ((action == PairAction::kRefUnpaired || action == PairAction::kDistUnpaired) &&
      ref_head.timed && dist_head.timed) {
    p->monitor.coverage.NoteMiss(SaturatingSub(dist_head.running_time, ref_head.running_time));
  }
  switch (action) {
    case PairAction::kWait:
      // Results that are ready leave; live, so do references whose
      // deadline has passed.
      return Drain(self, PairsInFlight(self) - 1);
    case PairAction::kDone:
      return Finish(self);
    case PairAction::kDistUnpaired: {
      ++a.arrived[kDist];
      gst_aggregator_pad_drop_buffer(dist_pad);
      std::lock_guard<std::mutex> lock(p->output.results_lock);
      ++p->output.results.dist_unpaired;
      return GST_FLOW_OK;
    }
    case PairAction::kRefUnpaired:
    case PairAction::kRefLate:
      ++a.arrived[kRef];
      return PassUnpaired(self, gst_aggregator_pad_pop_buffer(ref_pad), RunningTime(ref_head),
                          action == PairAction::kRefLate);
    case PairAction::kPair: {
      ++a.arrived[kRef];
      PairOrigin origin;
      origin.dist_index = a.arrived[kDist]++ - s.dist_start_frame;
      GstBuffer* r = gst_aggregator_pad_pop_buffer(ref_pad);
      return TakePair(self, r, gst_aggregator_pad_pop_buffer(dist_pad), RunningTime(ref_head),
                      origin);
    }
  }
  return GST_FLOW_OK;
}

}  // namespace

GstFlowReturn Aggregate(GstAggregator* agg, gboolean timeout) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  if (self->priv->caps.negotiation_failed) return GST_FLOW_NOT_NEGOTIATED;
  const ElementSettings s = ReadSettings(self);
  return s.align == AlignChoice::kOff ? AggregateByTime(self, s, timeout)
                                      : AggregateAligned(self, s, timeout);
}

// The next live deadline (the base class adds the latency): the output
// queue's (output_queue.h), else the running time of the oldest reference
// frame held for its alignment verdict, else that of the reference waiting
// at the pad. With the reference at EOS, the end of the last frame sent, so
// that a distorted feed that never comes cannot hold up the end of the
// stream. Nothing to wait for, or the "wait" policy: no timeout.
GstClockTime GetNextTime(GstAggregator* agg) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  if (ReadSettings(self).live_policy == LivePolicy::kWait) return GST_CLOCK_TIME_NONE;
  const GstClockTime queue = QueueNextTime(self);
  if (GST_CLOCK_TIME_IS_VALID(queue)) return queue;
  // align=auto or index: the oldest reference frame waiting for its verdict.
  const std::deque<HeldFrame>& held = self->priv->align.held[kRef];
  if (!held.empty()) return held.front().running_time;
  GstAggregatorPad* pad = self->pads[kRef];
  GstBuffer* ref = gst_aggregator_pad_peek_buffer(pad);
  if (ref == nullptr) {
    if (!gst_aggregator_pad_is_eos(pad)) return GST_CLOCK_TIME_NONE;
    GST_OBJECT_LOCK(self);
    const GstSegment& out = GST_AGGREGATOR_PAD(agg->srcpad)->segment;
    const GstClockTime end = gst_segment_to_running_time(&out, GST_FORMAT_TIME, out.position);
    GST_OBJECT_UNLOCK(self);
    return GST_CLOCK_TIME_IS_VALID(end) ? end : 0;
  }
  const PadHead head = HeadOf(pad, ref, 0);
  gst_buffer_unref(ref);
  if (!head.timed || head.running_time < 0) return GST_CLOCK_TIME_NONE;
  return static_cast<GstClockTime>(head.running_time);
}

}  // namespace s2c
