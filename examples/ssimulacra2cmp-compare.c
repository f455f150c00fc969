// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare REF DIST: scores a distorted image or video file
// against its reference with the ssimulacra2cmp element. For one pair (two
// still images) it prints the score alone, as the canonical tool does; for
// video, the summary, and with --frames a line per frame before it. The
// pipeline is
//
//   filesrc location=REF  ! decodebin ! videoconvert ! cmp.ref_sink
//   filesrc location=DIST ! decodebin ! videoconvert ! cmp.dist_sink
//   ssimulacra2cmp name=cmp ! fakesink
//
// videoconvert stays in passthrough whenever the decoder's format is one the
// element scores, so a PNG is scored on its own RGB samples (the canonical
// tool's input) and a YUV video on its own YUV. Everything printed comes
// from the element's bus messages, and the results file (-o, or --format on
// standard output) is the element's own results-location file, so the two
// are the same bytes (gst/results_writer.h has the schema).
//
// The plugin is looked up like any GStreamer plugin: installed, or from a
// build tree with GST_PLUGIN_PATH=<builddir>/gst, or inside
// `meson devenv -C <builddir>`, which sets GST_PLUGIN_PATH.
#include <gst/gst.h>

#include <stdio.h>
#include <string.h>

// Exit codes: 0 scored, 1 the comparison failed, 2 the command line is wrong.
enum { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

static const char kElementName[] = "ssimulacra2cmp";

typedef struct {
  gboolean frames;     // --frames: a text line per frame
  gboolean text;       // text on standard output (not a results format)
  guint64 frames_scored;
  double first_score;
  GstStructure* summary;  // the last summary message's, owned
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

static void OnFrame(const GstStructure* s, Report* report) {
  double score = 0.0;
  gst_structure_get_double(s, "score", &score);
  if (report->frames_scored++ == 0) report->first_score = score;
  if (!report->text || !report->frames) return;
  printf("frame %" G_GUINT64_FORMAT " pts ", GetU64(s, "frame-index"));
  PrintPts(GetU64(s, "timestamp"));
  printf(" score %.8f\n", score);
}

// "summary name value ..." on one line: counts as integers, scores with the
// per-frame lines' 8 decimals.
static gboolean PrintTextField(GQuark field, const GValue* value, gpointer user_data) {
  (void)user_data;
  const char* name = g_quark_to_string(field);
  if (strcmp(name, "type") == 0 || strcmp(name, "reason") == 0) return TRUE;
  if (G_VALUE_HOLDS_DOUBLE(value)) {
    printf(" %s %.8f", name, g_value_get_double(value));
  } else if (G_VALUE_HOLDS_UINT64(value)) {
    printf(" %s %" G_GUINT64_FORMAT, name, g_value_get_uint64(value));
  }
  return TRUE;
}

// After the run: one pair's score alone, else the summary line.
static void PrintResult(const Report* report) {
  if (!report->text || report->summary == NULL) return;
  if (report->frames_scored == 1 && !report->frames) {
    printf("%.8f\n", report->first_score);
    return;
  }
  fputs("summary", stdout);
  gst_structure_foreach(report->summary, PrintTextField, NULL);
  putchar('\n');
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

static gboolean IsFormat(const char* name) {
  return strcmp(name, "json") == 0 || strcmp(name, "jsonl") == 0 || strcmp(name, "csv") == 0;
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
        if (strcmp(type, "frame") == 0) OnFrame(s, report);
        if (strcmp(type, "summary") == 0) {
          if (report->summary != NULL) gst_structure_free(report->summary);
          report->summary = gst_structure_copy(s);
        }
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
  gchar* output = NULL;
  gboolean frames = FALSE;
  GOptionEntry entries[] = {
      {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
       "auto (CUDA when a device works, else CPU), cpu or cuda; default auto", "NAME"},
      {"frames", 0, 0, G_OPTION_ARG_NONE, &frames,
       "print a line per scored frame before the summary", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
       "write the results file (one schema: docs/element.md, \"Results file\") to FILE", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
       "json (libvmaf's layout; the default with -o), jsonl or csv: the results file's "
       "format; without -o it goes to standard output instead of the text", "FORMAT"},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  GOptionContext* context = g_option_context_new(
      "REF DIST - score DIST against REF with SSIMULACRA 2.1");
  g_option_context_set_description(
      context,
      "REF and DIST are image or video files GStreamer can decode. Frames pair by\n"
      "timestamp; still images pair in arrival order. For one pair the score alone,\n"
      "else the summary (and with --frames a line per frame before it).\n"
      "Exit status: 0 scored, 1 failed, 2 usage error.\n"
      "From a build tree: GST_PLUGIN_PATH=<builddir>/gst, or meson devenv -C <builddir>.\n");
  g_option_context_add_main_entries(context, entries, NULL);
  g_option_context_add_group(context, gst_init_get_option_group());
  GError* error = NULL;
  int rc = kExitOk;
  if (!g_option_context_parse(context, &argc, &argv, &error)) {
    fprintf(stderr, "ssimulacra2cmp-compare: %s\n", error->message);
    g_clear_error(&error);
    rc = kExitUsage;
  } else if (argc != 3) {
    fprintf(stderr, "usage: ssimulacra2cmp-compare [--backend auto|cpu|cuda] [--frames] "
                    "[-o FILE] [--format json|jsonl|csv] REF DIST\n");
    rc = kExitUsage;
  } else if (backend != NULL && !IsBackend(backend)) {
    fprintf(stderr, "ssimulacra2cmp-compare: unknown backend \"%s\" "
                    "(auto, cpu or cuda)\n", backend);
    rc = kExitUsage;
  } else if (format_name != NULL && !IsFormat(format_name)) {
    fprintf(stderr, "ssimulacra2cmp-compare: unknown format \"%s\" "
                    "(json, jsonl or csv)\n", format_name);
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
  GstElement* cmp = rc == kExitOk ? gst_element_factory_make(kElementName, "cmp") : NULL;
  if (rc == kExitOk && cmp == NULL) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: the ssimulacra2cmp GStreamer plugin was not found.\n"
            "  From a build tree: GST_PLUGIN_PATH=<builddir>/gst %s REF DIST,\n"
            "  or run it inside `meson devenv -C <builddir>`.\n",
            argv[0]);
    rc = kExitFailed;
  }
  Report report = {frames, TRUE, 0, 0.0, NULL};
  GstElement* pipeline = NULL;
  if (rc == kExitOk) {
    if (backend != NULL) gst_util_set_object_arg(G_OBJECT(cmp), "backend", backend);
    // The results file is the element's: -o FILE, or standard output in
    // place of the text when only --format is given.
    if (output != NULL || format_name != NULL) {
      report.text = output != NULL;
      g_object_set(cmp, "results-location", output != NULL ? output : "/dev/stdout", NULL);
      gst_util_set_object_arg(G_OBJECT(cmp), "results-format",
                              format_name != NULL ? format_name : "json");
    }
    pipeline = gst_pipeline_new("compare");
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
    if (rc == kExitOk) rc = Run(pipeline, &report);
  }
  const guint64 ref_unpaired = report.summary ? GetU64(report.summary, "ref-unpaired") : 0;
  const guint64 dist_unpaired = report.summary ? GetU64(report.summary, "dist-unpaired") : 0;
  if (rc == kExitOk && (report.summary == NULL || report.frames_scored == 0)) {
    fprintf(stderr, "ssimulacra2cmp-compare: no frame pair was scored\n");
    rc = kExitFailed;
  }
  if (rc == kExitOk) PrintResult(&report);
  if (rc == kExitOk && (ref_unpaired > 0 || dist_unpaired > 0)) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames had no partner with the same timestamp and were not "
            "scored (docs/cookbook.md, \"Unpaired frames\")\n",
            ref_unpaired, dist_unpaired);
  }
  if (report.summary != NULL) gst_structure_free(report.summary);
  if (pipeline != NULL) gst_object_unref(pipeline);  // and cmp in it
  g_free(backend);
  g_free(format_name);
  g_free(output);
  return rc;
}
