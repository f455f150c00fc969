// SPDX-License-Identifier: BSD-3-Clause
// print-scores [FRAMES]: embeds a pipeline that scores a test pattern against
// a JPEG-degraded copy of itself, and reads every score twice:
//
//   - from the bus: the element message named "ssimulacra2cmp" with
//     type "frame" (fields score, frame-index, timestamp, ...);
//   - from the buffer: the GstCustomMeta "Ssimulacra2CmpMeta" that the
//     element attaches to each scored reference buffer it sends downstream
//     (read here by a pad probe on its src pad; any element further down
//     could read it the same way).
//
// Both are printed as they arrive, and at the end the program checks that
// they agree to the bit for every frame. It needs no header from this
// project: messages and meta are plain GstStructures.
#include <gst/gst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kMetaName[] = "Ssimulacra2CmpMeta";

typedef struct {
  guint64 index;
  double score;
} Score;

typedef struct {
  GMutex lock;  // the probe runs on a streaming thread, the bus on main
  GArray* from_meta;  // Score, in arrival order
} MetaLog;

static GstPadProbeReturn OnOutputBuffer(GstPad* pad, GstPadProbeInfo* info,
                                        gpointer user_data) {
  (void)pad;
  MetaLog* log = user_data;
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  // Reference frames that found no partner go out without the meta.
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, kMetaName);
  if (meta == NULL) return GST_PAD_PROBE_OK;
  const GstStructure* s = gst_custom_meta_get_structure(meta);
  Score score = {0, 0.0};
  if (!gst_structure_get_uint64(s, "frame-index", &score.index) ||
      !gst_structure_get_double(s, "score", &score.score)) {
    return GST_PAD_PROBE_OK;
  }
  printf("meta frame %" G_GUINT64_FORMAT " score %.8f\n", score.index, score.score);
  g_mutex_lock(&log->lock);
  g_array_append_val(log->from_meta, score);
  g_mutex_unlock(&log->lock);
  return GST_PAD_PROBE_OK;
}

// Bit equality: the element promises the same double on both paths.
static gboolean SameScores(const GArray* a, const GArray* b) {
  if (a->len != b->len) {
    fprintf(stderr, "print-scores: %u scores on the bus but %u in the meta\n", a->len,
            b->len);
    return FALSE;
  }
  gboolean same = TRUE;
  for (guint i = 0; i < a->len; ++i) {
    const Score* x = &g_array_index(a, Score, i);
    const Score* y = &g_array_index(b, Score, i);
    if (x->index != y->index || memcmp(&x->score, &y->score, sizeof(double)) != 0) {
      fprintf(stderr,
              "print-scores: entry %u differs: bus frame %" G_GUINT64_FORMAT
              " score %.17g, meta frame %" G_GUINT64_FORMAT " score %.17g\n",
              i, x->index, x->score, y->index, y->score);
      same = FALSE;
    }
  }
  return same;
}

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const int frames = argc > 1 ? atoi(argv[1]) : 30;
  if (frames <= 0) {
    fprintf(stderr, "usage: print-scores [FRAMES]\n");
    return 2;
  }
  // The degraded branch is fed RGB: jpegenc given limited-range YUV stores
  // those bytes unchanged while jpegdec labels the result full range, which
  // would score a range error instead of the compression.
  gchar* description = g_strdup_printf(
      "videotestsrc num-buffers=%d pattern=smpte horizontal-speed=2 "
      "! video/x-raw,format=RGB,width=320,height=240,framerate=30/1 ! tee name=t "
      "t. ! queue ! cmp.ref_sink "
      "t. ! queue ! jpegenc quality=20 ! jpegdec ! cmp.dist_sink "
      "ssimulacra2cmp name=cmp ! fakesink",
      frames);
  GError* error = NULL;
  GstElement* pipeline = gst_parse_launch(description, &error);
  g_free(description);
  if (pipeline == NULL) {
    fprintf(stderr, "print-scores: %s\n(is GST_PLUGIN_PATH set to <builddir>/gst?)\n",
            error->message);
    g_clear_error(&error);
    return 1;
  }
  if (error != NULL) {
    // A recoverable parse problem (typically a missing element).
    fprintf(stderr, "print-scores: %s\n", error->message);
    g_clear_error(&error);
    gst_object_unref(pipeline);
    return 1;
  }

  MetaLog log;
  g_mutex_init(&log.lock);
  log.from_meta = g_array_new(FALSE, FALSE, sizeof(Score));
  GArray* from_bus = g_array_new(FALSE, FALSE, sizeof(Score));
  GstElement* cmp = gst_bin_get_by_name(GST_BIN(pipeline), "cmp");
  GstPad* src = gst_element_get_static_pad(cmp, "src");
  gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, OnOutputBuffer, &log, NULL);
  gst_object_unref(src);
  gst_object_unref(cmp);

  int rc = 0;
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (gboolean done = FALSE; !done;) {
    GstMessage* msg = gst_bus_timed_pop_filtered(
        bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    const GstStructure* s = gst_message_get_structure(msg);
    switch (GST_MESSAGE_TYPE(msg)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_structure_has_name(s, "ssimulacra2cmp") &&
            g_strcmp0(gst_structure_get_string(s, "type"), "frame") == 0) {
          Score score = {0, 0.0};
          gst_structure_get_uint64(s, "frame-index", &score.index);
          gst_structure_get_double(s, "score", &score.score);
          printf("bus  frame %" G_GUINT64_FORMAT " score %.8f\n", score.index,
                 score.score);
          g_array_append_val(from_bus, score);
        } else if (gst_structure_has_name(s, "ssimulacra2cmp") &&
                   g_strcmp0(gst_structure_get_string(s, "type"), "summary") == 0) {
          gchar* text = gst_structure_to_string(s);
          printf("%s\n", text);
          g_free(text);
        }
        break;
      case GST_MESSAGE_ERROR: {
        gchar* debug = NULL;
        gst_message_parse_error(msg, &error, &debug);
        fprintf(stderr, "print-scores: error from %s: %s\n  (%s)\n",
                GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)), error->message,
                debug != NULL ? debug : "");
        g_clear_error(&error);
        g_free(debug);
        rc = 1;
        done = TRUE;
        break;
      }
      default:  // EOS: the summary was posted before it
        done = TRUE;
        break;
    }
    gst_message_unref(msg);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);  // no probe runs after this

  if (rc == 0 && from_bus->len == 0) {
    fprintf(stderr, "print-scores: no frame was scored\n");
    rc = 1;
  }
  if (rc == 0 && !SameScores(from_bus, log.from_meta)) rc = 1;
  if (rc == 0) printf("bus and meta agree on all %u scores\n", from_bus->len);

  g_array_free(from_bus, TRUE);
  g_array_free(log.from_meta, TRUE);
  g_mutex_clear(&log.lock);
  gst_object_unref(bus);
  gst_object_unref(pipeline);
  return rc;
}
