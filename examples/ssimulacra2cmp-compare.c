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
// compare_convert.c sets what the inputs are converted to, and
// compare_report.c runs it and prints; this file puts them together.
//
// The capsfilters take anything unless --scale or SSIM asks for a
// conversion, so videoconvert stays in passthrough whenever the decoder's
// format is one the element scores: a PNG is scored on its own RGB samples
// (the canonical tool's input) and a YUV video on its own YUV. Everything
// printed comes from the element's bus messages, and the results file (-o,
// or --format on standard output) is the element's own results-location
// file, so the two are the same bytes (gst/results_writer.h has the schema).
#include <gst/gst.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare_convert.h"
#include "compare_options.h"
#include "compare_pipeline.h"
#include "compare_report.h"

static const char kElementName[] = "ssimulacra2cmp";

// The plugin directory of the installation this executable belongs to.
// Where the executable is, when it is in its installed bindir: then a
// DESTDIR or a moved installation works like the configured prefix
// (S2C_INSTALL_* are meson's prefix, bindir and plugin directory).
static gchar* OwnPluginDir(void) {
  const gchar* prefix = S2C_INSTALL_PREFIX "/";
  const gchar* bindir = S2C_INSTALL_BINDIR;
  const gchar* plugindir = S2C_INSTALL_PLUGINDIR;
  gchar* exe = g_file_read_link("/proc/self/exe", NULL);
  gchar* dir = exe != NULL ? g_path_get_dirname(exe) : NULL;
  gchar* found = NULL;
  if (dir != NULL && g_str_has_prefix(bindir, prefix) && g_str_has_prefix(plugindir, prefix)) {
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
// installation, which the system's GStreamer does not search unless its
// prefix is GStreamer's. NULL, with a message, when neither has it.
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
            "  From a build tree: GST_PLUGIN_PATH=<builddir>/gst ssimulacra2cmp-compare "
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
  const struct {
    const char* property;
    const char* option;
    const char* text;
  } numbers[] = {{"cuda-device-id", "--device", o->device},
                 {"cpu-threads", "--threads", o->threads},
                 {"threshold", "--threshold", o->threshold},
                 {"dist-offset", "--dist-offset", o->dist_offset}};
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
    gst_util_set_object_arg(G_OBJECT(cmp), "results-format",
                            o->format != NULL ? o->format : "json");
  }
  return kExitOk;
}

int main(int argc, char** argv) {
  Options o;
  int rc = ParseCommandLine(&argc, &argv, &o);
  if (rc == kExitOk && o.version) {
    printf("ssimulacra2cmp-compare %s\n", S2C_VERSION);
    ClearOptions(&o);
    return kExitOk;
  }
  if (rc == kExitOk) rc = CheckInputs(&o);
  Report report = {o.frames, TRUE, isatty(STDERR_FILENO), o.scale, NAN, NULL, NULL,
                   0,        0,    FALSE,                  NULL,    NULL};
  GstElement* cmp = NULL;
  if (rc == kExitOk) {
    cmp = FindElement();
    if (cmp == NULL) rc = kExitFailed;
  }
  report.element = cmp;
  if (rc == kExitOk) rc = SetUpElement(cmp, &o, &report);
  Branch inputs[2];
  for (int i = 0; i < 2; ++i) {
    const Branch b = {i == 0 ? "reference" : "distorted", o.inputs[i],
                      o.inputs[i] != NULL && !IsUri(o.inputs[i]) && IsRawVideoFile(o.inputs[i])
                          ? &o.raw
                          : NULL,
                      o.start, o.end, o.every, i == 1 && o.scale, NULL, NULL, NULL, 0, 0};
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
  // A results file with lines missing fails the run: a script that reads it
  // would take the rest for the whole.
  if (rc != kExitUsage && (o.output != NULL || o.format != NULL) &&
      ResultsIncomplete(&report, o.output)) {
    rc = kExitFailed;
  }
  if (rc == kExitOk && report.below_threshold > 0) {
    fprintf(stderr, "ssimulacra2cmp-compare: %" G_GUINT64_FORMAT " frames scored below %g\n",
            report.below_threshold, report.threshold);
    rc = kExitBelowThreshold;
  }
  ClearReport(&report);
  if (pipeline != NULL) gst_object_unref(pipeline);  // and cmp in it
  if (conversion.taken != NULL) ClearConversion(&conversion);
  ClearOptions(&o);
  return rc;
}
