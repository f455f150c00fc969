// SPDX-License-Identifier: BSD-3-Clause
#include "element_settings.h"

namespace s2c {

namespace {

GType BackendChoiceGetType() {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {static_cast<int>(BackendChoice::kAuto),
       "CUDA when a device works, else CPU", "auto"},
      {static_cast<int>(BackendChoice::kCpu), "CPU reference", "cpu"},
      {static_cast<int>(BackendChoice::kCuda), "CUDA (error without a GPU)",
       "cuda"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type, g_enum_register_static("GstSsimulacra2CmpBackend", values));
  }
  return type;
}

GType ResultsFormatGetType() {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {static_cast<int>(ResultsFormat::kJsonLines), "JSON Lines", "jsonl"},
      {static_cast<int>(ResultsFormat::kCsv), "CSV with a header line", "csv"},
      {static_cast<int>(ResultsFormat::kJson), "JSON in libvmaf's layout", "json"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type,
                      g_enum_register_static("GstSsimulacra2CmpResultsFormat", values));
  }
  return type;
}

GType LivePolicyGetType() {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {static_cast<int>(LivePolicy::kPassUnscored),
       "Pass a reference frame unscored when its partner misses the deadline",
       "pass-unscored"},
      {static_cast<int>(LivePolicy::kWait),
       "Wait for the partner, stalling the reference stream", "wait"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type,
                      g_enum_register_static("GstSsimulacra2CmpLivePolicy", values));
  }
  return type;
}

GType ResultsFailureGetType() {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {static_cast<int>(ResultsFailure::kWarn),
       "One warning; the summary counts the lines lost", "warn"},
      {static_cast<int>(ResultsFailure::kError), "An element error: streaming stops",
       "error"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type,
                      g_enum_register_static("GstSsimulacra2CmpResultsFailure", values));
  }
  return type;
}

// The "metrics" flags; the values are the library's Metric bits.
GType MetricsGetType() {
  static gsize type = 0;
  static const GFlagsValue values[] = {
      {kMetricSsimulacra2, "SSIMULACRA 2.1 (libjxl)", "ssimulacra2"},
      {kMetricSsim, "SSIM as Xiph's daala dump_ssim (YUV input only)", "ssim"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type, g_flags_register_static("GstSsimulacra2CmpMetrics", values));
  }
  return type;
}

GType DeviceFp64GetType() {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {static_cast<int>(DeviceFp64::kAuto),
       "integer on GPUs with slow f64 units, by compute capability", "auto"},
      {static_cast<int>(DeviceFp64::kNative), "the GPU's f64 units", "native"},
      {static_cast<int>(DeviceFp64::kInteger), "integers, no f64 instruction", "integer"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type, g_enum_register_static("GstSsimulacra2CmpDeviceFp64", values));
  }
  return type;
}

GType ColorimetryModeGetType() {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {static_cast<int>(ColorimetryMode::kReference),
       "Read the distorted stream with the reference's colorimetry and chroma siting",
       "reference"},
      {static_cast<int>(ColorimetryMode::kPerStream),
       "Read each stream with its own colorimetry and chroma siting", "per-stream"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type,
                      g_enum_register_static("GstSsimulacra2CmpColorimetryMode", values));
  }
  return type;
}

GType AlignChoiceGetType() {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {static_cast<int>(AlignChoice::kOff), "Pair by running time, with dist-offset", "off"},
      {static_cast<int>(AlignChoice::kAuto),
       "Find the distorted stream's offset in frames from the pictures, and follow it",
       "auto"},
      {static_cast<int>(AlignChoice::kIndex),
       "Pair the n-th reference frame with the n-th distorted frame", "index"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    g_once_init_leave(&type, g_enum_register_static("GstSsimulacra2CmpAlign", values));
  }
  return type;
}

}  // namespace

// Most properties are read once, at start: they change in NULL or READY
// only (the element refuses them while it runs). Those the streaming thread
// reads for every pair take effect at the next pair in any state.
int64_t PairingTolerance(const ElementSettings& s, bool live, int64_t period) {
  if (s.pairing_tolerance >= 0) return s.pairing_tolerance;
  const int64_t half_frame = live ? period / 2 : 0;
  return half_frame > kAutoPairingTolerance ? half_frame : kAutoPairingTolerance;
}

void InstallElementProperties(GObjectClass* oc) {
  const auto flags = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                              GST_PARAM_MUTABLE_READY);
  const auto live = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                             GST_PARAM_MUTABLE_PLAYING);
  const auto read_only = static_cast<GParamFlags>(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property(
      oc, PROP_BACKEND,
      g_param_spec_enum("backend", "Backend",
                        "Where frames are scored: auto (CUDA when a device works, else "
                        "CPU with a warning), cpu, or cuda (error without a GPU)",
                        BackendChoiceGetType(), static_cast<int>(DEFAULT_BACKEND), flags));
  g_object_class_install_property(
      oc, PROP_CUDA_DEVICE_ID,
      g_param_spec_int("cuda-device-id", "CUDA device id",
                       "CUDA device to score on (-1: the shared context's, else device 0)",
                       -1, G_MAXINT, DEFAULT_CUDA_DEVICE_ID, flags));
  g_object_class_install_property(
      oc, PROP_MAX_IN_FLIGHT,
      g_param_spec_uint("max-in-flight", "Max in flight",
                        "Frame pairs on the backend at once; then the element waits for "
                        "the oldest (live with pass-unscored: skips the new pair). The "
                        "reported latency is (max-in-flight - 1) frames",
                        1, 64, DEFAULT_MAX_IN_FLIGHT, flags));
  g_object_class_install_property(
      oc, PROP_DIST_OFFSET,
      g_param_spec_int64("dist-offset", "Distorted offset",
                         "Nanoseconds added to the distorted stream's running time "
                         "before pairing",
                         G_MININT64, G_MAXINT64, DEFAULT_DIST_OFFSET, flags));
  g_object_class_install_property(
      oc, PROP_PAIRING_TOLERANCE,
      g_param_spec_int64("pairing-tolerance", "Pairing tolerance",
                         "Largest running-time difference (ns) of a scored pair. -1: auto, "
                         "half a frame of the reference in a live pipeline (at least 1 ms; "
                         "so that two independent live sources pair), 1 ms otherwise",
                         -1, G_MAXINT64, DEFAULT_PAIRING_TOLERANCE, flags));
  g_object_class_install_property(
      oc, PROP_THRESHOLD,
      g_param_spec_double("threshold", "Threshold",
                          "A score below this posts a \"threshold\" message (default: "
                          "never)",
                          -G_MAXDOUBLE, 100.0, DEFAULT_THRESHOLD, live));
  g_object_class_install_property(
      oc, PROP_THRESHOLD_HYSTERESIS,
      g_param_spec_double("threshold-hysteresis", "Threshold hysteresis",
                          "After an alarm, scores must reach threshold + this before "
                          "\"threshold-cleared\" is posted",
                          0.0, G_MAXDOUBLE, DEFAULT_THRESHOLD_HYSTERESIS, live));
  g_object_class_install_property(
      oc, PROP_THRESHOLD_HOLD,
      g_param_spec_uint64("threshold-hold", "Threshold hold",
                          "Running time (ns) the score must stay below threshold before "
                          "\"threshold\" is posted, and at or above threshold + hysteresis "
                          "before \"threshold-cleared\" (0: at the first such score)",
                          0, G_MAXUINT64, DEFAULT_THRESHOLD_HOLD, live));
  g_object_class_install_property(
      oc, PROP_RESULTS_LOCATION,
      g_param_spec_string("results-location", "Results location",
                          "File that gets every scored frame as it is scored, and each "
                          "segment's summary (none by default; format: results-format; "
                          "/dev/stdout is written as it is, never truncated)",
                          nullptr, flags));
  g_object_class_install_property(
      oc, PROP_RESULTS_FORMAT,
      g_param_spec_enum("results-format", "Results format", "Format of results-location",
                        ResultsFormatGetType(), static_cast<int>(DEFAULT_RESULTS_FORMAT),
                        flags));
  g_object_class_install_property(
      oc, PROP_RESULTS_APPEND,
      g_param_spec_boolean("results-append", "Results append",
                           "Keep what results-location holds and append this run's records, "
                           "its first segment numbered after the file's last (jsonl, or csv "
                           "of the same columns; anything else is refused, untouched)",
                           DEFAULT_RESULTS_APPEND, flags));
  g_object_class_install_property(
      oc, PROP_POST_MESSAGES,
      g_param_spec_boolean("post-messages", "Post messages",
                           "Post a \"frame\" element message for every scored pair",
                           DEFAULT_POST_MESSAGES, live));
  g_object_class_install_property(
      oc, PROP_LIVE_POLICY,
      g_param_spec_enum("live-policy", "Live policy",
                        "In a live pipeline, what happens to a reference frame whose "
                        "distorted partner or score is not there by its deadline",
                        LivePolicyGetType(), static_cast<int>(DEFAULT_LIVE_POLICY), flags));
  g_object_class_install_property(
      oc, PROP_RESULTS_WRITE_FAILURE,
      g_param_spec_enum("results-write-failure", "Results write failure",
                        "When a record cannot be written to results-location: warn (one "
                        "warning, the lost records counted in the summary's results-lost) "
                        "or error (stop)",
                        ResultsFailureGetType(),
                        static_cast<int>(DEFAULT_RESULTS_WRITE_FAILURE), live));
  g_object_class_install_property(
      oc, PROP_LINK_TIMEOUT,
      g_param_spec_uint64("link-timeout", "Link timeout",
                          "Nanoseconds after going to PAUSED by which both sink pads must "
                          "be linked (time for dynamic pads, as decodebin's, to appear); "
                          "an unlinked pad is then an error. 0: no check",
                          0, G_MAXUINT64, DEFAULT_LINK_TIMEOUT, flags));
  g_object_class_install_property(
      oc, PROP_FEED_TIMEOUT,
      g_param_spec_uint64("feed-timeout", "Feed timeout",
                          "Live, in PLAYING: clock time (ns) without a buffer on a sink pad "
                          "after which a \"feed\" message says the feed is lost (and another "
                          "when it is back); last-score reads NaN while the distorted feed "
                          "is lost. 0: no watch",
                          0, G_MAXUINT64, DEFAULT_FEED_TIMEOUT, flags));
  g_object_class_install_property(
      oc, PROP_SUMMARY_INTERVAL,
      g_param_spec_uint64("summary-interval", "Summary interval",
                          "Running time (ns) of the windows whose summary (frames, scored "
                          "share, mean, min, max, p5) a \"window\" message posts as the "
                          "stream goes on. 0: none",
                          0, G_MAXUINT64, DEFAULT_SUMMARY_INTERVAL, flags));
  g_object_class_install_property(
      oc, PROP_MIN_COVERAGE,
      g_param_spec_double("min-coverage", "Minimum coverage",
                          "Share of the reference frames that must be scored over a window "
                          "(summary-interval, else 10 s of running time); a window below it "
                          "gives a warning and a \"coverage\" message saying why. 0: no check",
                          0.0, 1.0, DEFAULT_MIN_COVERAGE, live));
  g_object_class_install_property(
      oc, PROP_CPU_THREADS,
      g_param_spec_uint("cpu-threads", "CPU threads",
                        "Threads of the CPU backend (0: one per core); the scores do not "
                        "depend on it",
                        0, 1024, DEFAULT_CPU_THREADS, flags));
  g_object_class_install_property(
      oc, PROP_METRICS,
      g_param_spec_flags("metrics", "Metrics",
                         "What each pair is scored with: ssimulacra2, ssim (YUV input only), "
                         "or both (ssimulacra2+ssim)",
                         MetricsGetType(), DEFAULT_METRICS, flags));
  g_object_class_install_property(
      oc, PROP_DEVICE_FP64,
      g_param_spec_enum("device-fp64", "Device f64",
                        "How the CUDA backend evaluates the metric's double-precision steps, "
                        "with the same score bits either way: native (the GPU's f64 units), "
                        "integer (no f64 instruction), or auto: the path predicted faster on "
                        "the GPU from its f64 rate (integer where f64 runs at 1/32 or less of "
                        "f32, as on T4, A10 and L4; native on the data-centre GPUs)",
                        DeviceFp64GetType(), static_cast<int>(DEFAULT_DEVICE_FP64), flags));
  g_object_class_install_property(
      oc, PROP_DEVICE_MEMORY_LIMIT,
      g_param_spec_uint64("device-memory-limit", "Device memory limit",
                          "Bytes of device memory the CUDA backend's workspaces may take "
                          "(0: no limit). Fewer pairs than max-in-flight are kept on the GPU "
                          "where that many do not fit (with a warning); a frame size for "
                          "which not even one fits is an error. Frames uploaded from system "
                          "memory take two frames per pair on top",
                          0, G_MAXUINT64, DEFAULT_DEVICE_MEMORY_LIMIT, flags));
  g_object_class_install_property(
      oc, PROP_COLORIMETRY_MODE,
      g_param_spec_enum("colorimetry-mode", "Colorimetry mode",
                        "How the distorted stream's colours are read where its colorimetry "
                        "or chroma siting differs from the reference's: reference (as the "
                        "reference's, an encode labelled differently; a warning names the "
                        "difference) or per-stream (each by its own caps, an encode that "
                        "converts colour)",
                        ColorimetryModeGetType(), static_cast<int>(DEFAULT_COLORIMETRY_MODE),
                        flags));
  g_object_class_install_property(
      oc, PROP_ALIGN,
      g_param_spec_enum("align", "Align",
                        "How frames are paired: off (by running time, with dist-offset), "
                        "auto (the distorted stream's offset in frames found from the "
                        "pictures and followed through dropped and repeated frames; the "
                        "latency grows by the frames it holds) or index (the n-th "
                        "reference frame with the n-th distorted frame)",
                        AlignChoiceGetType(), static_cast<int>(DEFAULT_ALIGN), flags));
  g_object_class_install_property(
      oc, PROP_ALIGN_WINDOW,
      g_param_spec_uint("align-window", "Align window",
                        "align=auto: offsets (frames) searched either way of the current "
                        "one; a wider window holds more frames of each stream and, live, "
                        "adds to the latency",
                        1, 120, DEFAULT_ALIGN_WINDOW, flags));
  g_object_class_install_property(
      oc, PROP_REF_START_FRAME,
      g_param_spec_uint64("ref-start-frame", "Reference start frame",
                          "Reference frames of each segment left unscored before pairing "
                          "starts (counted in no counter), in every align mode",
                          0, G_MAXUINT64, DEFAULT_START_FRAME, flags));
  g_object_class_install_property(
      oc, PROP_DIST_START_FRAME,
      g_param_spec_uint64("dist-start-frame", "Distorted start frame",
                          "Distorted frames of each segment dropped before pairing starts "
                          "(counted in no counter), in every align mode",
                          0, G_MAXUINT64, DEFAULT_START_FRAME, flags));
  g_object_class_install_property(
      oc, PROP_LABEL,
      g_param_spec_string("label", "Label",
                          "Names the monitored channel in every message and results record "
                          "(field \"label\"); none: the element's name",
                          nullptr, flags));
  g_object_class_install_property(
      oc, PROP_LAST_SCORE,
      g_param_spec_double("last-score", "Last score",
                          "Score of the last scored pair (NaN before the first)",
                          -G_MAXDOUBLE, 100.0, 0.0, read_only));
  g_object_class_install_property(
      oc, PROP_STATS,
      g_param_spec_boxed("stats", "Statistics",
                         "The segment's statistics so far, with the fields of the "
                         "summary message (reason \"running\")",
                         GST_TYPE_STRUCTURE, read_only));
  g_object_class_install_property(
      oc, PROP_DEVICE_MEMORY,
      g_param_spec_uint64("device-memory", "Device memory",
                          "Bytes of device memory the element's backend holds now (0 on the "
                          "CPU backend and while stopped); at most device-memory-limit plus "
                          "the uploaded frames",
                          0, G_MAXUINT64, 0, read_only));
  g_object_class_install_property(
      oc, PROP_ALIGN_FLAGGED,
      g_param_spec_uint64("align-flagged", "Align flagged",
                          "Pairs of the segment scored while the alignment was being "
                          "established (the stats field of that name)",
                          0, G_MAXUINT64, 0, read_only));
  g_object_class_install_property(
      oc, PROP_REALIGNMENTS,
      g_param_spec_uint64("realignments", "Realignments",
                          "Offsets decided in the segment after its first (the stats field "
                          "of that name)",
                          0, G_MAXUINT64, 0, read_only));
  gst_type_mark_as_plugin_api(AlignChoiceGetType(), static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(BackendChoiceGetType(), static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(ResultsFormatGetType(), static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(LivePolicyGetType(), static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(ResultsFailureGetType(), static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(MetricsGetType(), static_cast<GstPluginAPIFlags>(0));
  gst_type_mark_as_plugin_api(ColorimetryModeGetType(), static_cast<GstPluginAPIFlags>(0));
}

namespace {

std::string StringOrEmpty(const GValue* value) {
  const char* v = g_value_get_string(value);
  return v != nullptr ? v : "";
}

}  // namespace

bool SetSettingsProperty(ElementSettings* s, ElementStrings* strings, guint id,
                         const GValue* value) {
  switch (id) {
    case PROP_BACKEND:
      s->backend = static_cast<BackendChoice>(g_value_get_enum(value));
      return true;
    case PROP_CUDA_DEVICE_ID: s->cuda_device_id = g_value_get_int(value); return true;
    case PROP_MAX_IN_FLIGHT:
      s->max_in_flight = static_cast<int>(g_value_get_uint(value));
      return true;
    case PROP_DIST_OFFSET: s->dist_offset = g_value_get_int64(value); return true;
    case PROP_PAIRING_TOLERANCE: s->pairing_tolerance = g_value_get_int64(value); return true;
    case PROP_THRESHOLD: s->threshold = g_value_get_double(value); return true;
    case PROP_THRESHOLD_HYSTERESIS:
      s->threshold_hysteresis = g_value_get_double(value);
      return true;
    case PROP_THRESHOLD_HOLD: s->threshold_hold = g_value_get_uint64(value); return true;
    case PROP_RESULTS_LOCATION: strings->results_location = StringOrEmpty(value); return true;
    case PROP_LABEL: strings->label = StringOrEmpty(value); return true;
    case PROP_RESULTS_FORMAT:
      s->results_format = static_cast<ResultsFormat>(g_value_get_enum(value));
      return true;
    case PROP_RESULTS_APPEND: s->results_append = g_value_get_boolean(value); return true;
    case PROP_POST_MESSAGES: s->post_messages = g_value_get_boolean(value); return true;
    case PROP_LIVE_POLICY:
      s->live_policy = static_cast<LivePolicy>(g_value_get_enum(value));
      return true;
    case PROP_RESULTS_WRITE_FAILURE:
      s->results_write_failure = static_cast<ResultsFailure>(g_value_get_enum(value));
      return true;
    case PROP_LINK_TIMEOUT: s->link_timeout = g_value_get_uint64(value); return true;
    case PROP_FEED_TIMEOUT: s->feed_timeout = g_value_get_uint64(value); return true;
    case PROP_SUMMARY_INTERVAL: s->summary_interval = g_value_get_uint64(value); return true;
    case PROP_MIN_COVERAGE: s->min_coverage = g_value_get_double(value); return true;
    case PROP_CPU_THREADS: s->cpu_threads = static_cast<int>(g_value_get_uint(value)); return true;
    case PROP_DEVICE_MEMORY_LIMIT: s->device_memory_limit = g_value_get_uint64(value); return true;
    case PROP_COLORIMETRY_MODE:
      s->colorimetry_mode = static_cast<ColorimetryMode>(g_value_get_enum(value));
      return true;
    case PROP_DEVICE_FP64:
      s->device_fp64 = static_cast<DeviceFp64>(g_value_get_enum(value));
      return true;
    case PROP_ALIGN: s->align = static_cast<AlignChoice>(g_value_get_enum(value)); return true;
    case PROP_ALIGN_WINDOW:
      s->align_window = static_cast<int>(g_value_get_uint(value));
      return true;
    case PROP_REF_START_FRAME: s->ref_start_frame = g_value_get_uint64(value); return true;
    case PROP_DIST_START_FRAME: s->dist_start_frame = g_value_get_uint64(value); return true;
    case PROP_METRICS: {
      // No metric at all means the default rather than an element that
      // scores nothing.
      const unsigned m = g_value_get_flags(value) & kAllMetrics;
      s->metrics = m != 0 ? m : DEFAULT_METRICS;
      return true;
    }
    default:
      return false;
  }
}

bool GetSettingsProperty(const ElementSettings& s, const ElementStrings& strings, guint id,
                         GValue* value) {
  switch (id) {
    case PROP_BACKEND: g_value_set_enum(value, static_cast<int>(s.backend)); return true;
    case PROP_CUDA_DEVICE_ID: g_value_set_int(value, s.cuda_device_id); return true;
    case PROP_MAX_IN_FLIGHT:
      g_value_set_uint(value, static_cast<guint>(s.max_in_flight));
      return true;
    case PROP_DIST_OFFSET: g_value_set_int64(value, s.dist_offset); return true;
    case PROP_PAIRING_TOLERANCE: g_value_set_int64(value, s.pairing_tolerance); return true;
    case PROP_THRESHOLD: g_value_set_double(value, s.threshold); return true;
    case PROP_THRESHOLD_HYSTERESIS: g_value_set_double(value, s.threshold_hysteresis); return true;
    case PROP_THRESHOLD_HOLD: g_value_set_uint64(value, s.threshold_hold); return true;
    case PROP_RESULTS_LOCATION:
      g_value_set_string(value, strings.results_location.empty()
                                    ? nullptr
                                    : strings.results_location.c_str());
      return true;
    case PROP_LABEL:
      g_value_set_string(value, strings.label.empty() ? nullptr : strings.label.c_str());
      return true;
    case PROP_RESULTS_FORMAT:
      g_value_set_enum(value, static_cast<int>(s.results_format));
      return true;
    case PROP_RESULTS_APPEND: g_value_set_boolean(value, s.results_append); return true;
    case PROP_POST_MESSAGES: g_value_set_boolean(value, s.post_messages); return true;
    case PROP_LIVE_POLICY: g_value_set_enum(value, static_cast<int>(s.live_policy)); return true;
    case PROP_RESULTS_WRITE_FAILURE:
      g_value_set_enum(value, static_cast<int>(s.results_write_failure));
      return true;
    case PROP_LINK_TIMEOUT: g_value_set_uint64(value, s.link_timeout); return true;
    case PROP_FEED_TIMEOUT: g_value_set_uint64(value, s.feed_timeout); return true;
    case PROP_SUMMARY_INTERVAL: g_value_set_uint64(value, s.summary_interval); return true;
    case PROP_MIN_COVERAGE: g_value_set_double(value, s.min_coverage); return true;
    case PROP_CPU_THREADS: g_value_set_uint(value, static_cast<guint>(s.cpu_threads)); return true;
    case PROP_DEVICE_MEMORY_LIMIT: g_value_set_uint64(value, s.device_memory_limit); return true;
    case PROP_COLORIMETRY_MODE:
      g_value_set_enum(value, static_cast<int>(s.colorimetry_mode));
      return true;
    case PROP_DEVICE_FP64: g_value_set_enum(value, static_cast<int>(s.device_fp64)); return true;
    case PROP_ALIGN: g_value_set_enum(value, static_cast<int>(s.align)); return true;
    case PROP_ALIGN_WINDOW:
      g_value_set_uint(value, static_cast<guint>(s.align_window));
      return true;
    case PROP_REF_START_FRAME: g_value_set_uint64(value, s.ref_start_frame); return true;
    case PROP_DIST_START_FRAME: g_value_set_uint64(value, s.dist_start_frame); return true;
    case PROP_METRICS: g_value_set_flags(value, s.metrics); return true;
    default:
      return false;
  }
}

}  // namespace s2c
