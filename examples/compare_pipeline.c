// SPDX-License-Identifier: BSD-3-Clause
#include "compare_pipeline.h"

#include <stdio.h>
#include <string.h>

gboolean IsUri(const char* location) { return strstr(location, "://") != NULL; }

static void PostBranchError(GstElement* from, const Branch* branch, const char* what) {
  GError* error = g_error_new(GST_STREAM_ERROR, GST_STREAM_ERROR_WRONG_TYPE,
                              "%s \"%s\": %s", branch->role, branch->location, what);
  gst_element_post_message(from, gst_message_new_error(GST_OBJECT(from), error, NULL));
  g_error_free(error);
}

// --start/--end and --every on the decoded frames of one input: frames
// before `start` are dropped, the first at or after `end` ends the input
// (GST_FLOW_EOS upstream, which then sends EOS down), and of the rest only
// frames 0, N, 2N, ... reach the element. Both inputs drop the same frames,
// so the kept ones still pair by timestamp.
static GstPadProbeReturn SelectFrames(GstPad* pad, GstPadProbeInfo* info, gpointer user_data) {
  (void)pad;
  Branch* branch = user_data;
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  const GstClockTime pts = GST_BUFFER_PTS(buffer);
  if (GST_CLOCK_TIME_IS_VALID(pts) && GST_CLOCK_TIME_IS_VALID(branch->end) &&
      pts >= branch->end) {
    gst_buffer_unref(buffer);
    GST_PAD_PROBE_INFO_FLOW_RETURN(info) = GST_FLOW_EOS;
    return GST_PAD_PROBE_HANDLED;
  }
  if (GST_CLOCK_TIME_IS_VALID(pts) && pts < branch->start) return GST_PAD_PROBE_DROP;
  return branch->frames_seen++ % branch->every == 0 ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP;
}

// The first video stream of an input is compared; any other stream (audio,
// a second video track) is drained into a fakesink so the demuxer goes on.
static void OnPadAdded(GstElement* decodebin, GstPad* pad, gpointer user_data) {
  Branch* branch = user_data;
  GstCaps* caps = gst_pad_get_current_caps(pad);
  if (caps == NULL) caps = gst_pad_query_caps(pad, NULL);
  const gboolean video = gst_caps_get_size(caps) > 0 &&
      gst_structure_has_name(gst_caps_get_structure(caps, 0), "video/x-raw");
  gst_caps_unref(caps);
  GstPad* sink = gst_element_get_static_pad(branch->convert, "sink");
  if (video && !gst_pad_is_linked(sink)) {
    if (GST_PAD_LINK_FAILED(gst_pad_link(pad, sink))) {
      PostBranchError(decodebin, branch, "could not link the decoded video");
    }
    gst_object_unref(sink);
    return;
  }
  gst_object_unref(sink);
  GstElement* drain = gst_element_factory_make("fakesink", NULL);
  g_object_set(drain, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add(GST_BIN(GST_ELEMENT_PARENT(decodebin)), drain);
  gst_element_sync_state_with_parent(drain);
  GstPad* drain_sink = gst_element_get_static_pad(drain, "sink");
  gst_pad_link(pad, drain_sink);
  gst_object_unref(drain_sink);
}

static void OnNoMorePads(GstElement* decodebin, gpointer user_data) {
  const Branch* branch = user_data;
  GstPad* sink = gst_element_get_static_pad(branch->convert, "sink");
  if (!gst_pad_is_linked(sink)) PostBranchError(decodebin, branch, "no video stream");
  gst_object_unref(sink);
}

gboolean AddBranch(GstElement* pipeline, GstElement* cmp, const char* pad_name,
                   Branch* branch) {
  const gboolean uri = IsUri(branch->location);
  GstElement* src = uri ? NULL : gst_element_factory_make("filesrc", NULL);
  GstElement* decode = gst_element_factory_make(uri ? "uridecodebin" : "decodebin", NULL);
  branch->convert = gst_element_factory_make("videoconvert", NULL);
  if ((!uri && src == NULL) || decode == NULL || branch->convert == NULL) {
    fprintf(stderr, "ssimulacra2cmp-compare: filesrc, decodebin, uridecodebin or videoconvert "
                    "is missing; install gstreamer1.0-plugins-base.\n");
    return FALSE;
  }
  if (uri) {
    g_object_set(decode, "uri", branch->location, NULL);
  } else {
    g_object_set(src, "location", branch->location, NULL);
    gst_bin_add(GST_BIN(pipeline), src);
  }
  gst_bin_add_many(GST_BIN(pipeline), decode, branch->convert, NULL);
  g_signal_connect(decode, "pad-added", G_CALLBACK(OnPadAdded), branch);
  g_signal_connect(decode, "no-more-pads", G_CALLBACK(OnNoMorePads), branch);
  if (branch->every > 1 || branch->start > 0 || GST_CLOCK_TIME_IS_VALID(branch->end)) {
    GstPad* out = gst_element_get_static_pad(branch->convert, "src");
    gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER, SelectFrames, branch, NULL);
    gst_object_unref(out);
  }
  return (uri || gst_element_link(src, decode)) &&
         gst_element_link_pads(branch->convert, "src", cmp, pad_name);
}
