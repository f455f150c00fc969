// SPDX-License-Identifier: BSD-3-Clause
// The element's streaming path: each aggregate call takes one pairing
// decision (pairing.h) on the heads of ref_sink and dist_sink, submits a
// pair to the backend or lets one frame go unpaired, then sends out, in
// order, every reference buffer whose score is ready. Buffers are popped
// once, so no pair is ever scored twice. The backend may be asynchronous
// (CUDA): pairs in flight keep their frames mapped in `pending` until their
// result is collected.
#include "frame_flow.h"

#include <cerrno>

#include "pairing.h"
#include "score_meta.h"
#ifdef S2C_GST_CUDA
#include <gst/cuda/gstcudamemory.h>

#include "cuda_resources.h"
#endif

namespace s2c {
namespace {

// A GAP event becomes an empty buffer flagged GAP in GstAggregator.
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

GstFlowReturn Push(GstSsimulacra2Cmp* self, GstBuffer* buffer) {
  GstAggregator* agg = Agg(self);
  if (GST_BUFFER_PTS_IS_VALID(buffer)) {
    // The live deadline of the next reference frame is measured from here
    // (gst_aggregator_simple_get_next_time semantics).
    GstClockTime end = GST_BUFFER_PTS(buffer);
    if (GST_BUFFER_DURATION_IS_VALID(buffer)) end += GST_BUFFER_DURATION(buffer);
    GST_OBJECT_LOCK(self);
    GST_AGGREGATOR_PAD(agg->srcpad)->segment.position = end;
    GST_OBJECT_UNLOCK(self);
  }
  return gst_aggregator_finish_buffer(agg, buffer);
}

void UnmapPending(Pending* p) {
  if (!p->submitted) return;
  // Unmapping drops the mapped frames' references; the distorted buffer's
  // was its last one.
  gst_video_frame_unmap(&p->ref_frame);
  gst_video_frame_unmap(&p->dist_frame);
  p->submitted = false;
}

void UpdateAlarm(GstSsimulacra2Cmp* self, const ElementSettings& s,
                 const FrameMessage& f) {
  ElementState* p = self->priv;
  const bool raise = !p->alarm && f.score < s.threshold;
  const bool clear = p->alarm && f.score >= s.threshold + s.threshold_hysteresis;
  if (!raise && !clear) return;
  p->alarm = raise;
  ThresholdMessage m;
  m.cleared = clear;
  m.score = f.score;
  m.threshold = s.threshold;
  m.frame_index = f.frame_index;
  m.timestamp = f.timestamp;
  m.running_time = f.running_time;
  PostStructure(self, m.ToStructure());
}

// A scored pair leaves: meta on the reference buffer, statistics, message,
// results line, then the buffer itself.
GstFlowReturn FinishScored(GstSsimulacra2Cmp* self, Pending* pending,
                           double score) {
  ElementState* p = self->priv;
  const ElementSettings s = ReadSettings(self);
  UnmapPending(pending);
  FrameMessage f = pending->frame;
  f.score = score;
  f.frame_index = p->frame_index++;
  {
    std::lock_guard<std::mutex> lock(p->results_lock);
    p->results.stats.Add(score);
    p->results.last_score = score;
  }
  GstBuffer* out = gst_buffer_make_writable(pending->ref);
  pending->ref = nullptr;
  ScoreMeta meta;
  meta.score = score;
  meta.frame_index = f.frame_index;
  meta.dist_timestamp = f.dist_timestamp;
  AddScoreMeta(out, meta);
  if (s.post_messages) PostStructure(self, f.ToStructure());
  UpdateAlarm(self, s, f);
  if (p->writer.is_open() && !p->writer.Write(f)) {
    const int error = errno;
    if (s.results_write_failure == ResultsFailure::kError) {
      GST_ELEMENT_ERROR(self, RESOURCE, WRITE,
                        ("Could not write frame %" G_GUINT64_FORMAT
                         " to the results file; stopping (results-write-failure=error).",
                         f.frame_index),
                        ("%s", g_strerror(error)));
      gst_buffer_unref(out);
      return GST_FLOW_ERROR;
    }
    {
      std::lock_guard<std::mutex> lock(p->results_lock);
      ++p->results.results_lost;
    }
    if (!p->warned_results) {
      p->warned_results = true;
      GST_ELEMENT_WARNING(self, RESOURCE, WRITE,
                          ("Could not write to the results file (from frame %" G_GUINT64_FORMAT
                           "); scoring goes on, the summary's results-lost counts the lines "
                           "not written, and this warning is not repeated.",
                           f.frame_index),
                          ("%s", g_strerror(error)));
    }
  }
  return Push(self, out);
}

void QueueUnscored(ElementState* p, GstBuffer* ref) {
  Pending pending;
  pending.ref = ref;
  p->pending.push_back(pending);
}

bool ReadableInPlace(GstSsimulacra2Cmp* self, GstBuffer* buffer) {
#ifdef S2C_GST_CUDA
  return IsReadableInPlace(GST_ELEMENT(self), buffer);
#else
  (void)self;
  (void)buffer;
  return false;
#endif
}

bool MapFrame(GstVideoFrame* frame, GstVideoInfo* info, GstBuffer* buffer,
              bool device) {
  int flags = GST_MAP_READ;
#ifdef S2C_GST_CUDA
  if (device) flags |= GST_MAP_CUDA;
#else
  (void)device;
#endif
  return gst_video_frame_map(frame, info, buffer, static_cast<GstMapFlags>(flags));
}

GstFlowReturn SubmitPair(GstSsimulacra2Cmp* self, const ElementSettings& s,
                         GstBuffer* ref, GstBuffer* dist) {
  ElementState* p = self->priv;
  PadFormat& rf = p->format[kRef];
  PadFormat& df = p->format[kDist];
  if (!rf.known || !df.known) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("A buffer arrived before its caps."), (nullptr));
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!SameSize(rf, df)) {
    ReportSizeMismatch(self, rf, df);
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  p->paired_any = true;
  GstFlowReturn flow = GST_FLOW_OK;
  if (rf.desc.width != p->configured_width || rf.desc.height != p->configured_height) {
    flow = Drain(self, 0);
    const Status status =
        flow == GST_FLOW_OK ? p->backend->Configure(rf.desc.width, rf.desc.height)
                            : Status::Ok();
    if (!status.ok()) {
      GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                        ("The %s backend could not be set up for %dx%d frames: %s.",
                         p->backend->name(), rf.desc.width, rf.desc.height,
                         status.message().c_str()),
                        ("%s", status.message().c_str()));
      flow = GST_FLOW_ERROR;
    }
    if (flow == GST_FLOW_OK) {
      p->configured_width = rf.desc.width;
      p->configured_height = rf.desc.height;
    }
  }
  // Room for this pair: at most max-in-flight pairs on the GPU at once.
  if (flow == GST_FLOW_OK) flow = Drain(self, s.max_in_flight - 1);
  if (flow != GST_FLOW_OK) {
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return flow;
  }

  Pending pending;
  pending.ref = ref;
  pending.frame = DescribeRef(self->pads[kRef], ref, dist);
  // Device pointers only when the backend runs on CUDA and both frames live
  // in CUDA memory its context can read; otherwise both are read from host
  // memory (GStreamer downloads CUDA memory on a host map).
  const bool device = p->backend_is_cuda && rf.cuda_memory && df.cuda_memory &&
                      ReadableInPlace(self, ref) && ReadableInPlace(self, dist);
  if (!MapFrame(&pending.ref_frame, &rf.info, ref, device)) {
    GST_ELEMENT_ERROR(self, RESOURCE, READ, ("Could not map a reference frame."), (nullptr));
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return GST_FLOW_ERROR;
  }
  if (!MapFrame(&pending.dist_frame, &df.info, dist, device)) {
    gst_video_frame_unmap(&pending.ref_frame);
    GST_ELEMENT_ERROR(self, RESOURCE, READ, ("Could not map a distorted frame."), (nullptr));
    gst_buffer_unref(ref);
    gst_buffer_unref(dist);
    return GST_FLOW_ERROR;
  }
  // The mapped frame holds its own reference to the buffer.
  gst_buffer_unref(dist);
  pending.submitted = true;
  pending.tag = p->next_tag++;
  const Status status = p->backend->Submit(
      ViewOfVideoFrame(pending.ref_frame, rf.desc),
      ViewOfVideoFrame(pending.dist_frame, df.desc),
      device ? MemoryKind::kDevice : MemoryKind::kHost, pending.tag);
  if (!status.ok()) {
    UnmapPending(&pending);
    gst_buffer_unref(pending.ref);
    GST_ELEMENT_ERROR(self, STREAM, FAILED,
                      ("The %s backend refused a frame pair.", p->backend->name()),
                      ("%s", status.message().c_str()));
    return GST_FLOW_ERROR;
  }
  p->pending.push_back(pending);
  // At most max-in-flight - 1 pairs stay queued until the next call: the
  // latency UpdateLatency reports, and none at all with max-in-flight 1.
  return Drain(self, s.max_in_flight - 1);
}

GstFlowReturn Finish(GstSsimulacra2Cmp* self) {
  GstFlowReturn flow = Drain(self, 0);
  PostStructure(self, MakeSummary(self->priv, "eos").ToStructure());
  return flow == GST_FLOW_OK ? GST_FLOW_EOS : flow;
}

}  // namespace

// Sends out the pending buffers whose turn has come, in order. Waits for
// the backend while more than `keep` pairs are on it, so `keep` 0 drains
// everything.
GstFlowReturn Drain(GstSsimulacra2Cmp* self, int keep) {
  ElementState* p = self->priv;
  while (!p->pending.empty()) {
    Pending& front = p->pending.front();
    GstFlowReturn flow;
    if (front.submitted) {
      const bool wait = p->backend->InFlight() > keep;
      bool ready = false;
      uint64_t tag = 0;
      Result result;
      const Status status = p->backend->CollectOldest(wait, &ready, &tag, &result);
      if (!status.ok()) {
        GST_ELEMENT_ERROR(self, STREAM, FAILED,
                          ("The %s backend failed to score frame %" G_GUINT64_FORMAT
                           "; no score is reported for it.",
                           p->backend->name(), p->frame_index),
                          ("%s", status.message().c_str()));
        // That pair is gone from the backend; its frames can be released.
        UnmapPending(&front);
        gst_clear_buffer(&front.ref);
        p->pending.pop_front();
        return GST_FLOW_ERROR;
      }
      if (!ready) break;
      g_assert(tag == front.tag);
      flow = FinishScored(self, &front, result.score);
    } else {
      flow = Push(self, front.ref);
      front.ref = nullptr;
    }
    p->pending.pop_front();
    if (flow != GST_FLOW_OK) return flow;
  }
  return GST_FLOW_OK;
}

// Waits for every pair in flight and throws the results and buffers away
// (flush, stop): nothing of the old segment goes out.
void DropPending(ElementState* p) {
  for (Pending& pending : p->pending) {
    if (pending.submitted) {
      bool ready = false;
      uint64_t tag = 0;
      Result result;
      // The frames stay mapped until the backend is done reading them.
      p->backend->CollectOldest(true, &ready, &tag, &result);
      UnmapPending(&pending);
    }
    gst_clear_buffer(&pending.ref);
  }
  p->pending.clear();
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
  self->priv->negotiation_failed = true;
}

GstFlowReturn Aggregate(GstAggregator* agg, gboolean timeout) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  ElementState* p = self->priv;
  if (p->negotiation_failed) return GST_FLOW_NOT_NEGOTIATED;
  const ElementSettings s = ReadSettings(self);
  GstAggregatorPad* ref_pad = self->pads[kRef];
  GstAggregatorPad* dist_pad = self->pads[kDist];

  GstBuffer* ref = gst_aggregator_pad_peek_buffer(ref_pad);
  GstBuffer* dist = gst_aggregator_pad_peek_buffer(dist_pad);
  // Gaps carry no frame: a reference gap goes out as it is, uncounted; a
  // distorted gap is dropped, so the reference frames it covers count as
  // unpaired.
  const bool ref_gap = ref != nullptr && IsGap(ref);
  const bool dist_gap = !ref_gap && dist != nullptr && IsGap(dist);
  const PadHead ref_head = HeadOf(ref_pad, ref, 0);
  const PadHead dist_head = HeadOf(dist_pad, dist, s.dist_offset);
  gst_clear_buffer(&ref);
  gst_clear_buffer(&dist);
  if (ref_gap) {
    QueueUnscored(p, gst_aggregator_pad_pop_buffer(ref_pad));
    return Drain(self, s.max_in_flight - 1);
  }
  if (dist_gap) {
    gst_aggregator_pad_drop_buffer(dist_pad);
    return GST_FLOW_OK;
  }

  const PairAction action = DecidePairing(
      ref_head, dist_head, s.pairing_tolerance, timeout,
      s.live_policy == LivePolicy::kPassUnscored);
  switch (action) {
    case PairAction::kWait:
      return GST_FLOW_OK;
    case PairAction::kDone:
      return Finish(self);
    case PairAction::kDistUnpaired: {
      gst_aggregator_pad_drop_buffer(dist_pad);
      std::lock_guard<std::mutex> lock(p->results_lock);
      ++p->results.dist_unpaired;
      return GST_FLOW_OK;
    }
    case PairAction::kRefUnpaired:
    case PairAction::kRefLate: {
      if (dist_head.eos && !p->warned_dist_ended) {
        p->warned_dist_ended = true;
        GST_ELEMENT_WARNING(self, STREAM, FAILED,
                            ("The distorted stream ended before the reference; "
                             "the rest of the reference passes through unscored."),
                            (nullptr));
      }
      {
        std::lock_guard<std::mutex> lock(p->results_lock);
        if (action == PairAction::kRefLate) {
          ++p->results.ref_late;
        } else {
          ++p->results.ref_unpaired;
        }
      }
      QueueUnscored(p, gst_aggregator_pad_pop_buffer(ref_pad));
      return Drain(self, s.max_in_flight - 1);
    }
    case PairAction::kPair: {
      GstBuffer* r = gst_aggregator_pad_pop_buffer(ref_pad);
      GstBuffer* d = gst_aggregator_pad_pop_buffer(dist_pad);
      gst_aggregator_selected_samples(agg, GST_BUFFER_PTS(r), GST_BUFFER_DTS(r),
                                      GST_BUFFER_DURATION(r), nullptr);
      return SubmitPair(self, s, r, d);
    }
  }
  return GST_FLOW_OK;
}

// The live deadline: the running time of the waiting reference frame (the
// base class adds the latency). Without a reference frame there is nothing
// to pass on, so no timeout; with the "wait" policy neither.
GstClockTime GetNextTime(GstAggregator* agg) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  if (ReadSettings(self).live_policy == LivePolicy::kWait) return GST_CLOCK_TIME_NONE;
  GstBuffer* ref = gst_aggregator_pad_peek_buffer(self->pads[kRef]);
  if (ref == nullptr) return GST_CLOCK_TIME_NONE;
  const PadHead head = HeadOf(self->pads[kRef], ref, 0);
  gst_buffer_unref(ref);
  if (!head.timed || head.running_time < 0) return GST_CLOCK_TIME_NONE;
  return static_cast<GstClockTime>(head.running_time);
}

}  // namespace s2c
