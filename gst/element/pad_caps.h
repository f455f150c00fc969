// SPDX-License-Identifier: BSD-3-Clause
// The sink pads' caps (pad_caps.cc): the CAPS event, the CAPS and
// ACCEPT_CAPS queries, the colour description the distorted stream is read
// with (colour_interpretation.h), and the distorted branch following the
// reference's size and frame rate.
#ifndef S2C_GST_PAD_CAPS_H_
#define S2C_GST_PAD_CAPS_H_

#include "element_state.h"

namespace s2c {

// The CAPS event of a sink pad: refused caps are a negotiation error that
// names the element to insert; accepted ones become the pad's format.
gboolean HandleSinkCaps(GstSsimulacra2Cmp* self, PadIndex index, GstCaps* caps);

// The reference's caps are on their way (the CAPS event as it reaches
// ref_sink, before it waits in the pad's queue) or in effect: dist_sink's
// CAPS query offers their size and rate from now on, so that a distorted
// branch negotiating meanwhile already converts to them.
void FollowReferenceCaps(GstSsimulacra2Cmp* self, GstCaps* caps);

// The CAPS query of a sink pad (QueryCaps: dist_sink offers the
// reference's size and rate first) and of the source pad (index -1). An
// answer that leaves a sink pad's filter nothing is also a warning saying
// why, as for ACCEPT_CAPS.
gboolean AnswerCapsQuery(GstSsimulacra2Cmp* self, int index, GstQuery* query);

// The ACCEPT_CAPS query: the CAPS event's own check, so that a pad never
// accepts caps it then refuses. A refusal is also a warning message that
// says what to insert (once per pad and reason), since the upstream
// element that fails to negotiate posts only GStreamer's generic error.
gboolean AnswerAcceptCaps(GstSsimulacra2Cmp* self, PadIndex index, GstQuery* query);

// Before a pair is scored: a distorted branch asked to follow the
// reference that has since shown it cannot (its CAPS query left the
// reference's size or rate out) is no longer waited for; the frame-rate
// warning then comes.
void CheckDistFollow(GstSsimulacra2Cmp* self);

// At start: no caps known, nothing followed or warned, and `mode` (the
// colorimetry-mode property) in effect until stop.
void ResetPadCaps(GstSsimulacra2Cmp* self, ColorimetryMode mode);

}  // namespace s2c

#endif  // S2C_GST_PAD_CAPS_H_
