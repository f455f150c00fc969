// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare REF DIST: scores a distorted image or video file
// against its reference with the ssimulacra2cmp element and prints one line
// per scored frame and the summary. The pipeline is
//
//   filesrc location=REF  ! decodebin ! videoconvert ! cmp.ref_sink
//   filesrc location=DIST ! decodebin ! videoconvert ! cmp.dist_sink
//   ssimulacra2cmp name=cmp ! fakesink
//
// videoconvert stays in passthrough whenever the decoder's format is one the
// element scores, so a PNG is scored on its own RGB samples (the canonical
// tool's input) and a YUV video on its own YUV. Everything printed comes
// from the element's bus messages; field names are the element's.
//
// The plugin is looked up like any GStreamer plugin: installed, or from a
// build tree with GST_PLUGIN_PATH=<builddir>/gst, or inside
// `meson devenv -C <builddir>`, which sets GST_PLUGIN_PATH.
#include <gst/gst.h>

#include <stdio.h>
#include <string.h>

typedef enum { kFormatText, kFormatJsonl, kFormatCsv } OutputFormat;

// Exit codes: 0 scored, 1 the comparison failed, 2 the command line is wrong.
enum { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

static const char kElementName[] = "ssimulacra2cmp";

typedef struct {
  OutputFormat format;
  guint64 frames_scored;
  guint64 ref_unpaired;
  guint64 dist_unpaired;
  gboolean have_summary;
} Report;

// ---- Output -------------------------------------------------------------

// H:MM:SS.mmm, or "none" for an untimestamped buffer.
static void PrintPts(guint64 t) {
  if (t == GST_CLOCK_TIME_NONE) {
    fputs("none", stdout);
    return;
  }
  const guint64 ms = t / GST_MSECOND;
  printf("%" G_GUINT64_FORMAT ":%02u:%02u.%03u", ms / 3600000,
         (unsigned)(ms / 60000 % 60), (unsigned)(ms / 1000 % 60),
         (unsigned)(ms % 1000));
}

static guint64 GetU64(const GstStructure* s, const char* field) {
  guint64 v = GST_CLOCK_TIME_NONE;
  gst_structure_get_uint64(s, field, &v);
  return v;
}

static void PrintJsonString(const char* str) {
  putchar('"');
  for (const unsigned char* c = (const unsigned char*)str; *c != '\0'; ++c) {
    if (*c == '"' || *c == '\\') {
      printf("\\%c", *c);
    } else if (*c < 0x20) {
      printf("\\u%04x", *c);
    } else {
      putchar(*c);
    }
  }
  putchar('"');
}

// One JSON object per message, every field as the element names it. Doubles
// keep all 17 significant digits; an unset time (GST_CLOCK_TIME_NONE) is null.
static gboolean PrintJsonField(GQuark field, const GValue* value, gpointer user_data) {
  gboolean* first = user_data;
  fputs(*first ? "{" : ",", stdout);
  *first = FALSE;
  PrintJsonString(g_quark_to_string(field));
  putchar(':');
  if (G_VALUE_HOLDS_DOUBLE(value)) {
    printf("%.17g", g_value_get_double(value));
  } else if (G_VALUE_HOLDS_UINT64(value)) {
    const guint64 v = g_value_get_uint64(value);
    if (v == G_MAXUINT64) {
      fputs("null", stdout);
    } else {
      printf("%" G_GUINT64_FORMAT, v);
    }
  } else if (G_VALUE_HOLDS_STRING(value)) {
    PrintJsonString(g_value_get_string(value));
  } else {
    gchar* text = gst_value_serialize(value);
    PrintJsonString(text != NULL ? text : "");
    g_free(text);
  }
  return TRUE;
}

static void PrintJson(const GstStructure* s) {
  gboolean first = TRUE;
  gst_structure_foreach(s, PrintJsonField, &first);
  puts("}");
}

static void PrintFrame(const GstStructure* s, OutputFormat format) {
  double score = 0.0;
  gst_structure_get_double(s, "score", &score);
  const guint64 index = GetU64(s, "frame-index");
  const guint64 pts = GetU64(s, "timestamp");
  switch (format) {
    case kFormatText:
      printf("frame %" G_GUINT64_FORMAT " pts ", index);
      PrintPts(pts);
      printf(" score %.8f\n", score);
      break;
    case kFormatJsonl:
      PrintJson(s);
      break;
    case kFormatCsv: {
      const guint64 dist_pts = GetU64(s, "dist-timestamp");
      printf("%" G_GUINT64_FORMAT ",", index);
      if (pts != GST_CLOCK_TIME_NONE) printf("%" G_GUINT64_FORMAT, pts);
      putchar(',');
      if (dist_pts != GST_CLOCK_TIME_NONE) printf("%" G_GUINT64_FORMAT, dist_pts);
      printf(",%.17g\n", score);
      break;
    }
  }
}

// "summary name value ..." on one line: counts as integers, scores with the
// per-frame lines' 8 decimals.
static gboolean PrintTextField(GQuark field, const GValue* value, gpointer user_data) {
  FILE* out = user_data;
  const char* name = g_quark_to_string(field);
  if (strcmp(name, "type") == 0 || strcmp(name, "reason") == 0) return TRUE;
  if (G_VALUE_HOLDS_DOUBLE(value)) {
    fprintf(out, " %s %.8f", name, g_value_get_double(value));
  } else if (G_VALUE_HOLDS_UINT64(value)) {
    fprintf(out, " %s %" G_GUINT64_FORMAT, name, g_value_get_uint64(value));
  }
  return TRUE;
}

static void PrintSummary(const GstStructure* s, Report* report) {
  report->have_summary = TRUE;
  report->frames_scored = GetU64(s, "frames-scored");
  report->ref_unpaired = GetU64(s, "ref-unpaired");
  report->dist_unpaired = GetU64(s, "dist-unpaired");
  if (report->format == kFormatJsonl) {
    PrintJson(s);
    return;
  }
  // CSV keeps stdout to one table; its summary goes to stderr.
  FILE* out = report->format == kFormatCsv ? stderr : stdout;
  fputs("summary", out);
  gst_structure_foreach(s, PrintTextField, out);
  fputc('\n', out);
}

// ---- Pipeline -----------------------------------------------------------

typedef struct {
  const char* role;  // "reference" or "distorted"
  const char* location;
  GstElement* convert;  // where the first video stream goes
} Branch;

static void PostBranchError(GstElement* from, const Branch* branch, const char* what) {
  GError* error = g_error_new(GST_STREAM_ERROR, GST_STREAM_ERROR_WRONG_TYPE,
                              "%s \"%s\": %s", branch->role, branch->location, what);
  gst_element_post_message(from, gst_message_new_error(GST_OBJECT(from), error, NULL));
  g_error_free(error);
}

// The first video stream of a file is compared; any other stream (audio, a
// second video track) is drained into a fakesink so the demuxer keeps going.
static void OnPadAdded(GstElement* decodebin, GstPad* pad, gpointer user_data) {
  const Branch* branch = user_data;
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

// filesrc ! decodebin ! videoconvert ! cmp.<pad_name>
static gboolean AddBranch(GstElement* pipeline, GstElement* cmp, const char* pad_name,
                          Branch* branch) {
  GstElement* src = gst_element_factory_make("filesrc", NULL);
  GstElement* decode = gst_element_factory_make("decodebin", NULL);
  branch->convert = gst_element_factory_make("videoconvert", NULL);
  if (src == NULL || decode == NULL || branch->convert == NULL) {
    fprintf(stderr, "ssimulacra2cmp-compare: filesrc, decodebin or videoconvert is "
                    "missing; install gstreamer1.0-plugins-base.\n");
    return FALSE;
  }
  g_object_set(src, "location", branch->location, NULL);
  gst_bin_add_many(GST_BIN(pipeline), src, decode, branch->convert, NULL);
  g_signal_connect(decode, "pad-added", G_CALLBACK(OnPadAdded), branch);
  g_signal_connect(decode, "no-more-pads", G_CALLBACK(OnNoMorePads), branch);
  return gst_element_link(src, decode) &&
         gst_element_link_pads(branch->convert, "src", cmp, pad_name);
}

// ---- Main ---------------------------------------------------------------

static gboolean ParseFormat(const char* name, OutputFormat* out) {
  if (strcmp(name, "text") == 0) {
    *out = kFormatText;
  } else if (strcmp(name, "jsonl") == 0) {
    *out = kFormatJsonl;
  } else if (strcmp(name, "csv") == 0) {
    *out = kFormatCsv;
  } else {
    return FALSE;
  }
  return TRUE;
}

static gboolean IsBackend(const char* name) {
  return strcmp(name, "auto") == 0 || strcmp(name, "cpu") == 0 ||
         strcmp(name, "cuda") == 0;
}

// Runs the pipeline to EOS or the first error, printing as messages come.
static int Run(GstElement* pipeline, Report* report) {
  GstBus* bus = gst_element_get_bus(pipeline);
  int rc = kExitOk;
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    rc = kExitFailed;  // the error message on the bus says why
  }
  for (gboolean done = FALSE; !done;) {
    GstMessage* msg = gst_bus_timed_pop_filtered(
        bus, rc == kExitOk ? GST_CLOCK_TIME_NONE : 0,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT);
    if (msg == NULL) break;
    switch (GST_MESSAGE_TYPE(msg)) {
      case GST_MESSAGE_ELEMENT: {
        const GstStructure* s = gst_message_get_structure(msg);
        const char* type = gst_structure_get_string(s, "type");
        if (!gst_structure_has_name(s, kElementName) || type == NULL) break;
        if (strcmp(type, "frame") == 0) PrintFrame(s, report->format);
        if (strcmp(type, "summary") == 0) PrintSummary(s, report);
        break;
      }
      case GST_MESSAGE_WARNING:
      case GST_MESSAGE_ERROR: {
        const gboolean error = GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR;
        GError* err = NULL;
        gchar* debug = NULL;
        if (error) {
          gst_message_parse_error(msg, &err, &debug);
        } else {
          gst_message_parse_warning(msg, &err, &debug);
        }
        fprintf(stderr, "ssimulacra2cmp-compare: %s from %s: %s\n",
                error ? "error" : "warning", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)),
                err->message);
        if (debug != NULL) fprintf(stderr, "  (%s)\n", debug);
        g_clear_error(&err);
        g_free(debug);
        if (error) {
          rc = kExitFailed;
          done = TRUE;
        }
        break;
      }
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      default:
        break;
    }
    gst_message_unref(msg);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  return rc;
}

// GStreamer 1.22's pngdec decodes 16-bit RGB PNGs without alpha wrongly
// (docs/element.md, "Known issue outside the element"), and a score of those
// pixels would be a wrong number printed as if right. Such a file is
// recognised from its header (PNG signature, then IHDR: bit depth 16, colour
// type 2) and refused before any decoding.
static gboolean IsSixteenBitRgbPng(const char* path) {
  static const guchar kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  guchar head[26];
  FILE* f = fopen(path, "rb");
  if (f == NULL) return FALSE;
  const size_t got = fread(head, 1, sizeof head, f);
  fclose(f);
  return got == sizeof head && memcmp(head, kSignature, 8) == 0 &&
         memcmp(head + 12, "IHDR", 4) == 0 && head[24] == 16 && head[25] == 2;
}

int main(int argc, char** argv) {
  gchar* backend = NULL;
  gchar* format_name = NULL;
  GOptionEntry entries[] = {
      {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
       "auto (CUDA when a device works, else CPU), cpu or cuda; default auto", "NAME"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
       "text (default), jsonl, or csv (the summary then goes to stderr)", "FORMAT"},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  GOptionContext* context = g_option_context_new(
      "REF DIST - score DIST against REF with SSIMULACRA 2.1");
  g_option_context_set_description(
      context,
      "REF and DIST are image or video files GStreamer can decode. Frames pair by\n"
      "timestamp; still images pair in arrival order. One line per scored frame,\n"
      "then a summary. Exit status: 0 scored, 1 failed, 2 usage error.\n"
      "From a build tree: GST_PLUGIN_PATH=<builddir>/gst, or meson devenv -C <builddir>.\n");
  g_option_context_add_main_entries(context, entries, NULL);
  g_option_context_add_group(context, gst_init_get_option_group());
  GError* error = NULL;
  Report report = {kFormatText, 0, 0, 0, FALSE};
  int rc = kExitOk;
  if (!g_option_context_parse(context, &argc, &argv, &error)) {
    fprintf(stderr, "ssimulacra2cmp-compare: %s\n", error->message);
    g_clear_error(&error);
    rc = kExitUsage;
  } else if (argc != 3) {
    fprintf(stderr, "usage: ssimulacra2cmp-compare [--backend auto|cpu|cuda] "
                    "[--format text|jsonl|csv] REF DIST\n");
    rc = kExitUsage;
  } else if (backend != NULL && !IsBackend(backend)) {
    fprintf(stderr, "ssimulacra2cmp-compare: unknown backend \"%s\" "
                    "(auto, cpu or cuda)\n", backend);
    rc = kExitUsage;
  } else if (format_name != NULL && !ParseFormat(format_name, &report.format)) {
    fprintf(stderr, "ssimulacra2cmp-compare: unknown format \"%s\" "
                    "(text, jsonl or csv)\n", format_name);
    rc = kExitUsage;
  }
  g_option_context_free(context);
  for (int i = 1; rc == kExitOk && i < 3; ++i) {
    if (!g_file_test(argv[i], G_FILE_TEST_IS_REGULAR)) {
      fprintf(stderr, "ssimulacra2cmp-compare: %s \"%s\": no such file\n",
              i == 1 ? "reference" : "distorted", argv[i]);
      rc = kExitUsage;
    } else if (IsSixteenBitRgbPng(argv[i])) {
      fprintf(stderr,
              "ssimulacra2cmp-compare: %s \"%s\" is a 16-bit RGB PNG, which GStreamer "
              "1.22's pngdec decodes wrongly, so no score would be right; not scored. "
              "Decode it with another tool (docs/element.md, \"Known issue outside the "
              "element\").\n",
              i == 1 ? "reference" : "distorted", argv[i]);
      rc = kExitFailed;
    }
  }
  if (rc != kExitOk) {
    g_free(backend);
    g_free(format_name);
    return rc;
  }

  GstElement* cmp = gst_element_factory_make(kElementName, "cmp");
  if (cmp == NULL) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: the ssimulacra2cmp GStreamer plugin was not found.\n"
            "  From a build tree: GST_PLUGIN_PATH=<builddir>/gst %s REF DIST,\n"
            "  or run it inside `meson devenv -C <builddir>`.\n",
            argv[0]);
    g_free(backend);
    g_free(format_name);
    return kExitFailed;
  }
  if (backend != NULL) gst_util_set_object_arg(G_OBJECT(cmp), "backend", backend);
  GstElement* pipeline = gst_pipeline_new("compare");
  GstElement* sink = gst_element_factory_make("fakesink", NULL);
  g_object_set(sink, "sync", FALSE, NULL);
  gst_bin_add_many(GST_BIN(pipeline), cmp, sink, NULL);
  Branch ref = {"reference", argv[1], NULL};
  Branch dist = {"distorted", argv[2], NULL};
  if (!gst_element_link(cmp, sink) || !AddBranch(pipeline, cmp, "ref_sink", &ref) ||
      !AddBranch(pipeline, cmp, "dist_sink", &dist)) {
    fprintf(stderr, "ssimulacra2cmp-compare: could not build the pipeline\n");
    rc = kExitFailed;
  }
  if (rc == kExitOk && report.format == kFormatCsv) {
    puts("frame,timestamp,dist_timestamp,score");
  }
  if (rc == kExitOk) rc = Run(pipeline, &report);
  if (rc == kExitOk && (!report.have_summary || report.frames_scored == 0)) {
    fprintf(stderr, "ssimulacra2cmp-compare: no frame pair was scored\n");
    rc = kExitFailed;
  }
  if (rc == kExitOk && (report.ref_unpaired > 0 || report.dist_unpaired > 0)) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames had no partner with the same timestamp and were not "
            "scored (docs/cookbook.md, \"Unpaired frames\")\n",
            report.ref_unpaired, report.dist_unpaired);
  }
  gst_object_unref(pipeline);
  g_free(backend);
  g_free(format_name);
  return rc;
}
