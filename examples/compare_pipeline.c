// SPDX-License-Identifier: BSD-3-Clause
#include "compare_pipeline.h"

#include <gst/video/video.h>

#include <stdio.h>
#include <string.h>

gboolean IsUri(const char* location) { return strstr(location, "://") != NULL; }

// An error of the input: the report names the input (BranchOf).
static void PostBranchError(GstElement* from, const char* what) {
  GError* error = g_error_new_literal(GST_STREAM_ERROR, GST_STREAM_ERROR_WRONG_TYPE, what);
  gst_element_post_message(from, gst_message_new_error(GST_OBJECT(from), error, NULL));
  g_error_free(error);
}

// The time --start and --end select by: the frame's running time (its
// timestamp from the start of its pad's segment, as the element pairs by),
// rounded to the nearest millisecond, so that a frame at 99.999999 ms in
// one input and at 100 ms in another (containers round differently) falls
// on one side of a bound. NONE without a timestamp or a segment.
static GstClockTime SelectionTime(GstPad* pad, GstClockTime pts) {
  if (!GST_CLOCK_TIME_IS_VALID(pts)) return GST_CLOCK_TIME_NONE;
  GstEvent* event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
  if (event == NULL) return GST_CLOCK_TIME_NONE;
  const GstSegment* segment = NULL;
  gst_event_parse_segment(event, &segment);
  const GstClockTime t = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts);
  gst_event_unref(event);
  if (!GST_CLOCK_TIME_IS_VALID(t)) return GST_CLOCK_TIME_NONE;
  return (t + GST_MSECOND / 2) / GST_MSECOND * GST_MSECOND;
}

// Each decoded frame of one input gets its number in the input (from 0) as
// its buffer offset, which the element reports as the frame's frame-index
// (frameNum in the results file); videoconvert and videoscale keep it.
// --start/--end and --every then select by SelectionTime: frames before
// `start` are dropped, the first at or after `end` ends the input
// (GST_FLOW_EOS upstream, which then sends EOS down), and of the rest only
// frames 0, N, 2N, ... go on. Both inputs drop the same frames, so the kept
// ones still pair. On the decoded side of videoconvert, so that dropped
// frames are not converted.
static GstPadProbeReturn NumberAndSelect(GstPad* pad, GstPadProbeInfo* info,
                                         gpointer user_data) {
  Branch* branch = user_data;
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  const GstClockTime t = SelectionTime(pad, GST_BUFFER_PTS(buffer));
  const guint64 number = branch->decoded++;
  if (GST_CLOCK_TIME_IS_VALID(t) && GST_CLOCK_TIME_IS_VALID(branch->end) && t >= branch->end) {
    gst_buffer_unref(buffer);
    GST_PAD_PROBE_INFO_FLOW_RETURN(info) = GST_FLOW_EOS;
    return GST_PAD_PROBE_HANDLED;
  }
  if (GST_CLOCK_TIME_IS_VALID(t) && t < branch->start) return GST_PAD_PROBE_DROP;
  if (branch->in_range++ % branch->every != 0) return GST_PAD_PROBE_DROP;
  buffer = gst_buffer_make_writable(buffer);
  GST_BUFFER_OFFSET(buffer) = number;
  GST_BUFFER_OFFSET_END(buffer) = number + 1;
  GST_PAD_PROBE_INFO_DATA(info) = buffer;
  return GST_PAD_PROBE_OK;
}

// The smallest and largest value of a template caps' int range field.
static void RangeOf(const GstStructure* s, const char* field, gint* min, gint* max) {
  const GValue* v = gst_structure_get_value(s, field);
  *min = 1;
  *max = G_MAXINT;
  if (v != NULL && GST_VALUE_HOLDS_INT_RANGE(v)) {
    *min = gst_value_get_int_range_min(v);
    *max = gst_value_get_int_range_max(v);
  }
}

gchar* SizeRefusal(GstElement* element, gint width, gint height) {
  GstPadTemplate* templ =
      gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(element), "ref_sink");
  GstCaps* caps = gst_pad_template_get_caps(templ);
  gint min_w = 1, max_w = G_MAXINT, min_h = 1, max_h = G_MAXINT;
  if (gst_caps_get_size(caps) > 0) {
    RangeOf(gst_caps_get_structure(caps, 0), "width", &min_w, &max_w);
    RangeOf(gst_caps_get_structure(caps, 0), "height", &min_h, &max_h);
  }
  gst_caps_unref(caps);
  if (width < min_w || height < min_h) {
    return g_strdup_printf("frames of %dx%d are below the %dx%d minimum", width, height, min_w,
                           min_h);
  }
  if (width > max_w || height > max_h) {
    return g_strdup_printf("frames of %dx%d are above the %dx%d maximum", width, height, max_w,
                           max_h);
  }
  return NULL;
}

// Why the decoded video could not be linked: its size when the element
// does not take it (the caps query of videoconvert's sink pad carries the
// element's size range, so the link is what fails), else in general.
static void PostLinkError(GstElement* decodebin, GstCaps* caps, const Branch* branch) {
  GstVideoInfo info;
  gchar* why = gst_video_info_from_caps(&info, caps)
                   ? SizeRefusal(branch->element, GST_VIDEO_INFO_WIDTH(&info),
                                 GST_VIDEO_INFO_HEIGHT(&info))
                   : NULL;
  PostBranchError(decodebin, why != NULL ? why : "could not link the decoded video");
  g_free(why);
}

// The first video stream of an input is compared; any other stream (audio,
// a second video track) is drained into a fakesink so the demuxer goes on.
static void OnPadAdded(GstElement* decodebin, GstPad* pad, gpointer user_data) {
  Branch* branch = user_data;
  GstCaps* caps = gst_pad_get_current_caps(pad);
  if (caps == NULL) caps = gst_pad_query_caps(pad, NULL);
  const gboolean video = gst_caps_get_size(caps) > 0 &&
      gst_structure_has_name(gst_caps_get_structure(caps, 0), "video/x-raw");
  GstPad* sink = gst_element_get_static_pad(branch->convert, "sink");
  if (video && !gst_pad_is_linked(sink)) {
    if (GST_PAD_LINK_FAILED(gst_pad_link(pad, sink))) PostLinkError(decodebin, caps, branch);
    gst_caps_unref(caps);
    gst_object_unref(sink);
    return;
  }
  gst_caps_unref(caps);
  gst_object_unref(sink);
  GstElement* drain = gst_element_factory_make("fakesink", NULL);
  g_object_set(drain, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add(GST_BIN(branch->bin), drain);
  gst_element_sync_state_with_parent(drain);
  GstPad* drain_sink = gst_element_get_static_pad(drain, "sink");
  gst_pad_link(pad, drain_sink);
  gst_object_unref(drain_sink);
}

static void OnNoMorePads(GstElement* decodebin, gpointer user_data) {
  const Branch* branch = user_data;
  GstPad* sink = gst_element_get_static_pad(branch->convert, "sink");
  if (!gst_pad_is_linked(sink)) PostBranchError(decodebin, "no video stream");
  gst_object_unref(sink);
}

// The elements that read and decode the input, in the branch's bin (which
// owns what was made). Returns the one that gives the decoded video (from
// its "src" pad, or pad-added), or NULL when an element is missing.
static GstElement* AddSource(Branch* branch) {
  GstBin* bin = GST_BIN(branch->bin);
  if (IsUri(branch->location)) {
    GstElement* decoder = gst_element_factory_make("uridecodebin", NULL);
    if (decoder == NULL) return NULL;
    g_object_set(decoder, "uri", branch->location, NULL);
    gst_bin_add(bin, decoder);
    return decoder;
  }
  GstElement* src = gst_element_factory_make("filesrc", NULL);
  GstElement* decoder = branch->raw != NULL ? MakeRawVideoParse(branch->raw)
                                            : gst_element_factory_make("decodebin", NULL);
  if (src != NULL) gst_bin_add(bin, src);
  if (decoder != NULL) gst_bin_add(bin, decoder);
  if (src == NULL || decoder == NULL) return NULL;
  g_object_set(src, "location", branch->location, NULL);
  return gst_element_link(src, decoder) ? decoder : NULL;
}

gboolean AddBranch(GstElement* pipeline, GstElement* cmp, const char* pad_name,
                   Branch* branch) {
  branch->element = cmp;
  branch->bin = gst_bin_new(branch->role);
  gst_bin_add(GST_BIN(pipeline), branch->bin);
  GstElement* decoder = AddSource(branch);
  branch->convert = gst_element_factory_make("videoconvert", NULL);
  GstElement* scale = branch->scale ? gst_element_factory_make("videoscale", NULL) : NULL;
  branch->filter = gst_element_factory_make("capsfilter", NULL);
  if (decoder == NULL || branch->convert == NULL || (branch->scale && scale == NULL) ||
      branch->filter == NULL) {
    fprintf(stderr, "ssimulacra2cmp-compare: filesrc, decodebin, uridecodebin, rawvideoparse, "
                    "videoconvert, videoscale or capsfilter is missing; install "
                    "gstreamer1.0-plugins-base.\n");
    return FALSE;
  }
  gst_bin_add_many(GST_BIN(branch->bin), branch->convert, branch->filter, NULL);
  gboolean linked;
  if (scale != NULL) {
    // Stretched to the reference's size and pixel aspect, as scale2ref in
    // ffmpeg: black borders would be scored as if they were picture.
    g_object_set(scale, "add-borders", FALSE, NULL);
    gst_bin_add(GST_BIN(branch->bin), scale);
    linked = gst_element_link_many(branch->convert, scale, branch->filter, NULL);
  } else {
    linked = gst_element_link(branch->convert, branch->filter);
  }
  if (branch->raw != NULL) {
    linked = linked && gst_element_link(decoder, branch->convert);
  } else {
    g_signal_connect(decoder, "pad-added", G_CALLBACK(OnPadAdded), branch);
    g_signal_connect(decoder, "no-more-pads", G_CALLBACK(OnNoMorePads), branch);
  }
  GstPad* decoded = gst_element_get_static_pad(branch->convert, "sink");
  gst_pad_add_probe(decoded, GST_PAD_PROBE_TYPE_BUFFER, NumberAndSelect, branch, NULL);
  gst_object_unref(decoded);
  GstPad* out = gst_element_get_static_pad(branch->filter, "src");
  GstPad* ghost = gst_ghost_pad_new("src", out);
  gst_object_unref(out);
  gst_element_add_pad(branch->bin, ghost);
  return linked && gst_element_link_pads(branch->bin, "src", cmp, pad_name);
}

const Branch* BranchOf(GstObject* object, const Branch* branches, int count) {
  for (int i = 0; i < count; ++i) {
    if (branches[i].bin != NULL && gst_object_has_as_ancestor(object, GST_OBJECT(branches[i].bin))) {
      return &branches[i];
    }
  }
  return NULL;
}
