// SPDX-License-Identifier: BSD-3-Clause
// The ssimulacra2cmp element's state and the small helpers that its files
// share: gstssimulacra2cmp.cc (the GObject and GstAggregator wiring:
// properties, caps, events, queries, start and stop) and frame_flow.cc (the
// streaming path: pairing, scoring, sending buffers out in order).
#ifndef S2C_GST_ELEMENT_STATE_H_
#define S2C_GST_ELEMENT_STATE_H_

#include <gst/video/video.h>

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "backend.h"
#include "element_settings.h"
#include "gstssimulacra2cmp.h"
#include "results_writer.h"
#include "score_message.h"
#include "stats.h"
#include "video_desc.h"

namespace s2c {

// One reference buffer on its way out, in output order. A submitted one
// holds both frames mapped until the backend returns its score.
struct Pending {
  GstBuffer* ref = nullptr;
  bool submitted = false;
  GstVideoFrame ref_frame = {};
  GstVideoFrame dist_frame = {};
  uint64_t tag = 0;
  FrameMessage frame;
};

enum PadIndex { kRef = 0, kDist = 1 };

struct PadFormat {
  bool known = false;
  GstVideoInfo info = {};
  FrameDesc desc;
  bool cuda_memory = false;
};

// Per-segment results, read by the application through properties.
struct Results {
  ScoreStats stats;
  uint64_t ref_unpaired = 0;
  uint64_t dist_unpaired = 0;
  uint64_t ref_late = 0;
  uint64_t results_lost = 0;
  double last_score = std::numeric_limits<double>::quiet_NaN();
};

// Everything the element keeps between calls.
struct ElementState {
  ElementSettings settings;  // object lock
  std::string results_location;  // object lock

  // Streaming state: the source pad task, start/stop and flush touch it,
  // never at the same time (the base class stops the task around flush).
  std::unique_ptr<Backend> backend;
  bool backend_is_cuda = false;
  int configured_width = 0;
  int configured_height = 0;
  PadFormat format[2];
  GstCaps* ref_caps = nullptr;
  bool negotiation_failed = false;
  bool paired_any = false;  // since start
  std::deque<Pending> pending;
  uint64_t next_tag = 0;
  uint64_t frame_index = 0;
  bool alarm = false;
  bool warned_dist_ended = false;
  bool warned_rates = false;
  bool warned_results = false;  // since start: one warning for a failing file
  ResultsWriter writer;

  std::mutex results_lock;  // guards `results` against property reads
  Results results;
};

}  // namespace s2c

struct _GstSsimulacra2Cmp {
  GstAggregator parent;
  GstAggregatorPad* pads[2];  // [PadIndex]
  s2c::ElementState* priv;
};

namespace s2c {

// The settings as they are now (the object lock held for the copy).
ElementSettings ReadSettings(GstSsimulacra2Cmp* self);

inline GstAggregator* Agg(GstSsimulacra2Cmp* self) { return GST_AGGREGATOR(self); }

// Posts an element message with structure s (taken).
void PostStructure(GstSsimulacra2Cmp* self, GstStructure* s);

// The segment's summary so far.
SummaryMessage MakeSummary(ElementState* p, const char* reason);

// A new segment: statistics, counters, frame index and alarm from zero.
void ResetSegment(ElementState* p);

}  // namespace s2c

#endif  // S2C_GST_ELEMENT_STATE_H_
