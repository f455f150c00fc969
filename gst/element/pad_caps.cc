// SPDX-License-Identifier: BSD-3-Clause
#include "pad_caps.h"

#include <string>

#include "element_state.h"
#include "frame_flow.h"
#include "output_queue.h"
#include "ssim_planes.h"

GST_DEBUG_CATEGORY_EXTERN(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

namespace s2c {
namespace {

// Frames of one size whose pixels have different shapes are still compared
// sample for sample: a warning each time the two pads start to differ.
void WarnIfAspectsDiffer(GstSsimulacra2Cmp* self) {
  ElementState* p = self->priv;
  const GstVideoInfo& r = p->caps.format[kRef].info;
  const GstVideoInfo& d = p->caps.format[kDist].info;
  const bool differ = gst_util_fraction_compare(r.par_n, r.par_d, d.par_n, d.par_d) != 0;
  if (differ && !p->caps.aspects_differ) {
    GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                        ("The reference has a pixel aspect ratio of %d/%d but the distorted "
                         "stream %d/%d: the frames are compared sample for sample as they "
                         "are (SSIM's window follows the reference's pixel aspect).",
                         r.par_n, r.par_d, d.par_n, d.par_d),
                        (nullptr));
  }
  p->caps.aspects_differ = differ;
}

bool RatesDiffer(const GstVideoInfo& r, const GstVideoInfo& d) {
  return r.fps_n != 0 && d.fps_n != 0 &&
         gst_util_fraction_compare(r.fps_n, r.fps_d, d.fps_n, d.fps_d) != 0;
}

void WarnIfRatesDiffer(GstSsimulacra2Cmp* self) {
  ElementState* p = self->priv;
  const GstVideoInfo& r = p->caps.format[kRef].info;
  const GstVideoInfo& d = p->caps.format[kDist].info;
  if (p->caps.warned_rates || p->caps.dist_follow.rate || !RatesDiffer(r, d)) return;
  p->caps.warned_rates = true;
  GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                      ("The reference runs at %d/%d fps and the distorted stream at "
                       "%d/%d fps: only frames whose running times match within "
                       "pairing-tolerance are scored, the others are counted as "
                       "unpaired. Insert videorate on the distorted branch to "
                       "compare frame by frame.",
                       r.fps_n, r.fps_d, d.fps_n, d.fps_d),
                      (nullptr));
}

FollowedFormat FollowedOf(const GstVideoInfo& info) {
  FollowedFormat f;
  f.width = GST_VIDEO_INFO_WIDTH(&info);
  f.height = GST_VIDEO_INFO_HEIGHT(&info);
  f.fps_n = GST_VIDEO_INFO_FPS_N(&info);
  f.fps_d = GST_VIDEO_INFO_FPS_D(&info);
  return f;
}

// Whether every structure of `caps` names `field` (ANY names nothing: an
// appsrc without caps answers with its template).
bool AllName(GstCaps* caps, const char* field) {
  if (gst_caps_is_empty(caps) || gst_caps_is_any(caps)) return false;
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    if (!gst_structure_has_field(gst_caps_get_structure(caps, i), field)) return false;
  }
  return true;
}

// Whether the distorted pad's upstream can produce `follow`'s size (or
// rate), by what a CAPS query through it says: the sizes (rates) it names
// include the reference's. An answer that names none is a template's (a
// decoder's pad), which says nothing of what the stream can be.
bool DistCanProduce(GstSsimulacra2Cmp* self, const FollowedFormat& follow, bool size,
                    bool rate) {
  GstCaps* possible = gst_pad_peer_query_caps(GST_PAD(self->pads[kDist]), nullptr);
  bool can = possible != nullptr && (!size || (AllName(possible, "width") &&
                                                AllName(possible, "height"))) &&
             (!rate || AllName(possible, "framerate"));
  if (can) {
    GstCaps* wanted = FollowingCaps(self->priv->output.metrics, follow, size, rate);
    can = gst_caps_can_intersect(possible, wanted);
    gst_caps_unref(wanted);
  }
  if (possible != nullptr) gst_caps_unref(possible);
  return can;
}

// New caps make the pads' formats `ref` and `dist`: where their sizes or
// rates differ and the distorted branch can produce the reference's (a
// videoscale or videorate upstream that negotiated before the reference
// had caps, or a reference that changed), it is asked to renegotiate with
// a RECONFIGURE event, and its CAPS query now offers the reference's
// (QueryCaps). What a branch's pads say they can produce is not always so
// (a decoder answers with its template), so its next CAPS query, which
// shows what it can, has the last word (CheckDistFollow).
void AskDistToFollow(GstSsimulacra2Cmp* self, const PadFormat& ref, const PadFormat& dist) {
  DistFollow& f = self->priv->caps.dist_follow;
  const FollowedFormat follow = FollowedOf(ref.info);
  f.size = !SameSize(ref, dist) && !f.refuses_size && DistCanProduce(self, follow, true, false);
  f.rate = follow.fps_n > 0 && RatesDiffer(ref.info, dist.info) && !f.refuses_rate &&
           DistCanProduce(self, follow, false, true);
  if (!f.size && !f.rate) return;
  GST_INFO_OBJECT(self, "asking the distorted branch to renegotiate to %dx%d at %d/%d fps",
                  follow.width, follow.height, follow.fps_n, follow.fps_d);
  gst_pad_push_event(GST_PAD(self->pads[kDist]), gst_event_new_reconfigure());
}


// Both pads have caps: the distorted stream's description as read
// (colour_interpretation.h), with a warning each time what it takes from
// the reference changes.
void UpdateDistReading(GstSsimulacra2Cmp* self) {
  ElementState* p = self->priv;
  ColorimetryMode mode;
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    mode = p->output.colorimetry_mode;
  }
  const DistReading reading = ReadDist(p->caps.format[kRef].own, p->caps.format[kDist].own, mode);
  p->caps.format[kDist].desc = reading.desc;
  {
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    p->output.colorimetry_adopted = reading.adopted;
  }
  if (!reading.adopted.empty() && reading.adopted != p->caps.warned_colour) {
    GST_ELEMENT_WARNING(self, STREAM, FORMAT,
                        ("The distorted stream's colour description differs from the "
                         "reference's (%s): it is read with the reference's, as an encode "
                         "of the same pictures labelled differently. Set "
                         "colorimetry-mode=per-stream to read each stream by its own caps "
                         "(an encode that converts colour).",
                         reading.adopted.c_str()),
                        (nullptr));
  }
  p->caps.warned_colour = reading.adopted;
}

// A refusal in a query, said once per pad and reason: the upstream element
// that then fails to negotiate posts only GStreamer's generic error.
void WarnRefused(GstSsimulacra2Cmp* self, PadIndex index, const Status& refusal,
                 GstCaps* caps) {
  ElementState* p = self->priv;
  GST_OBJECT_LOCK(self);
  const bool warned = p->caps.refused_caps[index] == refusal.message();
  p->caps.refused_caps[index] = refusal.message();
  GST_OBJECT_UNLOCK(self);
  GST_INFO_OBJECT(self, "%s refuses %" GST_PTR_FORMAT, kPadNames[index], caps);
  if (!warned) {
    GST_ELEMENT_WARNING(self, CORE, NEGOTIATION, ("%s.", refusal.message().c_str()),
                        ("caps: %" GST_PTR_FORMAT, caps));
  }
}

// A CAPS query whose filter leaves nothing the pad takes: when the filter
// holds raw video, its first such structure says why, within the
// supported formats and sizes where it has any, fixated, with the
// smallest size where it names none.
void ExplainEmptyAnswer(GstSsimulacra2Cmp* self, PadIndex index, unsigned metrics,
                        GstCaps* filter) {
  for (guint i = 0; i < gst_caps_get_size(filter); ++i) {
    if (!gst_structure_has_name(gst_caps_get_structure(filter, i), "video/x-raw")) continue;
    GstCaps* offered = gst_caps_copy_nth(filter, i);
    GstCaps* supported = SupportedCaps(metrics);
    GstCaps* within = gst_caps_intersect(offered, supported);
    gst_caps_unref(supported);
    if (gst_caps_is_empty(within)) {
      gst_caps_unref(within);
    } else {
      gst_caps_unref(offered);
      offered = within;
    }
    offered = gst_caps_fixate(offered);
    GstStructure* s = gst_caps_get_structure(offered, 0);
    for (const char* side : {"width", "height"}) {
      if (!gst_structure_has_field(s, side)) {
        gst_structure_set(s, side, G_TYPE_INT, kMinSide, nullptr);
      }
    }
    GstVideoInfo info;
    FrameDesc desc;
    const Status status = CheckSinkCaps(offered, kPadNames[index], &info, &desc);
    if (!status.ok()) WarnRefused(self, index, status, offered);
    gst_caps_unref(offered);
    return;
  }
}

}  // namespace

void FollowReferenceCaps(GstSsimulacra2Cmp* self, GstCaps* caps) {
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, caps)) return;
  GST_OBJECT_LOCK(self);
  self->priv->caps.followed = FollowedOf(info);
  self->priv->caps.followed_known = true;
  GST_OBJECT_UNLOCK(self);
}

gboolean HandleSinkCaps(GstSsimulacra2Cmp* self, PadIndex index, GstCaps* caps) {
  ElementState* p = self->priv;
  PadFormat f;
  const Status status = CheckSinkCaps(caps, kPadNames[index], &f.info, &f.own);
  if (!status.ok()) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s.", status.message().c_str()),
                      ("caps: %" GST_PTR_FORMAT, caps));
    p->caps.negotiation_failed = true;
    return FALSE;
  }
  f.desc = f.own;
  f.cuda_memory = HasCudaMemoryFeature(caps);
  f.known = true;
  const PadFormat& other = p->caps.format[1 - index];
  if (index == kRef) {
    // What the distorted branch refused was the old reference's.
    p->caps.dist_follow.refuses_size = p->caps.dist_follow.refuses_rate = false;
  }
  p->caps.dist_follow.size = p->caps.dist_follow.rate = false;
  if (other.known) AskDistToFollow(self, index == kRef ? f : other, index == kRef ? other : f);
  // Not live, before the first pair, a mismatch is a negotiation error right
  // away, unless the distorted branch is renegotiating to the reference's
  // size; in mid-stream both pads may be switching size, and live a size
  // change may reach one pad first, so ScorePair checks the pair it is
  // given instead.
  if (!p->caps.paired_any && other.known && !SameSize(other, f) && !IsLive(self) &&
      !p->caps.dist_follow.size) {
    ReportSizeMismatch(self, index == kRef ? f : other, index == kRef ? other : f);
    return FALSE;
  }
  // Pairs still waiting for the backend are mapped with the format they
  // came in, and buffers of the old format leave before the new caps do.
  if (p->caps.format[index].known && Drain(self, 0) != GST_FLOW_OK) return FALSE;
  if (index == kRef) {
    gst_caps_replace(&p->caps.ref_caps, caps);
    gst_pad_mark_reconfigure(Agg(self)->srcpad);
    FollowReferenceCaps(self, caps);
  }
  p->caps.format[index] = f;
  if (other.known) UpdateDistReading(self);
  // SSIM's formats are checked once per caps, here; ScorePair refuses the
  // pairs while they are not ones SSIM compares.
  if (other.known && (p->output.metrics & kMetricSsim)) {
    p->caps.ssim_formats = CheckSsimFormats(p->caps.format[kRef].desc.format,
                                            p->caps.format[kDist].desc.format);
  }
  if (other.known) {
    WarnIfRatesDiffer(self);
    WarnIfAspectsDiffer(self);
  }
  if (index == kRef) UpdateLatency(self);
  return TRUE;
}

gboolean AnswerCapsQuery(GstSsimulacra2Cmp* self, int index, GstQuery* query) {
  GstCaps* filter = nullptr;
  gst_query_parse_caps(query, &filter);
  ElementState* p = self->priv;
  GST_OBJECT_LOCK(self);
  const unsigned metrics = p->props.settings.metrics;
  const bool follow = index == kDist && p->caps.followed_known;
  const FollowedFormat followed = p->caps.followed;
  GST_OBJECT_UNLOCK(self);
  FollowedParts kept;
  GstCaps* caps = QueryCaps(metrics, filter, follow ? &followed : nullptr, &kept);
  if (follow && filter != nullptr) {
    // One query that leaves the reference's size out says the branch cannot
    // produce it; later ones with wider filters (a decoder's format query)
    // do not say it can.
    if (!kept.size) p->caps.dist_follow.refuses_size = true;
    if (followed.fps_n > 0 && !kept.rate) p->caps.dist_follow.refuses_rate = true;
  }
  GST_DEBUG_OBJECT(self, "CAPS query on %s: filter %" GST_PTR_FORMAT ", answer %" GST_PTR_FORMAT,
                   index >= 0 ? kPadNames[index] : "src", filter, caps);
  if (index >= 0 && filter != nullptr && gst_caps_is_empty(caps)) {
    ExplainEmptyAnswer(self, static_cast<PadIndex>(index), metrics, filter);
  }
  gst_query_set_caps_result(query, caps);
  gst_caps_unref(caps);
  return TRUE;
}

gboolean AnswerAcceptCaps(GstSsimulacra2Cmp* self, PadIndex index, GstQuery* query) {
  GstCaps* caps = nullptr;
  gst_query_parse_accept_caps(query, &caps);
  GstVideoInfo info;
  FrameDesc desc;
  const Status status = CheckSinkCaps(caps, kPadNames[index], &info, &desc);
  gst_query_set_accept_caps_result(query, status.ok());
  if (!status.ok() && gst_caps_is_fixed(caps)) WarnRefused(self, index, status, caps);
  return TRUE;
}

void CheckDistFollow(GstSsimulacra2Cmp* self) {
  DistFollow& f = self->priv->caps.dist_follow;
  if (f.size && f.refuses_size) f.size = false;
  if (f.rate && f.refuses_rate) {
    f.rate = false;
    WarnIfRatesDiffer(self);
  }
}

void ResetPadCaps(GstSsimulacra2Cmp* self, ColorimetryMode mode) {
  ElementState* p = self->priv;
  p->caps.format[kRef] = PadFormat();
  p->caps.format[kDist] = PadFormat();
  p->caps.dist_follow.size = p->caps.dist_follow.rate = false;
  p->caps.dist_follow.refuses_size = p->caps.dist_follow.refuses_rate = false;
  p->caps.warned_colour.clear();
  GST_OBJECT_LOCK(self);
  p->caps.followed_known = false;
  p->caps.refused_caps[kRef].clear();
  p->caps.refused_caps[kDist].clear();
  GST_OBJECT_UNLOCK(self);
  std::lock_guard<std::mutex> lock(p->output.results_lock);
  p->output.colorimetry_mode = mode;
  p->output.colorimetry_adopted.clear();
}

}  // namespace s2c
