// SPDX-License-Identifier: BSD-3-Clause
// The sink pads' caps (pad_caps.cc): the CAPS event, the CAPS and
// ACCEPT_CAPS queries, the colour description the distorted stream is read
// with (colour_interpretation.h), and the distorted branch following the
// reference's size and frame rate.
#ifndef S2C_GST_PAD_CAPS_H_
#define S2C_GST_PAD_CAPS_H_

#include <gst/video/video.h>

#include <atomic>
#include <string>

#include "colour_interpretation.h"
#include "gstssimulacra2cmp.h"
#include "sink_caps.h"
#include "status.h"
#include "steps/frame.h"

namespace s2c {

// A sink pad's format, from its accepted caps.
struct PadFormat {
  bool known = false;
  GstVideoInfo info = {};
  FrameDesc own;   // as the pad's caps describe it
  FrameDesc desc;  // as it is read (colour_interpretation.h): what is scored
  bool cuda_memory = false;
};

// The distorted branch following the reference's size and frame rate.
struct DistFollow {
  // Streaming thread: it was asked to renegotiate to the reference's size
  // (rate), which it said it can produce; cleared when its next caps
  // arrive, or when its CAPS query shows that it cannot after all. Until
  // then the pairs of two sizes are skipped.
  bool size = false;
  bool rate = false;
  // Set by dist_sink's CAPS query, in the upstream's thread: a query since
  // the reference's caps left the reference's size (rate) out.
  std::atomic<bool> refuses_size{false};
  std::atomic<bool> refuses_rate{false};
};

// The sink pads' formats and what their caps set off: checks, warnings,
// the distorted branch following the reference. The streaming thread's,
// except where a comment names another.
struct PadCapsState {
  PadFormat format[2];  // [PadIndex]
  // With SSIM among the metrics: CheckSsimFormats of the two pads' formats,
  // set when caps change (ok until both pads have caps).
  Status ssim_formats;
  GstCaps* ref_caps = nullptr;
  bool negotiation_failed = false;
  bool paired_any = false;  // since start
  bool warned_rates = false;
  // Live: the two pads' frame sizes differ (a resolution change has reached
  // one of them); pairs are skipped, with one warning, until they agree
  // (frame_flow.cc).
  bool sizes_differ = false;
  bool aspects_differ = false;  // pixel-aspect-ratio: one warning per change
  DistFollow dist_follow;
  // The colour description the distorted stream last took from the
  // reference, as warned (one warning per change).
  std::string warned_colour;
  // Object lock: the reference's size and rate, which dist_sink's CAPS
  // query offers (from the reference's caps until stop), and each pad's
  // last refusal in an ACCEPT_CAPS query, warned once.
  bool followed_known = false;
  FollowedFormat followed;
  std::string refused_caps[2];
};

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
