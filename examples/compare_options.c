// SPDX-License-Identifier: BSD-3-Clause
#include "compare_options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare_pipeline.h"
#include "compare_report.h"
#include "png_check.h"

// Seconds of --start, --end and --dist-offset: at most this (about 285
// years), so that their nanoseconds stay within GStreamer's signed 64-bit
// times.
static const double kMaxSeconds = 9e9;

static void Complain(const char* format, ...) G_GNUC_PRINTF(1, 2);
static void Complain(const char* format, ...) {
  va_list args;
  va_start(args, format);
  fputs("ssimulacra2cmp-compare: ", stderr);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

static gboolean IsFormat(const char* name) {
  return strcmp(name, "json") == 0 || strcmp(name, "jsonl") == 0 || strcmp(name, "csv") == 0;
}

static gboolean IsMetric(const char* name) {
  return strcmp(name, "ssimulacra2") == 0 || strcmp(name, "ssim") == 0 ||
         strcmp(name, "both") == 0;
}

static gboolean IsBackend(const char* name) {
  return strcmp(name, "auto") == 0 || strcmp(name, "cpu") == 0 ||
         strcmp(name, "cuda") == 0;
}

static gboolean IsDeviceFp64(const char* name) {
  return strcmp(name, "auto") == 0 || strcmp(name, "native") == 0 ||
         strcmp(name, "integer") == 0;
}

static gboolean IsAlign(const char* name) {
  return strcmp(name, "off") == 0 || strcmp(name, "auto") == 0 || strcmp(name, "index") == 0;
}

static gboolean IsColorimetryMode(const char* name) {
  return strcmp(name, "reference") == 0 || strcmp(name, "per-stream") == 0;
}

// The whole text as a finite number (no "nan", "inf", or trailing text).
static gboolean ParseFinite(const char* option, const char* text, double* out) {
  char* end = NULL;
  errno = 0;
  const double v = g_ascii_strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    Complain("%s: \"%s\" is not a finite number", option, text);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

// --start and --end: seconds from 0, as a clock time.
static gboolean ParseTime(const char* option, const char* text, GstClockTime* out) {
  double seconds = 0.0;
  if (!ParseFinite(option, text, &seconds)) return FALSE;
  if (seconds < 0 || seconds > kMaxSeconds) {
    Complain("%s: %s is out of range (0 to %g seconds)", option, text, kMaxSeconds);
    return FALSE;
  }
  *out = (GstClockTime)llround(seconds * GST_SECOND);
  return TRUE;
}

// -o's format when --format is not given: by the name's extension, .csv,
// .jsonl or .json (any case); json for any other.
static const char* FormatOfName(const char* path) {
  static const char* const kFormats[] = {"csv", "jsonl"};
  const char* dot = strrchr(path, '.');
  for (size_t i = 0; dot != NULL && i < G_N_ELEMENTS(kFormats); ++i) {
    if (g_ascii_strcasecmp(dot + 1, kFormats[i]) == 0) return kFormats[i];
  }
  return "json";
}

gboolean AlignsByNumber(const Options* o) {
  return o->align != NULL && strcmp(o->align, "off") != 0;
}

// The options that only mean something with one kind of pairing: a time
// shift is pairing by time's (--align off), the search window --align
// auto's. --align auto finds an offset frame by frame, which --every's
// thinned frames cannot show: the partner of a kept reference frame may
// not have been kept.
static gboolean CheckAlignment(const Options* o) {
  const gboolean auto_align = o->align != NULL && strcmp(o->align, "auto") == 0;
  if (o->align_window != NULL && !auto_align) {
    Complain("--align-window: the offsets --align auto searches; it needs --align auto");
    return FALSE;
  }
  if (o->dist_offset != NULL && AlignsByNumber(o)) {
    Complain("--dist-offset: a delay given by hand, for pairing by time (--align off); %s",
             auto_align ? "--align auto finds the delay itself"
                        : "--align index pairs by frame number: --dist-start-frame N skips "
                          "the distorted input's first N frames");
    return FALSE;
  }
  if (o->every > 1 && auto_align) {
    Complain("--every: --align auto finds the offset frame by frame, and every Nth frame "
             "would drop the partners it finds; use --align index or off");
    return FALSE;
  }
  return TRUE;
}

// The tool's own values: names from their lists, times, --every, the raw
// video description, and the options that need a kind of alignment.
static gboolean CheckOwnOptions(Options* o) {
  const char* wrong = NULL;
  if (o->backend != NULL && !IsBackend(o->backend)) wrong = "--backend: auto, cpu or cuda";
  if (o->device_fp64 != NULL && !IsDeviceFp64(o->device_fp64)) {
    wrong = "--device-fp64: auto, native or integer";
  }
  if (o->colorimetry != NULL && !IsColorimetryMode(o->colorimetry)) {
    wrong = "--colorimetry: reference or per-stream";
  }
  if (o->format != NULL && !IsFormat(o->format)) wrong = "--format: json, jsonl or csv";
  if (o->format == NULL && o->output != NULL) o->format = g_strdup(FormatOfName(o->output));
  if (o->metric != NULL && !IsMetric(o->metric)) wrong = "--metric: ssimulacra2, ssim or both";
  if (o->align != NULL && !IsAlign(o->align)) wrong = "--align: off, auto or index";
  if (wrong != NULL) {
    Complain("%s", wrong);
    return FALSE;
  }
  if (o->start_text != NULL && !ParseTime("--start", o->start_text, &o->start)) return FALSE;
  if (o->end_text != NULL && !ParseTime("--end", o->end_text, &o->end)) return FALSE;
  if (o->end_text != NULL && o->end <= o->start) {
    Complain("--end: after --start");
    return FALSE;
  }
  if (o->every_text != NULL) {
    guint64 every = 0;
    if (!g_ascii_string_to_unsigned(o->every_text, 10, 1, G_MAXUINT, &every, NULL)) {
      Complain("--every: \"%s\" is not a whole number from 1 to %u", o->every_text, G_MAXUINT);
      return FALSE;
    }
    o->every = (guint)every;
  }
  if (o->size != NULL || o->pixel_format != NULL || o->fps != NULL) {
    GError* error = NULL;
    if (!ParseRawVideo(o->size, o->pixel_format, o->fps, &o->raw, &error)) {
      Complain("%s", error->message);
      g_error_free(error);
      return FALSE;
    }
  }
  return CheckAlignment(o);
}

int ParseCommandLine(int* argc, char*** argv, Options* o) {
  memset(o, 0, sizeof *o);
  o->end = GST_CLOCK_TIME_NONE;
  o->every = 1;
  GOptionEntry entries[] = {
      {"backend", 'b', 0, G_OPTION_ARG_STRING, &o->backend,
       "auto (CUDA when a device works, else CPU), cpu or cuda; default auto", "NAME"},
      {"metric", 'm', 0, G_OPTION_ARG_STRING, &o->metric,
       "ssimulacra2 (the default), ssim (Xiph's dump_ssim, on YUV: other inputs are "
       "converted) or both", "NAME"},
      {"device", 'd', 0, G_OPTION_ARG_STRING, &o->device, "CUDA device to score on", "N"},
      {"device-fp64", 0, 0, G_OPTION_ARG_STRING, &o->device_fp64,
       "CUDA: native (the GPU's f64 units), integer (no f64 instruction) or auto (by the "
       "GPU: integer where f64 is slow); the scores do not change; default auto", "NAME"},
      {"threads", 't', 0, G_OPTION_ARG_STRING, &o->threads,
       "CPU backend threads (default 0: one per core; the scores do not change)", "N"},
      {"frames", 0, 0, G_OPTION_ARG_NONE, &o->frames,
       "print a line per scored frame before the summary", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
       "write the results file (docs/element.md, \"Results file\") to FILE; never an input",
       "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
       "json (libvmaf's layout), jsonl or csv: the results file's format (with -o, by "
       "default FILE's extension: .csv, .jsonl, else json); without -o it goes to standard "
       "output instead of the text", "FORMAT"},
      {"start", 0, 0, G_OPTION_ARG_STRING, &o->start_text,
       "score the frames whose time (from each input's start, to the millisecond) is this "
       "or later", "SECONDS"},
      {"end", 0, 0, G_OPTION_ARG_STRING, &o->end_text,
       "score the frames whose time is before this (not at it), and stop decoding there",
       "SECONDS"},
      {"every", 0, 0, G_OPTION_ARG_STRING, &o->every_text,
       "score every Nth frame of each input (frame numbers stay the inputs')", "N"},
      {"dist-offset", 0, 0, G_OPTION_ARG_STRING, &o->dist_offset,
       "add this to the distorted input's times before pairing (negative: it runs late; "
       "--align off only)",
       "SECONDS"},
      {"align", 0, 0, G_OPTION_ARG_STRING, &o->align,
       "how frames pair: off (by time from each input's start, the default), auto (find "
       "the distorted input's delay in whole frames from the pictures, and follow dropped "
       "and repeated frames; a pair scored while the delay is being found is flagged) or "
       "index (the Nth frame of each with the Nth of the other, whatever their times)",
       "MODE"},
      {"align-window", 0, 0, G_OPTION_ARG_STRING, &o->align_window,
       "--align auto: search delays of up to N frames either way of the current one "
       "(default 12); the element holds more frames of each input the larger it is", "N"},
      {"ref-start-frame", 0, 0, G_OPTION_ARG_STRING, &o->ref_start_frame,
       "skip the reference input's first N frames (after --start): neither scored nor "
       "counted", "N"},
      {"dist-start-frame", 0, 0, G_OPTION_ARG_STRING, &o->dist_start_frame,
       "skip the distorted input's first N frames (after --start)", "N"},
      {"threshold", 0, 0, G_OPTION_ARG_STRING, &o->threshold,
       "exit with status 3 when a frame scores below this (at most 100)", "SCORE"},
      {"strict", 0, 0, G_OPTION_ARG_NONE, &o->strict,
       "exit with status 4 when a frame went unscored: unpaired (an input shorter, a frame "
       "dropped), late or skipped; or when --align auto flagged a pair", NULL},
      {"colorimetry", 0, 0, G_OPTION_ARG_STRING, &o->colorimetry,
       "reference (the default: where the inputs' colorimetry or chroma siting differ, "
       "DIST is read with REF's, as for an encode labelled differently) or per-stream "
       "(each by its own, for an encode that converts colour)", "MODE"},
      {"scale", 0, 0, G_OPTION_ARG_NONE, &o->scale,
       "scale the distorted frames to the reference's size (videoscale, bilinear, "
       "stretched to the reference's aspect)", NULL},
      {"size", 0, 0, G_OPTION_ARG_STRING, &o->size,
       "the frame size of .yuv inputs (raw, planes packed)", "WxH"},
      {"pixel-format", 0, 0, G_OPTION_ARG_STRING, &o->pixel_format,
       "the pixel format of .yuv inputs, GStreamer's name (I420, Y444, I420_10LE, NV12, ...)",
       "FMT"},
      {"fps", 0, 0, G_OPTION_ARG_STRING, &o->fps,
       "the frame rate of .yuv inputs (default: the other input's, else 25/1)", "N/D"},
      {"version", 0, 0, G_OPTION_ARG_NONE, &o->version, "print the version and exit", NULL},
      {NULL, 0, 0, 0, NULL, NULL, NULL}};
  GOptionContext* context = g_option_context_new(
      "REF DIST - score DIST against REF with SSIMULACRA 2.1");
  g_option_context_set_description(
      context,
      "REF and DIST are image or video files, or URIs, that GStreamer can decode, or raw\n"
      ".yuv files described by --size and --pixel-format. Frames pair by time from each\n"
      "input's start (running time), with --align auto by their pictures, with --align\n"
      "index by their number; still images pair in arrival order. For two single\n"
      "pictures the score alone, else the summary (with --frames a line per frame before\n"
      "it: its number, with --align auto or index its partner's, its time, its score, and\n"
      "\"flagged\" when its pair was scored while the delay was being found). With --align\n"
      "auto the summary adds the delays seen (offsets: distorted minus reference frame\n"
      "number, then the pairs scored at it), the realignments and the flagged pairs. On\n"
      "a terminal a progress line goes to standard error. Without --backend, a machine\n"
      "without a usable CUDA device scores on the CPU without a word (the same scores;\n"
      "GST_DEBUG=ssimulacra2cmp-compare:4 logs why).\n"
      "Ctrl-C or SIGTERM ends the inputs where they are: the summary is printed and the\n"
      "results file completed, then the exit status is 130 or 143; a second one stops at\n"
      "once.\n"
      "Exit status: 0 scored; 1 failed, or the results file or the text is incomplete (a\n"
      "line could not be written); 2 usage error (an option, a missing input, -o naming\n"
      "an input); 3 scored, but a frame fell below --threshold; 4 with --strict, frames\n"
      "went unscored or pairs were flagged (checked before --threshold); 128 + N stopped\n"
      "by signal N.\n"
      "The plugin is found as GStreamer finds plugins (GST_PLUGIN_PATH), else in the build\n"
      "tree or installation this tool belongs to (another build tree's:\n"
      "GST_PLUGIN_PATH=<builddir>/gst, or meson devenv -C <builddir>).\n");
  g_option_context_add_main_entries(context, entries, NULL);
  g_option_context_add_group(context, gst_init_get_option_group());
  GError* error = NULL;
  int rc = kExitOk;
  if (!g_option_context_parse(context, argc, argv, &error)) {
    Complain("%s", error->message);
    g_clear_error(&error);
    rc = kExitUsage;
  } else if (!o->version && *argc != 3) {
    fprintf(stderr, "usage: ssimulacra2cmp-compare [OPTION...] REF DIST (--help: the options)\n");
    rc = kExitUsage;
  } else if (!o->version && !CheckOwnOptions(o)) {
    rc = kExitUsage;
  }
  g_option_context_free(context);
  if (rc == kExitOk && !o->version) {
    o->inputs[0] = (*argv)[1];
    o->inputs[1] = (*argv)[2];
  }
  return rc;
}

static const char* Role(int i) { return i == 0 ? "reference" : "distorted"; }

// The results file is truncated when the element starts, before the inputs
// are read, so it must not be one of them, by any name: the same device
// and inode, which a second path, a symbolic or a hard link share.
// Standard output counts when it is the results file (--format without -o).
static gboolean ResultsFileIsNoInput(const Options* o) {
  struct stat target;
  if (o->output != NULL ? stat(o->output, &target) != 0
                        : o->format == NULL || fstat(STDOUT_FILENO, &target) != 0) {
    return TRUE;  // no results file, or one that does not exist yet
  }
  for (int i = 0; i < 2; ++i) {
    gchar* path = IsUri(o->inputs[i]) ? g_filename_from_uri(o->inputs[i], NULL, NULL)
                                      : g_strdup(o->inputs[i]);
    struct stat input;
    const gboolean same = path != NULL && stat(path, &input) == 0 &&
                          input.st_dev == target.st_dev && input.st_ino == target.st_ino;
    g_free(path);
    if (same) {
      Complain("%s%s%s is the %s input \"%s\": the results file would overwrite it; "
               "nothing was run",
               o->output != NULL ? "-o \"" : "standard output",
               o->output != NULL ? o->output : "", o->output != NULL ? "\"" : "", Role(i),
               o->inputs[i]);
      return FALSE;
    }
  }
  return TRUE;
}

// A .yuv input needs --size and --pixel-format and must hold whole frames
// (a remainder means the description is wrong); without one, they are a
// mistake.
static gboolean RawInputsDescribed(const Options* o) {
  gboolean any_raw = FALSE;
  for (int i = 0; i < 2; ++i) {
    if (IsUri(o->inputs[i]) || !IsRawVideoFile(o->inputs[i])) continue;
    any_raw = TRUE;
    if (o->size == NULL || o->pixel_format == NULL) {
      Complain("the %s input \"%s\" is raw video: give --size WxH and --pixel-format FMT "
               "(and --fps N/D, else the other input's rate or 25/1)",
               Role(i), o->inputs[i]);
      return FALSE;
    }
    struct stat st;
    if (stat(o->inputs[i], &st) == 0 && (guint64)st.st_size % o->raw.frame_size != 0) {
      Complain("the %s input \"%s\" has %" G_GUINT64_FORMAT " bytes, not a whole number of "
               "%dx%d %s frames of %" G_GUINT64_FORMAT " bytes; check --size and "
               "--pixel-format",
               Role(i), o->inputs[i], (guint64)st.st_size, o->raw.width, o->raw.height,
               gst_video_format_to_string(o->raw.format), o->raw.frame_size);
      return FALSE;
    }
  }
  if (!any_raw && (o->size != NULL || o->pixel_format != NULL || o->fps != NULL)) {
    Complain("--size, --pixel-format and --fps describe .yuv inputs; neither input is one");
    return FALSE;
  }
  return TRUE;
}

int CheckInputs(const Options* o) {
  for (int i = 0; i < 2; ++i) {
    if (IsUri(o->inputs[i])) continue;  // the URI's handler says what is wrong
    // A file, or a pipe (a FIFO, a shell's <(command)).
    if (!g_file_test(o->inputs[i], G_FILE_TEST_EXISTS) ||
        g_file_test(o->inputs[i], G_FILE_TEST_IS_DIR)) {
      Complain("%s \"%s\": no such file", Role(i), o->inputs[i]);
      return kExitUsage;
    }
  }
  if (!RawInputsDescribed(o) || !ResultsFileIsNoInput(o)) return kExitUsage;
  for (int i = 0; i < 2; ++i) {
    // A score of such a PNG would be a wrong number printed as if right.
    // (A pipe is not looked into: what is read from it is gone.)
    const char* refusal = IsUri(o->inputs[i]) ||
                                  !g_file_test(o->inputs[i], G_FILE_TEST_IS_REGULAR)
                              ? NULL
                              : PngRefusal(o->inputs[i]);
    if (refusal != NULL) {
      Complain("%s \"%s\" %s. Not scored: no score would be the canonical one "
               "(docs/element.md, \"Still images\").",
               Role(i), o->inputs[i], refusal);
      return kExitFailed;
    }
  }
  return kExitOk;
}

gboolean SetNumberProperty(GstElement* element, const char* property, const char* option,
                           const char* text) {
  GParamSpec* spec = g_object_class_find_property(G_OBJECT_GET_CLASS(element), property);
  GValue value = G_VALUE_INIT;
  g_value_init(&value, spec->value_type);
  double min = 0, max = 0;
  gboolean ok = FALSE;
  if (G_IS_PARAM_SPEC_INT(spec) || G_IS_PARAM_SPEC_UINT(spec)) {
    const gboolean is_int = G_IS_PARAM_SPEC_INT(spec);
    if (is_int) {
      min = G_PARAM_SPEC_INT(spec)->minimum;
      max = G_PARAM_SPEC_INT(spec)->maximum;
    } else {
      min = G_PARAM_SPEC_UINT(spec)->minimum;
      max = G_PARAM_SPEC_UINT(spec)->maximum;
    }
    gint64 v = 0;
    ok = g_ascii_string_to_signed(text, 10, (gint64)min, (gint64)max, &v, NULL);
    if (ok && is_int) g_value_set_int(&value, (gint)v);
    if (ok && !is_int) g_value_set_uint(&value, (guint)v);
    if (!ok) {
      Complain("%s: \"%s\" is not a whole number from %.0f to %.0f", option, text, min, max);
      return FALSE;
    }
  } else if (G_IS_PARAM_SPEC_UINT64(spec)) {  // a count of frames
    const GParamSpecUInt64* s = G_PARAM_SPEC_UINT64(spec);
    guint64 v = 0;
    if (!g_ascii_string_to_unsigned(text, 10, s->minimum, s->maximum, &v, NULL)) {
      Complain("%s: \"%s\" is not a whole number from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
               option, text, s->minimum, s->maximum);
      return FALSE;
    }
    g_value_set_uint64(&value, v);
  } else {
    double v = 0;
    if (!ParseFinite(option, text, &v)) return FALSE;
    if (G_IS_PARAM_SPEC_INT64(spec)) {  // nanoseconds, given in seconds
      const GParamSpecInt64* s = G_PARAM_SPEC_INT64(spec);
      min = MAX((double)s->minimum / GST_SECOND, -kMaxSeconds);
      max = MIN((double)s->maximum / GST_SECOND, kMaxSeconds);
      ok = v >= min && v <= max;
      if (ok) g_value_set_int64(&value, CLAMP(llround(v * GST_SECOND), s->minimum, s->maximum));
    } else {
      const GParamSpecDouble* s = G_PARAM_SPEC_DOUBLE(spec);
      min = s->minimum;
      max = s->maximum;
      ok = v >= min && v <= max;
      if (ok) g_value_set_double(&value, v);
    }
    if (!ok) {
      const char* unit = G_IS_PARAM_SPEC_INT64(spec) ? " seconds" : "";
      if (min == -G_MAXDOUBLE) {
        Complain("%s: %s is out of range (at most %g%s)", option, text, max, unit);
      } else {
        Complain("%s: %s is out of range (%g to %g%s)", option, text, min, max, unit);
      }
      return FALSE;
    }
  }
  g_object_set_property(G_OBJECT(element), property, &value);
  g_value_unset(&value);
  return TRUE;
}

void ClearOptions(Options* o) {
  gchar** texts[] = {&o->backend,     &o->device_fp64, &o->metric,     &o->format,   &o->output,
                     &o->colorimetry,
                     &o->device,      &o->threads,    &o->threshold, &o->dist_offset,
                     &o->start_text,  &o->end_text,   &o->every_text, &o->size,
                     &o->pixel_format, &o->fps,    &o->align,     &o->align_window,
                     &o->ref_start_frame, &o->dist_start_frame};
  for (size_t i = 0; i < G_N_ELEMENTS(texts); ++i) g_clear_pointer(texts[i], g_free);
}
