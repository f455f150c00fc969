// SPDX-License-Identifier: BSD-3-Clause
#include "align_flow.h"

#include <cinttypes>
#include <utility>

#include "element_state.h"
#include "frame_flow.h"
#include "output_queue.h"

GST_DEBUG_CATEGORY_EXTERN(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

namespace s2c {
namespace {

// What the aligner sees of a frame: the luma of YUV and gray formats
// (component 0), the green of RGB formats, as GstVideoFormatInfo lays them
// out (P010's samples in the high bits of their words). CUDA memory is
// read through a map to system memory. A plane smaller than a thumbnail
// gives a flat one, which votes for no offset. False: the buffer could not
// be mapped.
bool ThumbnailOf(GstBuffer* buffer, GstVideoInfo* info, Thumbnail* out) {
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, info, buffer, GST_MAP_READ)) return false;
  const GstVideoFormatInfo* finfo = frame.info.finfo;
  const int c = GST_VIDEO_FORMAT_INFO_IS_RGB(finfo) ? GST_VIDEO_COMP_G : 0;
  const int width = GST_VIDEO_FRAME_COMP_WIDTH(&frame, c);
  const int height = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, c);
  *out = Thumbnail();
  if (width >= kThumbCols && height >= kThumbRows) {
    const int depth = GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c);
    *out = MakeThumbnail(static_cast<const uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&frame, c)),
                         width, height, GST_VIDEO_FRAME_COMP_STRIDE(&frame, c),
                         GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, c), depth > 8 ? 2 : 1, depth,
                         GST_VIDEO_FORMAT_INFO_SHIFT(finfo, c));
  }
  gst_video_frame_unmap(&frame);
  return true;
}

// The held distorted frame of that index, if it is still held (they are
// held in index order, without holes).
HeldFrame* HeldDist(AlignState* a, uint64_t index) {
  std::deque<HeldFrame>& held = a->held[kDist];
  if (held.empty() || index < held.front().index) return nullptr;
  const uint64_t at = index - held.front().index;
  return at < held.size() ? &held[at] : nullptr;
}

// The held reference frame of that index, if it is still held.
const HeldFrame* HeldRef(const AlignState& a, uint64_t index) {
  for (const HeldFrame& frame : a.held[kRef]) {
    if (!frame.gap && !frame.excluded && frame.index == index) return &frame;
  }
  return nullptr;
}

// The alignment message's offset-ns: the running-time difference of the
// first pair at `offset` from reference frame `ref_index` while both frames
// are held and timed, else `offset` reference frame periods.
int64_t OffsetNs(ElementState* p, uint64_t ref_index, int64_t offset) {
  const HeldFrame* ref = HeldRef(p->align, ref_index);
  const int64_t dist_index = static_cast<int64_t>(ref_index) + offset;
  const HeldFrame* dist =
      dist_index >= 0 ? HeldDist(&p->align, static_cast<uint64_t>(dist_index)) : nullptr;
  if (ref != nullptr && dist != nullptr && GST_CLOCK_TIME_IS_VALID(ref->running_time) &&
      GST_CLOCK_TIME_IS_VALID(dist->running_time)) {
    return static_cast<int64_t>(dist->running_time) - static_cast<int64_t>(ref->running_time);
  }
  return offset * RefFramePeriod(p);
}

// Posts the aligner's events as alignment messages, oldest first; a
// decided offset after the segment's first counts in realignments.
void PostEvents(GstSsimulacra2Cmp* self) {
  ElementState* p = self->priv;
  AlignState& a = p->align;
  AlignEvent e;
  while (a.aligner->TakeEvent(&e)) {
    if (e.decided) {
      if (a.decided) {
        std::lock_guard<std::mutex> lock(p->output.results_lock);
        ++p->output.results.realignments;
      }
      a.decided = true;
    }
    AlignmentMessage m;
    m.offset_frames = e.offset_frames;
    m.offset_ns = OffsetNs(p, e.ref_index, e.offset_frames);
    m.confidence = e.confidence;
    m.reason = AlignReasonName(e.reason);
    m.decided = e.decided;
    m.frame_index = e.ref_index;
    m.origin = Origin(&p->output);
    GST_INFO_OBJECT(self, "alignment from reference frame %" G_GUINT64_FORMAT ": offset %" PRId64
                    " frames (%s, %s, confidence %.3f)", m.frame_index, m.offset_frames,
                    m.reason.c_str(), m.decided ? "decided" : "undecided", m.confidence);
    PostStructure(self, m.ToStructure());
  }
}

// Whether the next buffer of pad `index` may be taken now: while one pad
// is still in its start frames, the other waits at its pad, so that the
// streams enter the aligner together rather than one of them piling up.
bool MayTake(const AlignState& a, const ElementSettings& s, PadIndex index) {
  const bool ref_starting = a.arrived[kRef] < s.ref_start_frame;
  const bool dist_starting = a.arrived[kDist] < s.dist_start_frame;
  return index == kRef ? ref_starting || !dist_starting : dist_starting || !ref_starting;
}

// Takes the next buffer of pad `index`, if it has one. A reference gap or
// start frame is held in its place, to leave in order; a distorted gap or
// start frame is dropped; a frame goes to the aligner.
GstFlowReturn TakeIn(GstSsimulacra2Cmp* self, const ElementSettings& s, PadIndex index) {
  ElementState* p = self->priv;
  AlignState& a = p->align;
  GstAggregatorPad* pad = self->pads[index];
  GstBuffer* buffer = gst_aggregator_pad_pop_buffer(pad);
  if (buffer == nullptr) return GST_FLOW_OK;
  GstBuffer* restoring = buffer;
  if (a.restored_by[index].compare_exchange_strong(restoring, nullptr)) {
    a.restore_next[index] = true;
  }
  const PadHead head = HeadOf(pad, buffer, 0);
  HeldFrame frame;
  frame.buffer = buffer;
  frame.running_time = RunningTime(head);
  const uint64_t start = index == kRef ? s.ref_start_frame : s.dist_start_frame;
  frame.gap = IsGap(buffer);
  frame.excluded = !frame.gap && a.arrived[index] < start;
  if (!frame.gap) ++a.arrived[index];
  if (index == kDist && frame.gap) p->monitor.coverage.NoteDistGap();
  if (index == kDist && (frame.gap || frame.excluded)) {
    gst_buffer_unref(buffer);
    return GST_FLOW_OK;
  }
  if (index == kRef && !frame.gap) NoteRefFrame(&p->pairing, head, buffer);
  if (frame.gap || frame.excluded) {
    a.held[kRef].push_back(frame);
    return GST_FLOW_OK;
  }
  frame.index = a.arrived[index] - 1 - start;
  // The feed back after a loss, or a discontinuity after the pad's first
  // buffer of the segment: the offset may have changed from this frame
  // on, from the reference frame a distorted one pairs with at the offset
  // in effect. The reference frames before it keep their verdicts.
  const bool restored = std::exchange(a.restore_next[index], false);
  if (restored || (a.arrived[index] > 1 && GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DISCONT))) {
    const int64_t at = index == kRef ? static_cast<int64_t>(frame.index)
                                     : static_cast<int64_t>(frame.index) - a.aligner->offset();
    GST_DEBUG_OBJECT(self, "%s frame %" G_GUINT64_FORMAT ": %s, the alignment restarts at "
                     "reference frame %" PRId64, kPadNames[index], frame.index,
                     restored ? "feed restored" : "discontinuity", at);
    if (!a.restart_pending || at < static_cast<int64_t>(a.restart_at)) {
      a.restart_at = at > 0 ? static_cast<uint64_t>(at) : 0;
    }
    a.restart_pending = true;
  }
  Thumbnail thumbnail;
  if (s.align == AlignChoice::kAuto) {
    PadFormat& format = p->caps.format[index];
    if (!format.known) {
      GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("A buffer arrived before its caps."), (nullptr));
      gst_buffer_unref(buffer);
      return GST_FLOW_NOT_NEGOTIATED;
    }
    if (!ThumbnailOf(buffer, &format.info, &thumbnail)) {
      GST_ELEMENT_ERROR(self, RESOURCE, READ, ("Could not map a %s frame.",
                                               index == kRef ? "reference" : "distorted"),
                        (nullptr));
      gst_buffer_unref(buffer);
      return GST_FLOW_ERROR;
    }
  }
  if (index == kRef) {
    a.aligner->AddRef(thumbnail);
  } else {
    a.aligner->AddDist(thumbnail);
  }
  a.held[index].push_back(frame);
  return GST_FLOW_OK;
}

// Tells the aligner of a pad at EOS (which then has no buffer), once.
void NoteEnded(GstSsimulacra2Cmp* self, PadIndex index) {
  AlignState& a = self->priv->align;
  if (a.ended[index] || !gst_aggregator_pad_is_eos(self->pads[index])) return;
  a.ended[index] = true;
  if (index == kRef) {
    a.aligner->EndRef();
  } else {
    a.aligner->EndDist();
  }
}

void NoteOffset(ElementState* p, int64_t offset) {
  std::lock_guard<std::mutex> lock(p->output.results_lock);
  for (auto& seen : p->output.results.offsets) {
    if (seen.first == offset) {
      ++seen.second;
      return;
    }
  }
  p->output.results.offsets.push_back({offset, 1});
}

// Sends a reference frame (taken) the way its verdict says.
GstFlowReturn Apply(GstSsimulacra2Cmp* self, const HeldFrame& ref, const AlignVerdict& v) {
  ElementState* p = self->priv;
  HeldFrame* dist =
      v.kind == AlignVerdict::Kind::kPair ? HeldDist(&p->align, v.dist_index) : nullptr;
  GST_LOG_OBJECT(self, "reference frame %" G_GUINT64_FORMAT ": %s %" G_GUINT64_FORMAT "%s",
                 v.ref_index, dist != nullptr ? "pair with distorted frame" : "unpaired",
                 v.dist_index, v.flagged ? ", flagged" : "");
  // A partner no longer held: the aligner named one below what it said it
  // needs; the reference leaves unscored rather than with a wrong partner.
  if (dist == nullptr) return PassUnpaired(self, ref.buffer, ref.running_time, false);
  dist->paired = true;
  NoteOffset(p, static_cast<int64_t>(v.dist_index) - static_cast<int64_t>(v.ref_index));
  PairOrigin origin;
  origin.dist_index = dist->index;
  origin.flagged = v.flagged;
  return TakePair(self, ref.buffer, gst_buffer_ref(dist->buffer), ref.running_time, origin);
}

// Verdicts for the held reference frames, oldest first, while the aligner
// has them; gaps and start frames leave in their places. Live, a reference
// frame whose deadline has passed gets its verdict from what is in
// (force) and leaves unscored, counted in ref-late: its pair could no
// longer be scored by then.
GstFlowReturn TakeVerdicts(GstSsimulacra2Cmp* self) {
  ElementState* p = self->priv;
  AlignState& a = p->align;
  std::deque<HeldFrame>& refs = a.held[kRef];
  while (!refs.empty()) {
    const HeldFrame front = refs.front();
    if (front.gap || front.excluded) {
      refs.pop_front();
      if (front.gap) {
        QueueGap(p, front.buffer, front.running_time);
      } else {
        QueueExcluded(&p->queue, front.buffer, front.running_time);
      }
      continue;
    }
    if (a.restart_pending && front.index >= a.restart_at) {
      a.aligner->Restart(AlignReason::kFeedRestored);
      a.restart_pending = false;
    }
    AlignVerdict v;
    bool forced = false;
    if (!a.aligner->Next(false, &v)) {
      forced = DeadlinePassed(self, front.running_time);
      if (!forced || !a.aligner->Next(true, &v)) break;
    }
    g_assert(v.ref_index == front.index);
    PostEvents(self);  // while the verdict's frames are held, for offset-ns
    refs.pop_front();
    const GstFlowReturn flow = forced
                                   ? PassUnpaired(self, front.buffer, front.running_time, true)
                                   : Apply(self, front, v);
    if (flow != GST_FLOW_OK) return flow;
  }
  return GST_FLOW_OK;
}

// Distorted frames that no reference frame can need any more leave; those
// never paired count in dist-unpaired. Once the reference has ended, none
// is needed. (A distorted feed cannot pile up here while the reference's
// is lost: a buffer of each pad is taken a call, and GstAggregator calls
// without a reference buffer only at the deadlines of what is held.)
void DropUnneeded(ElementState* p) {
  AlignState& a = p->align;
  std::deque<HeldFrame>& held = a.held[kDist];
  const uint64_t oldest = a.aligner->OldestDistNeeded();
  const bool none_needed = a.ended[kRef] && a.held[kRef].empty();
  while (!held.empty() && (none_needed || held.front().index < oldest)) {
    if (!held.front().paired) {
      std::lock_guard<std::mutex> lock(p->output.results_lock);
      ++p->output.results.dist_unpaired;
    }
    gst_buffer_unref(held.front().buffer);
    held.pop_front();
  }
}

}  // namespace

GstFlowReturn AggregateAligned(GstSsimulacra2Cmp* self, const ElementSettings& s,
                               bool timeout) {
  ElementState* p = self->priv;
  AlignState& a = p->align;
  if (!a.aligner) {
    a.aligner = std::make_unique<FrameAligner>(
        s.align == AlignChoice::kAuto ? AlignMode::kAuto : AlignMode::kIndex, s.align_window);
  }
  // One buffer of each pad a call: GstAggregator calls again while both
  // have one (or are at EOS), so the two streams come in side by side
  // however many buffers a pad queues.
  for (const PadIndex index : {kRef, kDist}) {
    if (MayTake(a, s, index)) {
      const GstFlowReturn flow = TakeIn(self, s, index);
      if (flow != GST_FLOW_OK) return flow;
    }
    NoteEnded(self, index);
  }
  PostEvents(self);
  const GstFlowReturn flow = TakeVerdicts(self);
  if (flow != GST_FLOW_OK) return flow;
  PostEvents(self);
  DropUnneeded(p);
  // Both streams done; live, the distorted feed may also have nothing at
  // the deadline after the reference ended (as pairing by time).
  const bool dist_done =
      a.ended[kDist] || (timeout && s.live_policy == LivePolicy::kPassUnscored);
  if (a.ended[kRef] && a.held[kRef].empty() && a.held[kDist].empty() && dist_done) {
    return Finish(self);
  }
  return Drain(self, PairsInFlight(self) - 1);
}

void ResetAlignment(AlignState* a) {
  for (std::deque<HeldFrame>& held : a->held) {
    for (HeldFrame& frame : held) gst_clear_buffer(&frame.buffer);
    held.clear();
  }
  a->aligner.reset();
  a->arrived[kRef] = a->arrived[kDist] = 0;
  a->ended[kRef] = a->ended[kDist] = false;
  a->decided = false;
  a->restart_pending = false;
  a->restored_by[kRef] = a->restored_by[kDist] = nullptr;
  a->restore_next[kRef] = a->restore_next[kDist] = false;
}

}  // namespace s2c
