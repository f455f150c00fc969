// SPDX-License-Identifier: BSD-3-Clause
// The element's property table: ids, defaults, enum types, and the
// settable values as one plain struct the element copies under its object
// lock, and PropertyState, the properties as the element holds them.
// docs/element.md describes each property.
#ifndef S2C_GST_ELEMENT_SETTINGS_H_
#define S2C_GST_ELEMENT_SETTINGS_H_

#include <gst/gst.h>

#include <cstdint>
#include <string>

#include "backend_request.h"
#include "colour_interpretation.h"
#include "metrics.h"
#include "results_writer.h"

namespace s2c {

enum class LivePolicy : int { kPassUnscored = 0, kWait = 1 };

// What a record the results file could not take does: a warning (once; the
// summary counts the lost records) or an element error.
enum class ResultsFailure : int { kWarn = 0, kError = 1 };

// How reference and distorted frames are paired (align_flow.h): by running
// time with dist-offset, by content (FrameAligner's kAuto), or the n-th
// with the n-th (kIndex).
enum class AlignChoice : int { kOff = 0, kAuto = 1, kIndex = 2 };

enum ElementProperty {
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_MAX_IN_FLIGHT,
  PROP_DIST_OFFSET,
  PROP_PAIRING_TOLERANCE,
  PROP_THRESHOLD,
  PROP_THRESHOLD_HYSTERESIS,
  PROP_THRESHOLD_HOLD,
  PROP_RESULTS_LOCATION,
  PROP_RESULTS_FORMAT,
  PROP_POST_MESSAGES,
  PROP_LIVE_POLICY,
  PROP_RESULTS_WRITE_FAILURE,
  PROP_LINK_TIMEOUT,
  PROP_CPU_THREADS,
  PROP_METRICS,
  PROP_DEVICE_FP64,
  PROP_LABEL,
  PROP_FEED_TIMEOUT,
  PROP_SUMMARY_INTERVAL,
  PROP_MIN_COVERAGE,
  PROP_DEVICE_MEMORY_LIMIT,
  PROP_RESULTS_APPEND,
  PROP_COLORIMETRY_MODE,
  PROP_ALIGN,
  PROP_ALIGN_WINDOW,
  PROP_REF_START_FRAME,
  PROP_DIST_START_FRAME,
  PROP_LAST_SCORE,     // read-only, the element answers
  PROP_STATS,          // read-only, the element answers
  PROP_DEVICE_MEMORY,  // read-only, the element answers
  PROP_ALIGN_FLAGGED,  // read-only, the element answers
  PROP_REALIGNMENTS,   // read-only, the element answers
};

#define DEFAULT_BACKEND s2c::BackendChoice::kAuto
#define DEFAULT_CUDA_DEVICE_ID -1
#define DEFAULT_MAX_IN_FLIGHT 2
#define DEFAULT_DIST_OFFSET 0
#define DEFAULT_PAIRING_TOLERANCE (-1)  // auto: PairingTolerance
#define DEFAULT_THRESHOLD (-G_MAXDOUBLE)
#define DEFAULT_THRESHOLD_HYSTERESIS 1.0
#define DEFAULT_THRESHOLD_HOLD 0
#define DEFAULT_RESULTS_FORMAT s2c::ResultsFormat::kJsonLines
#define DEFAULT_RESULTS_APPEND FALSE
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_LIVE_POLICY s2c::LivePolicy::kPassUnscored
#define DEFAULT_RESULTS_WRITE_FAILURE s2c::ResultsFailure::kWarn
#define DEFAULT_LINK_TIMEOUT (10 * GST_SECOND)
#define DEFAULT_FEED_TIMEOUT (2 * GST_SECOND)
#define DEFAULT_SUMMARY_INTERVAL 0
#define DEFAULT_MIN_COVERAGE 0.5
#define DEFAULT_CPU_THREADS 0
#define DEFAULT_METRICS s2c::kMetricSsimulacra2
#define DEFAULT_DEVICE_FP64 s2c::DeviceFp64::kAuto
#define DEFAULT_DEVICE_MEMORY_LIMIT 0
#define DEFAULT_COLORIMETRY_MODE s2c::ColorimetryMode::kReference
#define DEFAULT_ALIGN s2c::AlignChoice::kOff
#define DEFAULT_ALIGN_WINDOW 12
#define DEFAULT_START_FRAME 0

// The string properties, kept apart from ElementSettings so that copying
// the settings on each frame never allocates.
struct ElementStrings {
  std::string results_location;  // "": none
  std::string label;             // "": the element's name
};

// The settable properties except the strings.
struct ElementSettings {
  BackendChoice backend = DEFAULT_BACKEND;
  int cuda_device_id = DEFAULT_CUDA_DEVICE_ID;
  int max_in_flight = DEFAULT_MAX_IN_FLIGHT;
  int64_t dist_offset = DEFAULT_DIST_OFFSET;
  int64_t pairing_tolerance = DEFAULT_PAIRING_TOLERANCE;  // ns; -1: auto
  double threshold = DEFAULT_THRESHOLD;
  double threshold_hysteresis = DEFAULT_THRESHOLD_HYSTERESIS;
  GstClockTime threshold_hold = DEFAULT_THRESHOLD_HOLD;
  ResultsFormat results_format = DEFAULT_RESULTS_FORMAT;
  bool results_append = DEFAULT_RESULTS_APPEND;
  bool post_messages = DEFAULT_POST_MESSAGES;
  LivePolicy live_policy = DEFAULT_LIVE_POLICY;
  ResultsFailure results_write_failure = DEFAULT_RESULTS_WRITE_FAILURE;
  GstClockTime link_timeout = DEFAULT_LINK_TIMEOUT;
  GstClockTime feed_timeout = DEFAULT_FEED_TIMEOUT;
  GstClockTime summary_interval = DEFAULT_SUMMARY_INTERVAL;
  double min_coverage = DEFAULT_MIN_COVERAGE;
  int cpu_threads = DEFAULT_CPU_THREADS;
  unsigned metrics = DEFAULT_METRICS;  // Metric bits
  DeviceFp64 device_fp64 = DEFAULT_DEVICE_FP64;
  uint64_t device_memory_limit = DEFAULT_DEVICE_MEMORY_LIMIT;  // bytes, 0: none
  ColorimetryMode colorimetry_mode = DEFAULT_COLORIMETRY_MODE;
  AlignChoice align = DEFAULT_ALIGN;
  int align_window = DEFAULT_ALIGN_WINDOW;
  uint64_t ref_start_frame = DEFAULT_START_FRAME;
  uint64_t dist_start_frame = DEFAULT_START_FRAME;
};

// The properties as the element holds them, and what its object lock
// guards with them. All of it under the object lock: the application's
// thread sets and reads the properties while the streaming thread copies
// them (ReadSettings).
struct PropertyState {
  ElementSettings settings;
  ElementStrings strings;
  // From Start to Stop: the settings Start took are in effect, and those
  // that only Start reads refuse to change (SetProperty).
  bool started = false;
  // The seqnum of the last FLUSH_START on each sink pad ([PadIndex]); a
  // flush on both (a seek) abandons the pairs on the backend at once.
  guint32 flush_start_seqnum[2] = {GST_SEQNUM_INVALID, GST_SEQNUM_INVALID};
};

// The tolerance pairing-tolerance=-1 (auto) gives where no half frame
// does: not live, or live while the frame period is unknown; also the
// least it gives live.
constexpr int64_t kAutoPairingTolerance = GST_MSECOND;

// The pairing tolerance in effect: pairing-tolerance when it is 0 or more;
// auto (-1), live, half of the reference's frame period `period` (ns, 0:
// unknown; two independent live sources of one rate are at most that far
// apart), at least kAutoPairingTolerance; else kAutoPairingTolerance.
int64_t PairingTolerance(const ElementSettings& s, bool live, int64_t period);

// Installs every property of the element, the read-only ones included, and
// marks its enum types as plugin API.
void InstallElementProperties(GObjectClass* oc);

// Set/get of the settable properties; false for an id they do not own.
bool SetSettingsProperty(ElementSettings* s, ElementStrings* strings, guint id,
                         const GValue* value);
bool GetSettingsProperty(const ElementSettings& s, const ElementStrings& strings, guint id,
                         GValue* value);

}  // namespace s2c

#endif  // S2C_GST_ELEMENT_SETTINGS_H_
