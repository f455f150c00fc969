// SPDX-License-Identifier: BSD-3-Clause
// The ssimulacra2cmp element's state (ElementState), one part for each file
// that owns one, declared in that file's header, and the small helpers
// (element_state.cc) that the element's files share.
#ifndef S2C_GST_ELEMENT_STATE_H_
#define S2C_GST_ELEMENT_STATE_H_

#include <gst/gst.h>

#include <cstdint>

#include "align_flow.h"
#include "element_settings.h"
#include "feed_watch.h"
#include "frame_flow.h"
#include "gstssimulacra2cmp.h"
#include "output_queue.h"
#include "pad_caps.h"
#include "results_output.h"
#include "score_fanout.h"
#include "score_message.h"

namespace s2c {

// Everything the element keeps between calls, by owner. A part without a
// lock of its own is streaming state: the source pad task, start/stop and
// flush touch it, never at the same time (the base class stops the task
// around flush).
struct ElementState {
  PropertyState props;        // element_settings.h; the object lock
  PadCapsState caps;          // pad_caps.h
  PairingState pairing;       // frame_flow.h
  AlignState align;           // align_flow.h
  OutputQueueState queue;     // output_queue.h
  MonitorState monitor;       // score_fanout.h
  ResultsOutputState output;  // results_output.h; results_lock
  FeedWatchState feed;        // feed_watch.h; its own lock
  GstClockID link_watch = nullptr;  // link_watch.h; start and stop only
};

// The settings as they are now (the object lock held for the copy).
ElementSettings ReadSettings(GstSsimulacra2Cmp* self);

inline GstAggregator* Agg(GstSsimulacra2Cmp* self) { return GST_AGGREGATOR(self); }

// Whether the pipeline is live (GstAggregator knows a latency only then).
// Takes the aggregator's source lock: never from get_next_time.
bool IsLive(GstSsimulacra2Cmp* self);

// The pairs the element keeps on the backend at most: max-in-flight, or
// fewer where the backend has room for fewer (Backend::Capacity: a CUDA
// backend fitted to device-memory-limit). Streaming thread only.
int PairsInFlight(GstSsimulacra2Cmp* self);

// Sets the aggregator's latency from the frames on the backend, the
// reference's framerate, dist-offset and the pairing tolerance; a change
// posts a LATENCY message.
void UpdateLatency(GstSsimulacra2Cmp* self);

// The reference's frame period (ns): from its negotiated framerate, else
// as measured (FramePeriod); 0 while unknown.
int64_t RefFramePeriod(const ElementState* p);

// The pairing tolerance in effect (PairingTolerance) at RefFramePeriod.
int64_t CurrentPairingTolerance(const ElementState* p, const ElementSettings& s, bool live);

// Posts an element message with structure s (taken).
void PostStructure(GstSsimulacra2Cmp* self, GstStructure* s);

// The message origin now: the label and the UTC time (score_message.h).
MessageOrigin Origin(ResultsOutputState* out);

// The segment's summary so far.
SummaryMessage MakeSummary(ResultsOutputState* out, const char* reason);

// Segment number `segment` begins: statistics, counters, frame index,
// alignment and alarm from zero.
void ResetSegment(ElementState* p, uint64_t segment);

}  // namespace s2c

#endif  // S2C_GST_ELEMENT_STATE_H_
