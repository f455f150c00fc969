// SPDX-License-Identifier: BSD-3-Clause
#include "compare_convert.h"

#include <gst/video/video.h>
#include <stdio.h>

static const char* const kRoles[2] = {"reference", "distorted"};

static const char* FormatOf(const GstCaps* caps) {
  return gst_structure_get_string(gst_caps_get_structure(caps, 0), "format");
}

// A YUV format that the element takes on its sink pads.
static gboolean IsTakenYuv(const Conversion* c, const char* format) {
  const GstVideoFormatInfo* info =
      gst_video_format_get_info(gst_video_format_from_string(format));
  if (info == NULL || !GST_VIDEO_FORMAT_INFO_IS_YUV(info)) return FALSE;
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, format, NULL);
  const gboolean taken = gst_caps_can_intersect(caps, c->taken);
  gst_caps_unref(caps);
  return taken;
}

// SSIM's one format (a copy): the reference's when the element takes it,
// else the distorted input's, else I420, 4:2:0 like most of dump_ssim's
// inputs and the format the element's own message suggests.
static gchar* SsimFormat(const Conversion* c) {
  for (int i = 0; i < 2; ++i) {
    const char* format = FormatOf(c->decoded[i]);
    if (format != NULL && IsTakenYuv(c, format)) return g_strdup(format);
  }
  return g_strdup("I420");
}

static void NoteConversion(Conversion* c, int i, const char* format) {
  const char* decoded = FormatOf(c->decoded[i]);
  if (c->noted[i] || decoded == NULL || g_strcmp0(decoded, format) == 0) return;
  c->noted[i] = TRUE;
  fprintf(stderr,
          "ssimulacra2cmp-compare: note: the %s input decodes to %s; SSIM compares YUV of "
          "one format, so it is converted to %s%s\n",
          kRoles[i], decoded, format,
          c->note_scores ? ", and SSIMULACRA 2 scores the converted frames too" : "");
}

// The caps each input is converted to, from both decoded caps.
static void Agree(Conversion* c) {
  gchar* format = c->yuv ? SsimFormat(c) : NULL;
  const GstStructure* ref = gst_caps_get_structure(c->decoded[0], 0);
  for (int i = 0; i < 2; ++i) {
    GstCaps* caps = gst_caps_new_empty_simple("video/x-raw");
    GstStructure* s = gst_caps_get_structure(caps, 0);
    if (format != NULL) {
      gst_structure_set(s, "format", G_TYPE_STRING, format, NULL);
      NoteConversion(c, i, format);
    }
    if (c->branches[i]->scale) {
      gint width = 0, height = 0, par_n = 1, par_d = 1;
      gst_structure_get_int(ref, "width", &width);
      gst_structure_get_int(ref, "height", &height);
      gst_structure_get_fraction(ref, "pixel-aspect-ratio", &par_n, &par_d);
      gst_structure_set(s, "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
                        "pixel-aspect-ratio", GST_TYPE_FRACTION, par_n, par_d, NULL);
    }
    GstCaps* current = NULL;
    g_object_get(c->branches[i]->filter, "caps", &current, NULL);
    if (current == NULL || !gst_caps_is_equal(current, caps)) {
      g_object_set(c->branches[i]->filter, "caps", caps, NULL);
    }
    if (current != NULL) gst_caps_unref(current);
    gst_caps_unref(caps);
  }
  g_free(format);
}

// Lets both inputs go on: removing a blocking probe wakes its pad.
static void ReleaseBoth(Conversion* c) {
  for (int i = 0; i < 2; ++i) {
    if (c->waits[i] == 0) continue;
    gst_pad_remove_probe(c->pads[i], c->waits[i]);
    c->waits[i] = 0;
  }
}

// Records an input's decoded caps; once both inputs have some, agrees on
// the conversion and lets both go on. TRUE when both are known.
static gboolean Record(Conversion* c, int i, GstEvent* caps_event) {
  GstCaps* caps = NULL;
  gst_event_parse_caps(caps_event, &caps);
  g_mutex_lock(&c->lock);
  gst_caps_replace(&c->decoded[i], caps);
  const gboolean both = c->decoded[0] != NULL && c->decoded[1] != NULL;
  if (both) {
    Agree(c);
    ReleaseBoth(c);
  }
  g_mutex_unlock(&c->lock);
  return both;
}

// The first caps of an input, in a blocking probe: they wait, and so does
// everything after them, until the other input's caps are recorded too,
// which removes this probe. The events before them pass.
static GstPadProbeReturn WaitWithCaps(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  (void)pad;
  const ConversionSide* side = data;
  GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_PASS;
  return Record(side->conversion, side->index, event) ? GST_PAD_PROBE_PASS : GST_PAD_PROBE_OK;
}

// Caps after the wait change the conversion. (An input that ended without
// caps would leave the other waiting, but decodebin and uridecodebin expose
// a pad only once its caps are known, and rawvideoparse has them from the
// options.)
static GstPadProbeReturn OnLaterCaps(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  (void)pad;
  const ConversionSide* side = data;
  GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) Record(side->conversion, side->index, event);
  return GST_PAD_PROBE_OK;
}

void StartConversion(Conversion* c, Branch* ref, Branch* dist, gboolean yuv,
                     gboolean ssimulacra2, GstElement* cmp) {
  g_mutex_init(&c->lock);
  c->yuv = yuv;
  c->note_scores = ssimulacra2;
  GstPad* sink = gst_element_get_static_pad(cmp, "ref_sink");
  c->taken = gst_pad_get_pad_template_caps(sink);
  gst_object_unref(sink);
  c->branches[0] = ref;
  c->branches[1] = dist;
  for (int i = 0; i < 2; ++i) {
    c->sides[i].conversion = c;
    c->sides[i].index = i;
    c->decoded[i] = NULL;
    c->noted[i] = FALSE;
    c->pads[i] = gst_element_get_static_pad(c->branches[i]->convert, "sink");
    gst_pad_add_probe(c->pads[i], GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, OnLaterCaps,
                      &c->sides[i], NULL);
    c->waits[i] = gst_pad_add_probe(c->pads[i],
                                    GST_PAD_PROBE_TYPE_BLOCK |
                                        GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                                    WaitWithCaps, &c->sides[i], NULL);
  }
}

void ClearConversion(Conversion* c) {
  for (int i = 0; i < 2; ++i) {
    gst_clear_caps(&c->decoded[i]);
    gst_clear_object(&c->pads[i]);
  }
  gst_clear_caps(&c->taken);
  g_mutex_clear(&c->lock);
}
