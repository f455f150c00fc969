// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare REF DIST: scores a distorted image or video (a file
// or a URI) against its reference with the ssimulacra2cmp element. For one pair (two
// still images) it prints the score alone, as the canonical tool does (with
// --metric ssim the combined raw SSIM, with both the two, space-separated);
// for video, the summary, and with --frames a line per frame before it. The
// pipeline is
//
//   filesrc location=REF  ! decodebin ! videoconvert ! cmp.ref_sink
//   filesrc location=DIST ! decodebin ! videoconvert ! cmp.dist_sink
//   ssimulacra2cmp name=cmp ! fakesink
//
// (uridecodebin for a URI). compare_pipeline.c builds it, compare_report.c
// runs it and prints; this file reads the command line.
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

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare_pipeline.h"
#include "compare_report.h"

static const char kElementName[] = "ssimulacra2cmp";

static gboolean IsFormat(const char* name) {
  return strcmp(name, "json") == 0 || strcmp(name, "jsonl") == 0 || strcmp(name, "csv") == 0;
}

// --metric's names and the element's "metrics" flags they set.
static const char* MetricsFlags(const char* name) {
  if (strcmp(name, "ssimulacra2") == 0) return "ssimulacra2";
  if (strcmp(name, "ssim") == 0) return "ssim";
  if (strcmp(name, "both") == 0) return "ssimulacra2+ssim";
  return NULL;
}

static gboolean IsBackend(const char* name) {
  return strcmp(name, "auto") == 0 || strcmp(name, "cpu") == 0 ||
         strcmp(name, "cuda") == 0;
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

// The command line, as parsed.
typedef struct {
  gchar* backend;
  gchar* metric;
  gchar* format;
  gchar* output;
  gboolean frames;
  gboolean version;
  double start, end;  // seconds of the inputs' timestamps; negative: open
  gint every;
  double dist_offset;  // seconds
  gint device;         // -1: the element's default
  gint threads;        // 0: one per core
  double threshold;    // NaN: none
} Options;

// Checks the options and the inputs; kExitOk, or the exit status with a
// message printed.
static int CheckOptions(const Options* o, int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ssimulacra2cmp-compare [OPTION...] REF DIST (--help: the options)\n");
    return kExitUsage;
  }
  const char* wrong = NULL;
  if (o->backend != NULL && !IsBackend(o->backend)) wrong = "--backend: auto, cpu or cuda";
  if (o->format != NULL && !IsFormat(o->format)) wrong = "--format: json, jsonl or csv";
  if (o->metric != NULL && MetricsFlags(o->metric) == NULL) {
    wrong = "--metric: ssimulacra2, ssim or both";
  }
  if (o->every < 1) wrong = "--every: 1 or more";
  if (o->start >= 0 && o->end >= 0 && o->end <= o->start) wrong = "--end: after --start";
  if (o->device < -1) wrong = "--device: a CUDA device number, 0 or more";
  if (o->threads < 0) wrong = "--threads: 0 (one per core) or more";
  if (wrong != NULL) {
    fprintf(stderr, "ssimulacra2cmp-compare: %s\n", wrong);
    return kExitUsage;
  }
  for (int i = 1; i < 3; ++i) {
    const char* role = i == 1 ? "reference" : "distorted";
    if (IsUri(argv[i])) continue;  // the URI's handler says what is wrong
    if (!g_file_test(argv[i], G_FILE_TEST_IS_REGULAR)) {
      fprintf(stderr, "ssimulacra2cmp-compare: %s \"%s\": no such file\n", role, argv[i]);
      return kExitUsage;
    }
    if (IsSixteenBitRgbPng(argv[i])) {
      fprintf(stderr,
              "ssimulacra2cmp-compare: %s \"%s\" is a 16-bit RGB PNG, which GStreamer "
              "1.22's pngdec decodes wrongly, so no score would be right; not scored. "
              "Decode it with another tool (docs/element.md, \"Known issue outside the "
              "element\").\n",
              role, argv[i]);
      return kExitFailed;
    }
  }
  return kExitOk;
}

// The element's properties from the options. Returns the element, or NULL
// when the plugin is not found.
static GstElement* MakeElement(const Options* o, Report* report, const char* argv0) {
  GstElement* cmp = gst_element_factory_make(kElementName, "cmp");
  if (cmp == NULL) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: the ssimulacra2cmp GStreamer plugin was not found.\n"
            "  From a build tree: GST_PLUGIN_PATH=<builddir>/gst %s REF DIST,\n"
            "  or run it inside `meson devenv -C <builddir>`.\n",
            argv0);
    return NULL;
  }
  if (o->backend != NULL) gst_util_set_object_arg(G_OBJECT(cmp), "backend", o->backend);
  if (o->device >= 0) g_object_set(cmp, "cuda-device-id", o->device, NULL);
  if (o->metric != NULL) {
    gst_util_set_object_arg(G_OBJECT(cmp), "metrics", MetricsFlags(o->metric));
  }
  g_object_set(cmp, "cpu-threads", (guint)o->threads, "dist-offset",
               (gint64)llround(o->dist_offset * GST_SECOND), NULL);
  if (!isnan(o->threshold)) g_object_set(cmp, "threshold", o->threshold, NULL);
  // The results file is the element's: -o FILE, or standard output in place
  // of the text when only --format is given.
  if (o->output != NULL || o->format != NULL) {
    report->text = o->output != NULL;
    g_object_set(cmp, "results-location", o->output != NULL ? o->output : "/dev/stdout", NULL);
    gst_util_set_object_arg(G_OBJECT(cmp), "results-format",
                            o->format != NULL ? o->format : "json");
  }
  return cmp;
}

int main(int argc, char** argv) {
  Options o = {NULL, NULL, NULL, NULL, FALSE, FALSE, -1.0, -1.0, 1, 0.0, -1, 0, NAN};
  GOptionEntry entries[] = {
      {"backend", 'b', 0, G_OPTION_ARG_STRING, &o.backend,
       "auto (CUDA when a device works, else CPU), cpu or cuda; default auto", "NAME"},
      {"metric", 'm', 0, G_OPTION_ARG_STRING, &o.metric,
       "ssimulacra2 (the default), ssim (Xiph's dump_ssim, on YUV; RGB is converted) or both",
       "NAME"},
      {"device", 'd', 0, G_OPTION_ARG_INT, &o.device, "CUDA device to score on", "N"},
      {"threads", 't', 0, G_OPTION_ARG_INT, &o.threads,
       "CPU backend threads (default 0: one per core; the scores do not change)", "N"},
      {"frames", 0, 0, G_OPTION_ARG_NONE, &o.frames,
       "print a line per scored frame before the summary", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
       "write the results file (docs/element.md, \"Results file\") to FILE", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &o.format,
       "json (libvmaf's layout; the default with -o), jsonl or csv: the results file's "
       "format; without -o it goes to standard output instead of the text", "FORMAT"},
      {"start", 0, 0, G_OPTION_ARG_DOUBLE, &o.start,
       "score the frames from this timestamp on", "SECONDS"},
      {"end", 0, 0, G_OPTION_ARG_DOUBLE, &o.end,
       "score the frames before this timestamp, and stop decoding there", "SECONDS"},
      {"every", 0, 0, G_OPTION_ARG_INT, &o.every, "score every Nth frame of each input", "N"},
      {"dist-offset", 0, 0, G_OPTION_ARG_DOUBLE, &o.dist_offset,
       "add this to the distorted input's times before pairing (negative: it runs late)",
       "SECONDS"},
      {"threshold", 0, 0, G_OPTION_ARG_DOUBLE, &o.threshold,
       "exit with status 3 when a frame scores below this", "SCORE"},
      {"version", 0, 0, G_OPTION_ARG_NONE, &o.version, "print the version and exit", NULL},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  GOptionContext* context = g_option_context_new(
      "REF DIST - score DIST against REF with SSIMULACRA 2.1");
  g_option_context_set_description(
      context,
      "REF and DIST are image or video files, or URIs, that GStreamer can decode. Frames\n"
      "pair by timestamp; still images pair in arrival order. For one pair the score\n"
      "alone, else the summary (with --frames a line per frame before it). On a terminal\n"
      "a progress line goes to standard error.\n"
      "Exit status: 0 scored, 1 failed, 2 usage error, 3 a frame below --threshold.\n"
      "From a build tree: GST_PLUGIN_PATH=<builddir>/gst, or meson devenv -C <builddir>.\n");
  g_option_context_add_main_entries(context, entries, NULL);
  g_option_context_add_group(context, gst_init_get_option_group());
  GError* error = NULL;
  int rc = kExitOk;
  if (!g_option_context_parse(context, &argc, &argv, &error)) {
    fprintf(stderr, "ssimulacra2cmp-compare: %s\n", error->message);
    g_clear_error(&error);
    rc = kExitUsage;
  } else if (!o.version) {
    rc = CheckOptions(&o, argc, argv);
  }
  g_option_context_free(context);
  if (rc == kExitOk && o.version) {
    printf("ssimulacra2cmp-compare %s\n", S2C_VERSION);
    return kExitOk;
  }
  Report report = {o.frames, TRUE, isatty(STDERR_FILENO), o.threshold, 0, 0, NULL, NULL};
  GstElement* cmp = rc == kExitOk ? MakeElement(&o, &report, argv[0]) : NULL;
  if (rc == kExitOk && cmp == NULL) rc = kExitFailed;
  GstElement* pipeline = NULL;
  const GstClockTime start = o.start > 0 ? (GstClockTime)llround(o.start * GST_SECOND) : 0;
  const GstClockTime end =
      o.end >= 0 ? (GstClockTime)llround(o.end * GST_SECOND) : GST_CLOCK_TIME_NONE;
  Branch ref = {"reference", rc == kExitOk ? argv[1] : NULL, start, end, (guint)o.every, NULL, 0};
  Branch dist = {"distorted", rc == kExitOk ? argv[2] : NULL, start, end, (guint)o.every, NULL,
                 0};
  if (rc == kExitOk) {
    pipeline = gst_pipeline_new("compare");
    GstElement* sink = gst_element_factory_make("fakesink", NULL);
    g_object_set(sink, "sync", FALSE, NULL);
    gst_bin_add_many(GST_BIN(pipeline), cmp, sink, NULL);
    if (!gst_element_link(cmp, sink) || !AddBranch(pipeline, cmp, "ref_sink", &ref) ||
        !AddBranch(pipeline, cmp, "dist_sink", &dist)) {
      fprintf(stderr, "ssimulacra2cmp-compare: could not build the pipeline\n");
      rc = kExitFailed;
    }
  }
  if (rc == kExitOk) rc = RunAndCollect(pipeline, &report);
  if (rc == kExitOk && (report.summary == NULL || report.frames_scored == 0)) {
    fprintf(stderr, "ssimulacra2cmp-compare: no frame pair was scored\n");
    rc = kExitFailed;
  }
  if (rc == kExitOk) PrintResult(&report);
  const guint64 ref_unpaired = GetU64(report.summary, "ref-unpaired", 0);
  const guint64 dist_unpaired = GetU64(report.summary, "dist-unpaired", 0);
  if (ref_unpaired > 0 || dist_unpaired > 0) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames had no partner with the same timestamp and were not "
            "scored (docs/cookbook.md, \"Unpaired frames\")\n",
            ref_unpaired, dist_unpaired);
  }
  if (rc == kExitOk && report.below_threshold > 0) {
    fprintf(stderr, "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " frames scored below %g\n",
            report.below_threshold, o.threshold);
    rc = kExitBelowThreshold;
  }
  ClearReport(&report);
  if (pipeline != NULL) gst_object_unref(pipeline);  // and cmp in it
  g_free(o.backend);
  g_free(o.metric);
  g_free(o.format);
  g_free(o.output);
  return rc;
}
