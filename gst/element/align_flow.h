// SPDX-License-Identifier: BSD-3-Clause
// Pairing by alignment (align=auto or index): the element takes every
// buffer from both sink pads into its own queues (AlignState::held), hands
// each frame to the segment's FrameAligner (frame_aligner.h; with auto, a
// thumbnail of its luma), and for each verdict sends the reference frame
// and its partner down the paths of pairing by running time
// (frame_flow.h), so that scoring, messages, results and live deadlines are
// the same. The aligner's events become "alignment" messages.
#ifndef S2C_GST_ALIGN_FLOW_H_
#define S2C_GST_ALIGN_FLOW_H_

#include "element_state.h"

namespace s2c {

// GstAggregator's aggregate with align other than off (`timeout`: the
// aggregator's live timeout fired).
GstFlowReturn AggregateAligned(GstSsimulacra2Cmp* self, const ElementSettings& s,
                               bool timeout);

}  // namespace s2c

#endif  // S2C_GST_ALIGN_FLOW_H_
