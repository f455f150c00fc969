// SPDX-License-Identifier: BSD-3-Clause
// The ssimulacra2cmp element, a GstAggregator with two always sink pads.
// Each aggregate call takes one pairing decision (pairing.h) on the heads of
// ref_sink and dist_sink, submits a pair to the backend or lets one frame go
// unpaired, then sends out, in order, every reference buffer whose score is
// ready. Buffers are popped once, so no pair is ever scored twice. The
// backend may be asynchronous (CUDA): pairs in flight keep their frames
// mapped in `pending` until their result is collected.
#include "gstssimulacra2cmp.h"

#include <gst/video/video.h>

#include <cerrno>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <string>

#include "backend_factory.h"
#include "element_settings.h"
#include "pairing.h"
#include "results_writer.h"
#include "score_message.h"
#include "score_meta.h"
#include "sink_caps.h"
#include "stats.h"
#include "video_desc.h"
#ifdef S2C_GST_CUDA
#include <gst/cuda/gstcudamemory.h>

#include "cuda_resources.h"
#endif

GST_DEBUG_CATEGORY_STATIC(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

namespace {

// One reference buffer on its way out, in output order. A submitted one
// holds both frames mapped until the backend returns its score.
struct Pending {
  GstBuffer* ref = nullptr;
  bool submitted = false;
  GstVideoFrame ref_frame = {};
  GstVideoFrame dist_frame = {};
  uint64_t tag = 0;
  s2c::FrameMessage frame;
};

enum PadIndex { kRef = 0, kDist = 1 };

struct PadFormat {
  bool known = false;
  GstVideoInfo info = {};
  s2c::FrameDesc desc;
  bool cuda_memory = false;
};

// Per-segment results, read by the application through properties.
struct Results {
  s2c::ScoreStats stats;
  uint64_t ref_unpaired = 0;
  uint64_t dist_unpaired = 0;
  uint64_t ref_late = 0;
  double last_score = std::numeric_limits<double>::quiet_NaN();
};

struct Private {
  s2c::ElementSettings settings;  // object lock
  std::string results_location;  // object lock

  // Streaming state: the source pad task, start/stop and flush touch it,
  // never at the same time (the base class stops the task around flush).
  std::unique_ptr<s2c::Backend> backend;
  bool backend_is_cuda = false;
  int configured_width = 0;
  int configured_height = 0;
  PadFormat format[2];
  GstCaps* ref_caps = nullptr;
  bool negotiation_failed = false;
  bool paired_any = false;  // since start
  std::deque<Pending> pending;
  uint64_t next_tag = 0;
  uint64_t frame_index = 0;
  bool alarm = false;
  bool warned_dist_ended = false;
  bool warned_rates = false;
  s2c::ResultsWriter writer;

  std::mutex results_lock;  // guards `results` against property reads
  Results results;
};

}  // namespace

struct _GstSsimulacra2Cmp {
  GstAggregator parent;
  GstAggregatorPad* pads[2];
  Private* priv;
};

G_DEFINE_TYPE(GstSsimulacra2Cmp, gst_ssimulacra2_cmp, GST_TYPE_AGGREGATOR);
GST_ELEMENT_REGISTER_DEFINE(ssimulacra2cmp, "ssimulacra2cmp", GST_RANK_NONE,
                            GST_TYPE_SSIMULACRA2_CMP);

namespace {

const char* const kPadNames[2] = {"ref_sink", "dist_sink"};

s2c::ElementSettings ReadSettings(GstSsimulacra2Cmp* self) {
  GST_OBJECT_LOCK(self);
  s2c::ElementSettings s = self->priv->settings;
  GST_OBJECT_UNLOCK(self);
  return s;
}

GstAggregator* Agg(GstSsimulacra2Cmp* self) { return GST_AGGREGATOR(self); }

// A GAP event becomes an empty buffer flagged GAP in GstAggregator.
bool IsGap(GstBuffer* buffer) {
  return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_GAP) &&
         gst_buffer_get_size(buffer) == 0;
}

s2c::PadHead HeadOf(GstAggregatorPad* pad, GstBuffer* buffer, int64_t offset) {
  s2c::PadHead head;
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
  head.running_time = (sign > 0 ? static_cast<int64_t>(rt) : -static_cast<int64_t>(rt)) + offset;
  return head;
}

// Timestamps of the reference buffer as the frame message reports them.
s2c::FrameMessage DescribeRef(GstAggregatorPad* pad, GstBuffer* ref,
                              GstBuffer* dist) {
  s2c::FrameMessage f;
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

void PostStructure(GstSsimulacra2Cmp* self, GstStructure* s) {
  gst_element_post_message(GST_ELEMENT(self),
                           gst_message_new_element(GST_OBJECT(self), s));
}

s2c::SummaryMessage MakeSummary(Private* p, const char* reason) {
  std::lock_guard<std::mutex> lock(p->results_lock);
  s2c::SummaryMessage m;
  m.reason = reason;
  m.scores = p->results.stats.Summarize();
  m.ref_unpaired = p->results.ref_unpaired;
  m.dist_unpaired = p->results.dist_unpaired;
  m.ref_late = p->results.ref_late;
  return m;
}

void ResetSegment(Private* p) {
  {
    std::lock_guard<std::mutex> lock(p->results_lock);
    p->results = Results();
  }
  p->frame_index = 0;
  p->alarm = false;
  p->warned_dist_ended = false;
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

void UpdateAlarm(GstSsimulacra2Cmp* self, const s2c::ElementSettings& s,
                 const s2c::FrameMessage& f) {
  Private* p = self->priv;
  const bool raise = !p->alarm && f.score < s.threshold;
  const bool clear = p->alarm && f.score >= s.threshold + s.threshold_hysteresis;
  if (!raise && !clear) return;
  p->alarm = raise;
  s2c::ThresholdMessage m;
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
  Private* p = self->priv;
  const s2c::ElementSettings s = ReadSettings(self);
  UnmapPending(pending);
  s2c::FrameMessage f = pending->frame;
  f.score = score;
  f.frame_index = p->frame_index++;
  {
    std::lock_guard<std::mutex> lock(p->results_lock);
    p->results.stats.Add(score);
    p->results.last_score = score;
  }
  GstBuffer* out = gst_buffer_make_writable(pending->ref);
  pending->ref = nullptr;
  s2c::ScoreMeta meta;
  meta.score = score;
  meta.frame_index = f.frame_index;
  meta.dist_timestamp = f.dist_timestamp;
  s2c::AddScoreMeta(out, meta);
  if (s.post_messages) PostStructure(self, f.ToStructure());
  UpdateAlarm(self, s, f);
  if (p->writer.is_open() && !p->writer.Write(f)) {
    GST_ELEMENT_WARNING(self, RESOURCE, WRITE,
                        ("Could not write to the results file."),
                        ("%s", g_strerror(errno)));
  }
  return Push(self, out);
}

// Sends out the pending buffers whose turn has come, in order. Waits for
// the backend while more than `keep` pairs are on it, so `keep` 0 drains
// everything.
GstFlowReturn Drain(GstSsimulacra2Cmp* self, int keep) {
  Private* p = self->priv;
  while (!p->pending.empty()) {
    Pending& front = p->pending.front();
    GstFlowReturn flow;
    if (front.submitted) {
      const bool wait = p->backend->InFlight() > keep;
      bool ready = false;
      uint64_t tag = 0;
      s2c::Result result;
      const s2c::Status status = p->backend->CollectOldest(wait, &ready, &tag, &result);
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
void DropPending(Private* p) {
  for (Pending& pending : p->pending) {
    if (pending.submitted) {
      bool ready = false;
      uint64_t tag = 0;
      s2c::Result result;
      // The frames stay mapped until the backend is done reading them.
      p->backend->CollectOldest(true, &ready, &tag, &result);
      UnmapPending(&pending);
    }
    gst_clear_buffer(&pending.ref);
  }
  p->pending.clear();
}

void QueueUnscored(Private* p, GstBuffer* ref) {
  Pending pending;
  pending.ref = ref;
  p->pending.push_back(pending);
}

bool ReadableInPlace(GstSsimulacra2Cmp* self, GstBuffer* buffer) {
#ifdef S2C_GST_CUDA
  return s2c::IsReadableInPlace(GST_ELEMENT(self), buffer);
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

GstFlowReturn SubmitPair(GstSsimulacra2Cmp* self, const s2c::ElementSettings& s,
                         GstBuffer* ref, GstBuffer* dist) {
  Private* p = self->priv;
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
    const s2c::Status status =
        flow == GST_FLOW_OK ? p->backend->Configure(rf.desc.width, rf.desc.height)
                            : s2c::Status::Ok();
    if (!status.ok()) {
      GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                        ("The %s backend could not be set up for %dx%d frames.",
                         p->backend->name(), rf.desc.width, rf.desc.height),
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
  const s2c::Status status = p->backend->Submit(
      s2c::ViewOfVideoFrame(pending.ref_frame, rf.desc),
      s2c::ViewOfVideoFrame(pending.dist_frame, df.desc),
      device ? s2c::MemoryKind::kDevice : s2c::MemoryKind::kHost, pending.tag);
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

GstFlowReturn Aggregate(GstAggregator* agg, gboolean timeout) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  Private* p = self->priv;
  if (p->negotiation_failed) return GST_FLOW_NOT_NEGOTIATED;
  const s2c::ElementSettings s = ReadSettings(self);
  GstAggregatorPad* ref_pad = self->pads[kRef];
  GstAggregatorPad* dist_pad = self->pads[kDist];

  GstBuffer* ref = gst_aggregator_pad_peek_buffer(ref_pad);
  GstBuffer* dist = gst_aggregator_pad_peek_buffer(dist_pad);
  // Gaps carry no frame: a reference gap goes out as it is, uncounted; a
  // distorted gap is dropped, so the reference frames it covers count as
  // unpaired.
  const bool ref_gap = ref != nullptr && IsGap(ref);
  const bool dist_gap = !ref_gap && dist != nullptr && IsGap(dist);
  const s2c::PadHead ref_head = HeadOf(ref_pad, ref, 0);
  const s2c::PadHead dist_head = HeadOf(dist_pad, dist, s.dist_offset);
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

  const s2c::PairAction action = s2c::DecidePairing(
      ref_head, dist_head, s.pairing_tolerance, timeout,
      s.live_policy == s2c::LivePolicy::kPassUnscored);
  switch (action) {
    case s2c::PairAction::kWait:
      return GST_FLOW_OK;
    case s2c::PairAction::kDone:
      return Finish(self);
    case s2c::PairAction::kDistUnpaired: {
      gst_aggregator_pad_drop_buffer(dist_pad);
      std::lock_guard<std::mutex> lock(p->results_lock);
      ++p->results.dist_unpaired;
      return GST_FLOW_OK;
    }
    case s2c::PairAction::kRefUnpaired:
    case s2c::PairAction::kRefLate: {
      if (dist_head.eos && !p->warned_dist_ended) {
        p->warned_dist_ended = true;
        GST_ELEMENT_WARNING(self, STREAM, FAILED,
                            ("The distorted stream ended before the reference; "
                             "the rest of the reference passes through unscored."),
                            (nullptr));
      }
      {
        std::lock_guard<std::mutex> lock(p->results_lock);
        if (action == s2c::PairAction::kRefLate) {
          ++p->results.ref_late;
        } else {
          ++p->results.ref_unpaired;
        }
      }
      QueueUnscored(p, gst_aggregator_pad_pop_buffer(ref_pad));
      return Drain(self, s.max_in_flight - 1);
    }
    case s2c::PairAction::kPair: {
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
  if (ReadSettings(self).live_policy == s2c::LivePolicy::kWait) return GST_CLOCK_TIME_NONE;
  GstBuffer* ref = gst_aggregator_pad_peek_buffer(self->pads[kRef]);
  if (ref == nullptr) return GST_CLOCK_TIME_NONE;
  const s2c::PadHead head = HeadOf(self->pads[kRef], ref, 0);
  gst_buffer_unref(ref);
  if (!head.timed || head.running_time < 0) return GST_CLOCK_TIME_NONE;
  return static_cast<GstClockTime>(head.running_time);
}

// Latency: the frames queued on the GPU, plus how long a reference frame may
// wait for its partner: a negative dist-offset (the distorted feed runs late)
// and the pairing tolerance. Without the wait, a live pipeline's deadline
// would pass every reference frame on before its partner arrives.
void UpdateLatency(GstSsimulacra2Cmp* self) {
  Private* p = self->priv;
  const s2c::ElementSettings settings = ReadSettings(self);
  const GstVideoInfo& info = p->format[kRef].info;
  GstClockTime latency = 0;
  if (p->backend_is_cuda && p->format[kRef].known && info.fps_n > 0) {
    const int frames = settings.max_in_flight - 1;
    latency = gst_util_uint64_scale_int(static_cast<guint64>(frames) * GST_SECOND,
                                        info.fps_d, info.fps_n);
  }
  if (settings.dist_offset < 0) latency += static_cast<GstClockTime>(-settings.dist_offset);
  latency += settings.pairing_tolerance;
  gst_aggregator_set_latency(Agg(self), latency, latency);
}

void WarnIfRatesDiffer(GstSsimulacra2Cmp* self) {
  Private* p = self->priv;
  const GstVideoInfo& r = p->format[kRef].info;
  const GstVideoInfo& d = p->format[kDist].info;
  if (p->warned_rates || r.fps_n == 0 || d.fps_n == 0 ||
      gst_util_fraction_compare(r.fps_n, r.fps_d, d.fps_n, d.fps_d) == 0) {
    return;
  }
  p->warned_rates = true;
  GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                      ("The reference runs at %d/%d fps and the distorted stream at "
                       "%d/%d fps: only frames whose running times match within "
                       "pairing-tolerance are scored, the others are counted as "
                       "unpaired. Insert videorate on the distorted branch to "
                       "compare frame by frame.",
                       r.fps_n, r.fps_d, d.fps_n, d.fps_d),
                      (nullptr));
}

gboolean HandleCaps(GstSsimulacra2Cmp* self, PadIndex index, GstCaps* caps) {
  Private* p = self->priv;
  PadFormat f;
  if (!gst_video_info_from_caps(&f.info, caps)) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("%s: caps are not raw video; insert a decoder and "
                       "videoconvert before this pad.", kPadNames[index]),
                      ("caps: %" GST_PTR_FORMAT, caps));
    p->negotiation_failed = true;
    return FALSE;
  }
  const s2c::Status status = s2c::DescribeVideoInfo(f.info, kPadNames[index], &f.desc);
  if (!status.ok()) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s.", status.message().c_str()),
                      ("caps: %" GST_PTR_FORMAT, caps));
    p->negotiation_failed = true;
    return FALSE;
  }
  f.cuda_memory = s2c::HasCudaMemoryFeature(caps);
  f.known = true;
  const PadFormat& other = p->format[1 - index];
  // Before the first pair a mismatch is a negotiation error right away; in
  // mid-stream both pads may be switching size, so SubmitPair checks the
  // pair it is given instead.
  if (!p->paired_any && other.known && !SameSize(other, f)) {
    ReportSizeMismatch(self, index == kRef ? f : other, index == kRef ? other : f);
    return FALSE;
  }
  if (index == kRef) {
    // Buffers of the old format leave before the new caps do.
    if (Drain(self, 0) != GST_FLOW_OK) return FALSE;
    gst_caps_replace(&p->ref_caps, caps);
    gst_pad_mark_reconfigure(Agg(self)->srcpad);
  }
  p->format[index] = f;
  if (other.known) WarnIfRatesDiffer(self);
  if (index == kRef) UpdateLatency(self);
  return TRUE;
}

gboolean SinkEvent(GstAggregator* agg, GstAggregatorPad* pad, GstEvent* event) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  const PadIndex index = pad == self->pads[kRef] ? kRef : kDist;
  switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_CAPS: {
      GstCaps* caps = nullptr;
      gst_event_parse_caps(event, &caps);
      const gboolean ok = HandleCaps(self, index, caps);
      // Only the reference caps go downstream, through update_src_caps.
      gst_event_unref(event);
      return ok;
    }
    case GST_EVENT_SEGMENT:
      if (index == kRef) {
        // The output carries the reference timeline; what was scored in the
        // old segment leaves before the new segment event.
        Drain(self, 0);
        const GstSegment* segment = nullptr;
        gst_event_parse_segment(event, &segment);
        gst_aggregator_update_segment(agg, segment);
      }
      break;
    default:
      break;
  }
  return GST_AGGREGATOR_CLASS(gst_ssimulacra2_cmp_parent_class)->sink_event(agg, pad, event);
}

gboolean SinkQuery(GstAggregator* agg, GstAggregatorPad* pad, GstQuery* query) {
  switch (GST_QUERY_TYPE(query)) {
    case GST_QUERY_ACCEPT_CAPS: {
      // Any raw video is accepted here so that its CAPS event reaches us and
      // a refusal can say what to insert; the CAPS query still offers only
      // what we score, so converters upstream pick a supported format.
      GstCaps* caps = nullptr;
      gst_query_parse_accept_caps(query, &caps);
      gst_query_set_accept_caps_result(query, s2c::IsAcceptableRawVideo(caps));
      return TRUE;
    }
#ifdef S2C_GST_CUDA
    case GST_QUERY_CONTEXT:
      if (s2c::HandleCudaContextQuery(GST_ELEMENT(agg), query)) return TRUE;
      break;
#endif
    default:
      break;
  }
  return GST_AGGREGATOR_CLASS(gst_ssimulacra2_cmp_parent_class)->sink_query(agg, pad, query);
}

#ifdef S2C_GST_CUDA
gboolean SrcQuery(GstAggregator* agg, GstQuery* query) {
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      s2c::HandleCudaContextQuery(GST_ELEMENT(agg), query)) {
    return TRUE;
  }
  return GST_AGGREGATOR_CLASS(gst_ssimulacra2_cmp_parent_class)->src_query(agg, query);
}

void SetContext(GstElement* element, GstContext* context) {
  const int device_id = ReadSettings(GST_SSIMULACRA2_CMP(element)).cuda_device_id;
  s2c::SetCudaContext(element, context, device_id);
  GST_ELEMENT_CLASS(gst_ssimulacra2_cmp_parent_class)->set_context(element, context);
}
#endif

// The output is the reference stream: its caps, whatever downstream prefers.
GstFlowReturn UpdateSrcCaps(GstAggregator* agg, GstCaps* downstream, GstCaps** ret) {
  Private* p = GST_SSIMULACRA2_CMP(agg)->priv;
  if (p->ref_caps == nullptr) return GST_AGGREGATOR_FLOW_NEED_DATA;
  if (!gst_caps_can_intersect(p->ref_caps, downstream)) {
    GST_ELEMENT_ERROR(agg, CORE, NEGOTIATION,
                      ("Downstream does not accept the reference caps the element "
                       "passes through; insert videoconvert after it."),
                      ("reference caps: %" GST_PTR_FORMAT, p->ref_caps));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  *ret = gst_caps_ref(p->ref_caps);
  return GST_FLOW_OK;
}

gboolean Start(GstAggregator* agg) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  Private* p = self->priv;
  const s2c::ElementSettings s = ReadSettings(self);
  GST_OBJECT_LOCK(self);
  const std::string location = p->results_location;
  GST_OBJECT_UNLOCK(self);

  s2c::BackendSelection selection;
  const s2c::Status status = s2c::SelectBackend(
      GST_ELEMENT(self), s.backend, s.cuda_device_id, s.max_in_flight, &selection);
  if (!status.ok()) {
    GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND,
                      ("backend=cuda but no usable CUDA device: %s. Use backend=cpu, "
                       "or backend=auto to fall back to the CPU.",
                       status.message().c_str()),
                      (nullptr));
    return FALSE;
  }
  if (!selection.fallback_reason.empty()) {
    // One warning where CUDA could have been used; a CPU-only build says so
    // in the debug log only.
#ifdef S2C_GST_CUDA
    GST_ELEMENT_WARNING(self, RESOURCE, NOT_FOUND,
                        ("No usable CUDA device; scoring on the CPU."),
                        ("%s", selection.fallback_reason.c_str()));
#else
    GST_INFO_OBJECT(self, "scoring on the CPU: %s", selection.fallback_reason.c_str());
#endif
  }
  if (!location.empty() && !p->writer.Open(location, s.results_format)) {
    GST_ELEMENT_ERROR(self, RESOURCE, OPEN_WRITE,
                      ("Could not open the results file \"%s\" for writing.",
                       location.c_str()),
                      ("%s", g_strerror(errno)));
    return FALSE;
  }
  GST_INFO_OBJECT(self, "scoring on the %s backend", selection.backend->name());
  p->backend = std::move(selection.backend);
  p->backend_is_cuda = selection.is_cuda;
  p->configured_width = p->configured_height = 0;
  p->negotiation_failed = false;
  p->paired_any = false;
  p->warned_rates = false;
  p->format[kRef] = PadFormat();
  p->format[kDist] = PadFormat();
  ResetSegment(p);
  return TRUE;
}

gboolean Stop(GstAggregator* agg) {
  Private* p = GST_SSIMULACRA2_CMP(agg)->priv;
  if (p->backend) DropPending(p);
  p->backend.reset();
  p->writer.Close();
  gst_clear_caps(&p->ref_caps);
#ifdef S2C_GST_CUDA
  s2c::ReleaseCudaContext(GST_ELEMENT(agg));
#endif
  return TRUE;
}

// Flush-stop on both pads (a seek): results in flight are dropped, the
// segment's summary is posted and the statistics start again from zero.
GstFlowReturn Flush(GstAggregator* agg) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  Private* p = self->priv;
  if (p->backend) DropPending(p);
  PostStructure(self, MakeSummary(p, "flush").ToStructure());
  ResetSegment(p);
  return GST_FLOW_OK;
}

void SetProperty(GObject* object, guint id, const GValue* value, GParamSpec* pspec) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(object);
  Private* p = self->priv;
  GST_OBJECT_LOCK(self);
  const bool known = s2c::SetSettingsProperty(&p->settings, &p->results_location, id, value);
  GST_OBJECT_UNLOCK(self);
  if (!known) G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

void GetProperty(GObject* object, guint id, GValue* value, GParamSpec* pspec) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(object);
  Private* p = self->priv;
  switch (id) {
    case s2c::PROP_LAST_SCORE: {
      std::lock_guard<std::mutex> lock(p->results_lock);
      g_value_set_double(value, p->results.last_score);
      return;
    }
    case s2c::PROP_STATS:
      g_value_take_boxed(value, MakeSummary(p, "running").ToStructure());
      return;
    default:
      break;
  }
  GST_OBJECT_LOCK(self);
  const bool known = s2c::GetSettingsProperty(p->settings, p->results_location, id, value);
  GST_OBJECT_UNLOCK(self);
  if (!known) G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

void Finalize(GObject* object) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(object);
  delete self->priv;
  G_OBJECT_CLASS(gst_ssimulacra2_cmp_parent_class)->finalize(object);
}

}  // namespace

static void gst_ssimulacra2_cmp_class_init(GstSsimulacra2CmpClass* klass) {
  GObjectClass* oc = G_OBJECT_CLASS(klass);
  GstElementClass* ec = GST_ELEMENT_CLASS(klass);
  GstAggregatorClass* ac = GST_AGGREGATOR_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_ssimulacra2_cmp_debug, "ssimulacra2cmp", 0,
                          "SSIMULACRA 2.1 comparison");
  s2c::RegisterScoreMeta();

  oc->set_property = SetProperty;
  oc->get_property = GetProperty;
  oc->finalize = Finalize;
  s2c::InstallElementProperties(oc);

  GstCaps* caps = s2c::SupportedCaps();
  gst_element_class_add_pad_template(
      ec, gst_pad_template_new_with_gtype("ref_sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps,
                                          GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_add_pad_template(
      ec, gst_pad_template_new_with_gtype("dist_sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps,
                                          GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_add_pad_template(
      ec, gst_pad_template_new_with_gtype("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps,
                                          GST_TYPE_AGGREGATOR_PAD));
  gst_caps_unref(caps);
  gst_element_class_set_static_metadata(
      ec, "SSIMULACRA 2.1 comparison", "Filter/Analyzer/Video",
      "Scores each distorted frame against the reference frame of the same running "
      "time with SSIMULACRA 2.1, bit-exact on CPU and CUDA, and passes the "
      "reference through with the score attached",
      "ssimulacra2cmp authors");

  ac->aggregate = Aggregate;
  ac->sink_event = SinkEvent;
  ac->sink_query = SinkQuery;
  ac->update_src_caps = UpdateSrcCaps;
  ac->start = Start;
  ac->stop = Stop;
  ac->flush = Flush;
  ac->get_next_time = GetNextTime;
#ifdef S2C_GST_CUDA
  ac->src_query = SrcQuery;
  ec->set_context = SetContext;
#endif
}

static void gst_ssimulacra2_cmp_init(GstSsimulacra2Cmp* self) {
  self->priv = new Private();
  GstElementClass* ec = GST_ELEMENT_GET_CLASS(self);
  for (int i = 0; i < 2; ++i) {
    GstPadTemplate* templ = gst_element_class_get_pad_template(ec, kPadNames[i]);
    GstPad* pad = GST_PAD(g_object_new(GST_TYPE_AGGREGATOR_PAD, "name", kPadNames[i],
                                       "direction", GST_PAD_SINK, "template", templ,
                                       nullptr));
    self->pads[i] = GST_AGGREGATOR_PAD(pad);
    gst_element_add_pad(GST_ELEMENT(self), pad);
  }
}
