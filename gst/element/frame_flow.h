// SPDX-License-Identifier: BSD-3-Clause
// The element's streaming path (frame_flow.cc): pairing by running time,
// and handing pairs to the output queue (output_queue.h); pairing by
// alignment is align_flow.h's, through the outcomes below.
#ifndef S2C_GST_FRAME_FLOW_H_
#define S2C_GST_FRAME_FLOW_H_

#include <cstdint>

#include "element_settings.h"
#include "gstssimulacra2cmp.h"
#include "pad_caps.h"
#include "pairing.h"

namespace s2c {

// What the streaming path learns as frames come in: the pairing tolerance
// in effect and the reference's measured frame period (pairing by
// alignment notes it too). Streaming thread.
struct PairingState {
  // The pairing tolerance in effect for the last decision, also for the
  // coverage message.
  int64_t pairing_tolerance = kAutoPairingTolerance;
  // The reference's frame period measured where its caps state no
  // framerate (RefFramePeriod); since start or the last flush.
  FramePeriod ref_period;
  bool warned_dist_ended = false;  // since start or the last flush
};

// GstAggregator's aggregate and get_next_time.
GstFlowReturn Aggregate(GstAggregator* agg, gboolean timeout);
GstClockTime GetNextTime(GstAggregator* agg);

bool SameSize(const PadFormat& a, const PadFormat& b);

// A GAP event, which GstAggregator turns into an empty buffer flagged GAP.
bool IsGap(GstBuffer* buffer);

// What a pad's buffer (none: nullptr) offers, its running time plus
// `offset` (ns).
PadHead HeadOf(GstAggregatorPad* pad, GstBuffer* buffer, int64_t offset);

// The head's running time, NONE when untimed or negative.
GstClockTime RunningTime(const PadHead& head);

// A reference frame seen at its pad: the frame period where the caps state
// none (FramePeriod).
void NoteRefFrame(PairingState* pairing, const PadHead& head, GstBuffer* ref);

// Where a pair's distorted frame came from, for its frame message.
struct PairOrigin {
  uint64_t dist_index = 0;  // FrameMessage::dist_frame_index
  bool flagged = false;     // FrameMessage::align_flagged
};

// The outcomes of pairing, each taking its buffers. A pair: scored, or,
// live and past its reference's deadline, passed on unscored (ref-overdue).
GstFlowReturn TakePair(GstSsimulacra2Cmp* self, GstBuffer* ref, GstBuffer* dist,
                       GstClockTime ref_running_time, const PairOrigin& origin);
// A reference frame without a partner, passed on unscored: counted in
// ref-late (`late`: live, its deadline came first) or ref-unpaired.
GstFlowReturn PassUnpaired(GstSsimulacra2Cmp* self, GstBuffer* ref,
                           GstClockTime ref_running_time, bool late);
// Both streams are done: everything queued leaves, then the summary; EOS.
GstFlowReturn Finish(GstSsimulacra2Cmp* self);

// A negotiation error naming the two sizes and the videoscale to insert.
void ReportSizeMismatch(GstSsimulacra2Cmp* self, const PadFormat& r, const PadFormat& d);

}  // namespace s2c

#endif  // S2C_GST_FRAME_FLOW_H_
