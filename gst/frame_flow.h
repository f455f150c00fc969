// SPDX-License-Identifier: BSD-3-Clause
// The element's streaming path (frame_flow.cc): pairing, and handing pairs
// to the output queue (output_queue.h).
#ifndef S2C_GST_FRAME_FLOW_H_
#define S2C_GST_FRAME_FLOW_H_

#include "element_state.h"

namespace s2c {

// GstAggregator's aggregate and get_next_time.
GstFlowReturn Aggregate(GstAggregator* agg, gboolean timeout);
GstClockTime GetNextTime(GstAggregator* agg);

bool SameSize(const PadFormat& a, const PadFormat& b);

// A negotiation error naming the two sizes and the videoscale to insert.
void ReportSizeMismatch(GstSsimulacra2Cmp* self, const PadFormat& r, const PadFormat& d);

}  // namespace s2c

#endif  // S2C_GST_FRAME_FLOW_H_
