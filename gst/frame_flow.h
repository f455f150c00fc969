// SPDX-License-Identifier: BSD-3-Clause
// The element's streaming path (frame_flow.cc): pairing, scoring, and the
// reference buffers sent out in order with their scores.
#ifndef S2C_GST_FRAME_FLOW_H_
#define S2C_GST_FRAME_FLOW_H_

#include "element_state.h"

namespace s2c {

// GstAggregator's aggregate and get_next_time.
GstFlowReturn Aggregate(GstAggregator* agg, gboolean timeout);
GstClockTime GetNextTime(GstAggregator* agg);

// Sends out the pending buffers whose turn has come, in order, waiting for
// the backend while more than `keep` pairs are on it (0: all of them).
GstFlowReturn Drain(GstSsimulacra2Cmp* self, int keep);

// Waits for every pair in flight and drops the results and buffers (flush,
// stop).
void DropPending(ElementState* p);

bool SameSize(const PadFormat& a, const PadFormat& b);

// A negotiation error naming the two sizes and the videoscale to insert.
void ReportSizeMismatch(GstSsimulacra2Cmp* self, const PadFormat& r, const PadFormat& d);

}  // namespace s2c

#endif  // S2C_GST_FRAME_FLOW_H_
