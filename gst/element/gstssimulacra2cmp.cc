// SPDX-License-Identifier: BSD-3-Clause
// The ssimulacra2cmp element, a GstAggregator with two always sink pads:
// its GObject type, properties, pad templates, events, queries, start,
// stop and flush. The sink pads' caps are pad_caps.cc; the streaming path
// (pairing, scoring, buffers out in order) is frame_flow.cc; the state
// they share is element_state.h.
#include "gstssimulacra2cmp.h"

#include <gst/video/video.h>

#include <string>

#include "backend_factory.h"
#include "element_state.h"
#include "feed_watch.h"
#include "frame_flow.h"
#include "link_watch.h"
#include "output_queue.h"
#include "pad_caps.h"
#include "results_output.h"
#include "score_meta.h"
#include "sink_caps.h"
#ifdef S2C_GST_CUDA
#include "cuda_resources.h"
#endif

GST_DEBUG_CATEGORY(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

G_DEFINE_TYPE(GstSsimulacra2Cmp, gst_ssimulacra2_cmp, GST_TYPE_AGGREGATOR);
GST_ELEMENT_REGISTER_DEFINE(ssimulacra2cmp, "ssimulacra2cmp", GST_RANK_NONE,
                            GST_TYPE_SSIMULACRA2_CMP);

namespace s2c {
namespace {

// The pairs on the backend will be dropped (a flush, a stop): the backend
// abandons them now, so that the streaming thread, which may be waiting for
// one, returns at once instead of after the work in flight.
void AbandonScoring(GstSsimulacra2Cmp* self) {
  if (self->priv->queue.backend) self->priv->queue.backend->Cancel();
}

// Whether this FLUSH_START completes a flush of both sink pads (a seek),
// after which the base class stops the streaming thread and Flush drops
// everything queued. A flush of one pad alone keeps the pairs in flight.
bool FlushesBothPads(GstSsimulacra2Cmp* self, PadIndex index, GstEvent* flush_start) {
  s2c::ElementState* p = self->priv;
  const guint32 seqnum = gst_event_get_seqnum(flush_start);
  GST_OBJECT_LOCK(self);
  p->props.flush_start_seqnum[index] = seqnum;
  const bool both = p->props.flush_start_seqnum[1 - index] == seqnum;
  GST_OBJECT_UNLOCK(self);
  return both;
}

// In the upstream's thread, as the event reaches the pad, before serialized
// events wait in its queue for the streaming thread (SinkEvent).
GstFlowReturn SinkEventPreQueue(GstAggregator* agg, GstAggregatorPad* pad, GstEvent* event) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS && pad == self->pads[kRef]) {
    GstCaps* caps = nullptr;
    gst_event_parse_caps(event, &caps);
    s2c::FollowReferenceCaps(self, caps);
  }
  return GST_AGGREGATOR_CLASS(gst_ssimulacra2_cmp_parent_class)
      ->sink_event_pre_queue(agg, pad, event);
}

gboolean SinkEvent(GstAggregator* agg, GstAggregatorPad* pad, GstEvent* event) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  const PadIndex index = pad == self->pads[kRef] ? kRef : kDist;
  switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_FLUSH_START:
      if (FlushesBothPads(self, index, event)) AbandonScoring(self);
      break;
    case GST_EVENT_CAPS: {
      GstCaps* caps = nullptr;
      gst_event_parse_caps(event, &caps);
      const gboolean ok = s2c::HandleSinkCaps(self, index, caps);
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
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  const PadIndex index = pad == self->pads[kRef] ? kRef : kDist;
  switch (GST_QUERY_TYPE(query)) {
    case GST_QUERY_CAPS:
      return s2c::AnswerCapsQuery(self, index, query);
    case GST_QUERY_ACCEPT_CAPS:
      return s2c::AnswerAcceptCaps(self, index, query);
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

gboolean SrcQuery(GstAggregator* agg, GstQuery* query) {
  switch (GST_QUERY_TYPE(query)) {
    case GST_QUERY_CAPS:
      return s2c::AnswerCapsQuery(GST_SSIMULACRA2_CMP(agg), -1, query);
#ifdef S2C_GST_CUDA
    case GST_QUERY_CONTEXT:
      if (s2c::HandleCudaContextQuery(GST_ELEMENT(agg), query)) return TRUE;
      break;
#endif
    default:
      break;
  }
  return GST_AGGREGATOR_CLASS(gst_ssimulacra2_cmp_parent_class)->src_query(agg, query);
}

#ifdef S2C_GST_CUDA
void SetContext(GstElement* element, GstContext* context) {
  const int device_id = ReadSettings(GST_SSIMULACRA2_CMP(element)).cuda_device_id;
  s2c::SetCudaContext(element, context, device_id);
  GST_ELEMENT_CLASS(gst_ssimulacra2_cmp_parent_class)->set_context(element, context);
}
#endif

// The output is the reference stream: its caps, whatever downstream prefers.
GstFlowReturn UpdateSrcCaps(GstAggregator* agg, GstCaps* downstream, GstCaps** ret) {
  s2c::ElementState* p = GST_SSIMULACRA2_CMP(agg)->priv;
  if (p->caps.ref_caps == nullptr) return GST_AGGREGATOR_FLOW_NEED_DATA;
  if (!gst_caps_can_intersect(p->caps.ref_caps, downstream)) {
    GST_ELEMENT_ERROR(agg, CORE, NEGOTIATION,
                      ("Downstream does not accept the reference caps the element "
                       "passes through; insert videoconvert after it."),
                      ("reference caps: %" GST_PTR_FORMAT, p->caps.ref_caps));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  *ret = gst_caps_ref(p->caps.ref_caps);
  return GST_FLOW_OK;
}

bool StartWith(GstSsimulacra2Cmp* self, const s2c::ElementSettings& s,
               const std::string& location, const std::string& label) {
  s2c::ElementState* p = self->priv;
  s2c::BackendRequest request;
  request.choice = s.backend;
  request.cuda_device_id = s.cuda_device_id;
  request.max_in_flight = s.max_in_flight;
  request.device_fp64 = s.device_fp64;
  request.device_memory_limit = s.device_memory_limit;
  request.cpu_threads = s.cpu_threads;
  s2c::BackendSelection selection;
  const s2c::Status status = s2c::SelectBackend(GST_ELEMENT(self), request, &selection);
  if (!status.ok()) {
    GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND,
                      ("backend=cuda but no usable CUDA device: %s. Use backend=cpu, "
                       "or backend=auto to fall back to the CPU.",
                       status.message().c_str()),
                      (nullptr));
    return false;
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
  const s2c::Status metrics = selection.backend->SetMetrics(s.metrics);
  if (!metrics.ok()) {
    GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS, ("%s", metrics.message().c_str()), (nullptr));
    return false;
  }
  p->output.posted_error = false;
  p->output.warned_results = false;
  if (!s2c::OpenResults(self, s, location)) return FALSE;
  GST_INFO_OBJECT(self, "scoring on the %s backend", selection.backend->name());
  p->queue.backend = std::move(selection.backend);
  p->queue.backend_is_cuda = selection.is_cuda;
  {
    // The stats property reads it (MakeSummary) from the application's
    // thread, under this lock.
    std::lock_guard<std::mutex> lock(p->output.results_lock);
    p->output.metrics = s.metrics;
    p->output.label = label;
  }
  p->queue.configured_width = p->queue.configured_height = 0;
  p->queue.device_bytes = p->queue.backend->DeviceBytes();
  p->queue.warned_pairs = 0;
  p->caps.negotiation_failed = false;
  p->caps.paired_any = false;
  p->caps.warned_rates = false;
  p->caps.sizes_differ = false;
  p->caps.aspects_differ = false;
  p->queue.live_latency = GST_CLOCK_TIME_NONE;
  p->queue.pair_time = 0;
  p->queue.last_result_at = GST_CLOCK_TIME_NONE;
  s2c::ResetPadCaps(self, s.colorimetry_mode);
  p->caps.ssim_formats = s2c::Status::Ok();
  // A results file appended to goes on after its last segment.
  ResetSegment(p, p->output.writer.is_open() ? p->output.writer.first_segment() : 0);
  s2c::StartLinkWatch(self, s.link_timeout);
  return true;
}

// The settings are taken, and fixed until Stop, in one step under the
// object lock, so that a property set meanwhile is either in effect or
// refused (SetProperty).
gboolean Start(GstAggregator* agg) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  s2c::ElementState* p = self->priv;
  GST_OBJECT_LOCK(self);
  const s2c::ElementSettings settings = p->props.settings;
  const s2c::ElementStrings strings = p->props.strings;
  const std::string label = strings.label.empty() ? GST_OBJECT_NAME(self) : strings.label;
  p->props.started = true;
  GST_OBJECT_UNLOCK(self);
  if (StartWith(self, settings, strings.results_location, label)) return TRUE;
  GST_OBJECT_LOCK(self);
  p->props.started = false;
  GST_OBJECT_UNLOCK(self);
  return FALSE;
}

gboolean Stop(GstAggregator* agg) {
  s2c::ElementState* p = GST_SSIMULACRA2_CMP(agg)->priv;
  s2c::StopLinkWatch(GST_SSIMULACRA2_CMP(agg));
  s2c::StopFeedWatch(GST_SSIMULACRA2_CMP(agg));
  if (p->queue.backend) DropPending(&p->queue);
  ResetAlignment(&p->align);
  p->queue.backend.reset();
  p->queue.device_bytes = 0;
  // Stopped before EOS: the file still gets the summary of what was scored.
  s2c::CloseResults(GST_SSIMULACRA2_CMP(agg));
  gst_clear_caps(&p->caps.ref_caps);
#ifdef S2C_GST_CUDA
  s2c::ReleaseCudaContext(GST_ELEMENT(agg));
#endif
  GST_OBJECT_LOCK(agg);
  p->props.started = false;
  p->props.flush_start_seqnum[kRef] = p->props.flush_start_seqnum[kDist] = GST_SEQNUM_INVALID;
  GST_OBJECT_UNLOCK(agg);
  return TRUE;
}

// Going to READY: the backend abandons its pairs before the base class
// stops the streaming thread, which may be waiting for one of them.
// In PLAYING, with the pipeline's clock and base time set, the feeds are
// watched (feed_watch.h).
GstStateChangeReturn ChangeState(GstElement* element, GstStateChange transition) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(element);
  if (transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED) s2c::StopFeedWatch(self);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) AbandonScoring(self);
  const GstStateChangeReturn ret =
      GST_ELEMENT_CLASS(gst_ssimulacra2_cmp_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_PLAYING && ret != GST_STATE_CHANGE_FAILURE) {
    s2c::StartFeedWatch(self, ReadSettings(self).feed_timeout);
  }
  return ret;
}

// Flush-stop on both pads (a seek): results in flight are dropped, the
// segment's summary is written and posted, and the next segment's
// statistics and alignment start from zero (ResetSegment).
GstFlowReturn Flush(GstAggregator* agg) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(agg);
  s2c::ElementState* p = self->priv;
  if (p->queue.backend) DropPending(&p->queue);
  return s2c::EndSegment(self, "flush");
}

// Every error the element posts, its own or a flow error GstAggregator
// posts for it, is remembered for the results file's last summary.
gboolean PostMessage(GstElement* element, GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    GST_SSIMULACRA2_CMP(element)->priv->output.posted_error = true;
  }
  return GST_ELEMENT_CLASS(gst_ssimulacra2_cmp_parent_class)->post_message(element, message);
}

// A property not marked GST_PARAM_MUTABLE_PLAYING is read only by Start:
// from Start to Stop it keeps its value, with a warning, so that reading
// it back always gives the value in effect.
void SetProperty(GObject* object, guint id, const GValue* value, GParamSpec* pspec) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(object);
  s2c::ElementState* p = self->priv;
  GST_OBJECT_LOCK(self);
  const bool refused = p->props.started && !(pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  const bool known =
      refused || s2c::SetSettingsProperty(&p->props.settings, &p->props.strings, id, value);
  GST_OBJECT_UNLOCK(self);
  if (!known) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  } else if (refused) {
    GST_ELEMENT_WARNING(self, CORE, STATE_CHANGE,
                        ("The property \"%s\" can only be changed in the NULL or READY "
                         "state; it keeps its value while the element runs.",
                         g_param_spec_get_name(pspec)),
                        (nullptr));
  }
}

void GetProperty(GObject* object, guint id, GValue* value, GParamSpec* pspec) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(object);
  s2c::ElementState* p = self->priv;
  switch (id) {
    case s2c::PROP_LAST_SCORE: {
      std::lock_guard<std::mutex> lock(p->output.results_lock);
      g_value_set_double(value, p->output.results.last_score);
      return;
    }
    case s2c::PROP_STATS:
      g_value_take_boxed(value, MakeSummary(&p->output, "running").ToStructure());
      return;
    case s2c::PROP_DEVICE_MEMORY:
      g_value_set_uint64(value, p->queue.device_bytes);
      return;
    case s2c::PROP_ALIGN_FLAGGED: {
      std::lock_guard<std::mutex> lock(p->output.results_lock);
      g_value_set_uint64(value, p->output.results.align_flagged);
      return;
    }
    case s2c::PROP_REALIGNMENTS: {
      std::lock_guard<std::mutex> lock(p->output.results_lock);
      g_value_set_uint64(value, p->output.results.realignments);
      return;
    }
    default:
      break;
  }
  GST_OBJECT_LOCK(self);
  const bool known = s2c::GetSettingsProperty(p->props.settings, p->props.strings, id, value);
  GST_OBJECT_UNLOCK(self);
  if (!known) G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

void Finalize(GObject* object) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(object);
  delete self->priv;
  G_OBJECT_CLASS(gst_ssimulacra2_cmp_parent_class)->finalize(object);
}

}  // namespace
}  // namespace s2c

static void gst_ssimulacra2_cmp_class_init(GstSsimulacra2CmpClass* klass) {
  GObjectClass* oc = G_OBJECT_CLASS(klass);
  GstElementClass* ec = GST_ELEMENT_CLASS(klass);
  GstAggregatorClass* ac = GST_AGGREGATOR_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_ssimulacra2_cmp_debug, "ssimulacra2cmp", 0,
                          "SSIMULACRA 2.1 comparison");
  s2c::RegisterScoreMeta();

  oc->set_property = s2c::SetProperty;
  oc->get_property = s2c::GetProperty;
  oc->finalize = s2c::Finalize;
  ec->post_message = s2c::PostMessage;
  s2c::InstallElementProperties(oc);

  GstCaps* caps = s2c::SupportedCaps(s2c::kMetricSsimulacra2);
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
      "time, or of the same picture (align), with SSIMULACRA 2.1, bit-exact on CPU "
      "and CUDA, and passes the reference through with the score attached",
      "ssimulacra2cmp developers");

  ec->change_state = s2c::ChangeState;
  ac->aggregate = s2c::Aggregate;
  ac->sink_event = s2c::SinkEvent;
  ac->sink_event_pre_queue = s2c::SinkEventPreQueue;
  ac->sink_query = s2c::SinkQuery;
  ac->update_src_caps = s2c::UpdateSrcCaps;
  ac->start = s2c::Start;
  ac->stop = s2c::Stop;
  ac->flush = s2c::Flush;
  ac->get_next_time = s2c::GetNextTime;
  ac->src_query = s2c::SrcQuery;
#ifdef S2C_GST_CUDA
  ec->set_context = s2c::SetContext;
#endif
}

static void gst_ssimulacra2_cmp_init(GstSsimulacra2Cmp* self) {
  self->priv = new s2c::ElementState();
  GstElementClass* ec = GST_ELEMENT_GET_CLASS(self);
  for (int i = 0; i < 2; ++i) {
    GstPadTemplate* templ = gst_element_class_get_pad_template(ec, s2c::kPadNames[i]);
    GstPad* pad = GST_PAD(g_object_new(GST_TYPE_AGGREGATOR_PAD, "name", s2c::kPadNames[i],
                                       "direction", GST_PAD_SINK, "template", templ,
                                       nullptr));
    self->pads[i] = GST_AGGREGATOR_PAD(pad);
    gst_element_add_pad(GST_ELEMENT(self), pad);
  }
  s2c::InstallFeedProbes(self);
}
