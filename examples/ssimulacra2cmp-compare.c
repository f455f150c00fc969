// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare REF DIST: scores a distorted image or video (a file
// or a URI) against its reference with the ssimulacra2cmp element. For one pair (two
// still images) it prints the score alone, as the canonical tool does
// (with --metric ssim the combined raw SSIM, with both the two, space-separated);
// for video, the summary, and with --frames a line per frame before it. The
// pipeline is
//
//   filesrc location=REF  ! decodebin ! videoconvert ! capsfilter ! cmp.ref_sink
//   filesrc location=DIST ! decodebin ! videoconvert ! capsfilter ! cmp.dist_sink
//   ssimulacra2cmp name=cmp ! fakesink
//
// (uridecodebin for a URI, rawvideoparse for a .yuv file, videoscale after
// the distorted input's videoconvert with --scale). compare_options.c reads
// the command line, compare_pipeline.c builds the pipeline,
// compare_convert.c sets what the inputs are converted to,
// compare_report.c runs it and prints, and compare_signals.c turns Ctrl-C
// into the end of the inputs; this file puts them together.
//
// The capsfilters take anything unless --scale or SSIM asks for a
// conversion, so videoconvert stays in passthrough whenever the decoder's
// format is one the element scores: a PNG is scored on its own RGB samples
// (the canonical tool's input) and a YUV video on its own YUV. Everything
// printed comes from the element's bus messages, and the results file (-o,
// or --format on standard output) is the element's own results-location
// file, so the two are the same bytes (gst/helpers/results_writer.h has the
// schema).
#include <gst/gst.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_convert.h"
#include "compare_options.h"
#include "compare_pipeline.h"
#include "compare_report.h"
#include "compare_signals.h"

static const char kElementName[] = "ssimulacra2cmp";

// Whether `dir` is `other`, symbolic links resolved.
static gboolean SameDirectory(const gchar* dir, const gchar* other) {
  char a[PATH_MAX], b[PATH_MAX];
  return realpath(dir, a) != NULL && realpath(other, b) != NULL && strcmp(a, b) == 0;
}

// The plugin directory of the build tree or installation this executable
// belongs to. Run from the build tree it was built in, that tree's plugin
// (S2C_BUILD_*: meson's build directories). Installed, where the executable
// is, when it is in its installed bindir: then a DESTDIR or a moved
// installation works like the configured prefix (S2C_INSTALL_* are meson's
// prefix, bindir and plugin directory).
static gchar* OwnPluginDir(void) {
  const gchar* prefix = S2C_INSTALL_PREFIX "/";
  const gchar* bindir = S2C_INSTALL_BINDIR;
  const gchar* plugindir = S2C_INSTALL_PLUGINDIR;
  gchar* exe = g_file_read_link("/proc/self/exe", NULL);
  gchar* dir = exe != NULL ? g_path_get_dirname(exe) : NULL;
  gchar* found = NULL;
  if (dir != NULL && SameDirectory(dir, S2C_BUILD_BINDIR)) {
    found = g_strdup(S2C_BUILD_PLUGINDIR);
  } else if (dir != NULL && g_str_has_prefix(bindir, prefix) &&
             g_str_has_prefix(plugindir, prefix)) {
    // <root><prefix>/<bin>: the same <root> with <prefix>/<plugins>.
    const gchar* bin = bindir + strlen(prefix);
    const size_t n = strlen(dir), m = strlen(bin);
    if (n > m && strcmp(dir + n - m, bin) == 0 && dir[n - m - 1] == '/') {
      gchar* root = g_strndup(dir, n - m - 1);
      found = g_build_filename(root, plugindir + strlen(prefix), NULL);
      g_free(root);
    }
  }
  g_free(dir);
  g_free(exe);
  return found != NULL ? found : g_strdup(plugindir);
}

// The element, as GStreamer finds plugins (GST_PLUGIN_PATH, the system's
// plugin directories); else from the plugin directory of this tool's own
// build tree or installation, which the system's GStreamer does not search
// unless its prefix is GStreamer's. NULL, with a message, when neither has
// it.
static GstElement* FindElement(void) {
  GstElement* cmp = gst_element_factory_make(kElementName, "cmp");
  if (cmp != NULL) return cmp;
  gchar* dir = OwnPluginDir();
  gst_registry_scan_path(gst_registry_get(), dir);
  cmp = gst_element_factory_make(kElementName, "cmp");
  if (cmp == NULL) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: the ssimulacra2cmp GStreamer plugin was not found, "
            "neither where GStreamer looks (GST_PLUGIN_PATH) nor in %s.\n"
            "  Another build tree's: GST_PLUGIN_PATH=<builddir>/gst ssimulacra2cmp-compare "
            "REF DIST,\n"
            "  or run it inside `meson devenv -C <builddir>`.\n",
            dir);
  }
  g_free(dir);
  return cmp;
}

// --metric's names and the element's "metrics" flags they set.
static const char* MetricsFlags(const char* name) {
  if (name == NULL || strcmp(name, "ssimulacra2") == 0) return "ssimulacra2";
  if (strcmp(name, "ssim") == 0) return "ssim";
  return "ssimulacra2+ssim";  // "both"
}

// The element's properties from the options. kExitOk, or kExitUsage after
// a message when a number is out of the property's range.
static int SetUpElement(GstElement* cmp, const Options* o, Report* report) {
  if (o->backend != NULL) gst_util_set_object_arg(G_OBJECT(cmp), "backend", o->backend);
  if (o->device_fp64 != NULL) {
    gst_util_set_object_arg(G_OBJECT(cmp), "device-fp64", o->device_fp64);
  }
  gst_util_set_object_arg(G_OBJECT(cmp), "metrics", MetricsFlags(o->metric));
  if (o->colorimetry != NULL) {
    gst_util_set_object_arg(G_OBJECT(cmp), "colorimetry-mode", o->colorimetry);
  }
  if (o->align != NULL) gst_util_set_object_arg(G_OBJECT(cmp), "align", o->align);
  const struct {
    const char* property;
    const char* option;
    const char* text;
  } numbers[] = {{"cuda-device-id", "--device", o->device},
                 {"cpu-threads", "--threads", o->threads},
                 {"threshold", "--threshold", o->threshold},
                 {"dist-offset", "--dist-offset", o->dist_offset},
                 {"align-window", "--align-window", o->align_window},
                 {"ref-start-frame", "--ref-start-frame", o->ref_start_frame},
                 {"dist-start-frame", "--dist-start-frame", o->dist_start_frame}};
  for (size_t i = 0; i < G_N_ELEMENTS(numbers); ++i) {
    if (numbers[i].text != NULL &&
        !SetNumberProperty(cmp, numbers[i].property, numbers[i].option, numbers[i].text)) {
      return kExitUsage;
    }
  }
  if (o->threshold != NULL) g_object_get(cmp, "threshold", &report->threshold, NULL);
  // The results file is the element's: -o FILE, or standard output in place
  // of the text when only --format is given.
  if (o->output != NULL || o->format != NULL) {
    report->text = o->output != NULL;
    g_object_set(cmp, "results-location", o->output != NULL ? o->output : "/dev/stdout", NULL);
    gst_util_set_object_arg(G_OBJECT(cmp), "results-format", o->format);
  }
  return kExitOk;
}

// Raw .yuv inputs, once the element is there: a frame size the element
// takes, and without --fps the rate of the other input when it states one
// (frames of two rates would pair only where their times meet). kExitOk,
// or kExitFailed after a message.
static int CompleteRawVideo(Options* o, GstElement* cmp) {
  for (int i = 0; i < 2; ++i) {
    if (IsUri(o->inputs[i]) || !IsRawVideoFile(o->inputs[i])) continue;
    gchar* refusal = SizeRefusal(cmp, o->raw.width, o->raw.height);
    if (refusal != NULL) {
      fprintf(stderr, "ssimulacra2cmp-compare: --size %dx%d: %s; nothing was scored\n",
              o->raw.width, o->raw.height, refusal);
      g_free(refusal);
      return kExitFailed;
    }
    const char* other = o->inputs[1 - i];
    if (o->fps != NULL || (!IsUri(other) && IsRawVideoFile(other))) continue;
    // A pipe is not read ahead: what is read from it is gone.
    const gboolean pipe = !IsUri(other) && !g_file_test(other, G_FILE_TEST_IS_REGULAR);
    gboolean video = pipe;
    if (pipe || !StatedFrameRate(other, &o->raw.fps_n, &o->raw.fps_d, &video)) {
      o->raw.fps_n = 25;
      o->raw.fps_d = 1;
      if (video) {
        fprintf(stderr, "ssimulacra2cmp-compare: the frame rate of \"%s\" is not known: "
                        "\"%s\" is read at 25/1 fps (--fps sets it)\n", other, o->inputs[i]);
      }
    }
  }
  return kExitOk;
}

// The exit status once the run is over (compare_report.h), after the
// messages that explain it. `rc` is what went before.
static int Conclude(int rc, const Options* o, const Report* report) {
  const guint64 ref_unpaired = GetU64(report->summary, "ref-unpaired", 0);
  const guint64 dist_unpaired = GetU64(report->summary, "dist-unpaired", 0);
  if (ref_unpaired > 0 || dist_unpaired > 0) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
            " distorted frames had no partner%s and were not scored (docs/cookbook.md, "
            "\"Unpaired frames\")\n",
            ref_unpaired, dist_unpaired, report->aligned ? "" : " with the same timestamp");
  }
  const guint64 flagged = GetU64(report->summary, "align-flagged", 0);
  if (flagged > 0) {
    fprintf(stderr,
            "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " pairs were scored while the "
            "distorted input's delay was being found, and may compare the wrong frames: "
            "flagged (alignFlagged in the results file)\n",
            flagged);
  }
  // A results file or a text with lines missing fails the run: a script
  // that reads it would take the rest for the whole.
  if (rc != kExitUsage && (o->output != NULL || o->format != NULL) &&
      ResultsIncomplete(report, o->output)) {
    rc = kExitFailed;
  }
  if (rc != kExitUsage && TextIncomplete()) rc = kExitFailed;
  if (rc != kExitOk) return rc;
  const guint64 unscored = UnscoredFrames(report);
  if (o->strict && unscored > 0) {
    fprintf(stderr, "ssimulacra2cmp-compare: --strict: %" G_GUINT64_FORMAT " frames were not "
                    "scored (the summary's ref-* and dist-* counts)\n", unscored);
    rc = kExitUnscored;
  } else if (o->strict && flagged > 0) {
    fprintf(stderr, "ssimulacra2cmp-compare: --strict: %" G_GUINT64_FORMAT " pairs were "
                    "flagged (the summary's align-flagged)\n", flagged);
    rc = kExitUnscored;
  } else if (report->below_threshold > 0) {
    fprintf(stderr, "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " frames scored below %g\n",
            report->below_threshold, report->threshold);
    rc = kExitBelowThreshold;
  }
  // Stopped by a signal, with complete results: the shell's convention.
  return report->stop_signal != 0 ? kExitStoppedBase + report->stop_signal : rc;
}

int main(int argc, char** argv) {
  WatchStopSignals();  // before any other thread starts
  Options o;
  int rc = ParseCommandLine(&argc, &argv, &o);
  if (rc == kExitOk && o.version) {
    printf("ssimulacra2cmp-compare %s\n", S2C_VERSION);
    ClearOptions(&o);
    return kExitOk;
  }
  if (rc == kExitOk) rc = CheckInputs(&o);
  Report report = {.frames = o.frames,
                   .text = TRUE,
                   .progress = isatty(STDERR_FILENO),
                   .scaling = o.scale,
                   .quiet_fallback = o.backend == NULL,
                   .aligned = AlignsByNumber(&o),
                   .threshold = NAN};
  GstElement* cmp = NULL;
  if (rc == kExitOk) {
    cmp = FindElement();
    if (cmp == NULL) rc = kExitFailed;
  }
  report.element = cmp;
  if (rc == kExitOk) rc = SetUpElement(cmp, &o, &report);
  if (rc == kExitOk) rc = CompleteRawVideo(&o, cmp);
  Branch inputs[2];
  for (int i = 0; i < 2; ++i) {
    const Branch b = {
        .role = i == 0 ? "reference" : "distorted",
        .location = o.inputs[i],
        .raw = o.inputs[i] != NULL && !IsUri(o.inputs[i]) && IsRawVideoFile(o.inputs[i])
                   ? &o.raw
                   : NULL,
        .start = o.start,
        .end = o.end,
        .every = o.every,
        .scale = i == 1 && o.scale};
    inputs[i] = b;
  }
  report.inputs = inputs;
  GstElement* pipeline = NULL;
  Conversion conversion = {0};
  if (rc == kExitOk) {
    pipeline = gst_pipeline_new("compare");
    GstElement* sink = gst_element_factory_make("fakesink", NULL);
    g_object_set(sink, "sync", FALSE, NULL);
    gst_bin_add_many(GST_BIN(pipeline), cmp, sink, NULL);
    if (!gst_element_link(cmp, sink) || !AddBranch(pipeline, cmp, "ref_sink", &inputs[0]) ||
        !AddBranch(pipeline, cmp, "dist_sink", &inputs[1])) {
      fprintf(stderr, "ssimulacra2cmp-compare: could not build the pipeline\n");
      rc = kExitFailed;
    }
  } else if (cmp != NULL) {
    gst_object_unref(gst_object_ref_sink(cmp));
  }
  const gboolean ssim = strcmp(MetricsFlags(o.metric), "ssimulacra2") != 0;
  if (rc == kExitOk && (o.scale || ssim)) {
    StartConversion(&conversion, &inputs[0], &inputs[1], ssim,
                    strcmp(MetricsFlags(o.metric), "ssim") != 0, cmp);
  }
  if (rc == kExitOk) rc = RunAndCollect(pipeline, &report);
  if (rc == kExitOk && report.stop_signal == 0 &&
      (report.summary == NULL || report.frames_scored == 0)) {
    fprintf(stderr, "ssimulacra2cmp-compare: no frame pair was scored\n");
    rc = kExitFailed;
  }
  if (rc == kExitOk) PrintResult(&report);
  rc = Conclude(rc, &o, &report);
  ClearReport(&report);
  if (pipeline != NULL) gst_object_unref(pipeline);  // and cmp in it
  if (conversion.taken != NULL) ClearConversion(&conversion);
  ClearOptions(&o);
  return rc;
}
