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

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>

#include "element_settings.h"
#include "frame_aligner.h"
#include "gstssimulacra2cmp.h"

namespace s2c {

// A frame taken from its pad: a reference frame waiting for its verdict,
// or a distorted frame that a reference frame may still need.
struct HeldFrame {
  GstBuffer* buffer = nullptr;
  bool gap = false;  // reference: a GAP event's buffer, which leaves in its place
  bool excluded = false;  // reference: before ref-start-frame, leaves unscored in its place
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  uint64_t index = 0;   // at its pad, from 0 after its start frame (not for gaps)
  bool paired = false;  // distorted: scored with a reference frame
};

// Pairing by alignment, per segment; the pads' frame counts in every align
// mode. Streaming thread, but for `restored_by`.
struct AlignState {
  std::unique_ptr<FrameAligner> aligner;  // align other than off
  std::deque<HeldFrame> held[2];          // [PadIndex], oldest first
  // Frames (gaps aside) that reached each pad in the segment, its start
  // frames included.
  uint64_t arrived[2] = {0, 0};
  bool ended[2] = {false, false};  // the aligner was told that the pad is at EOS
  bool decided = false;  // an offset was decided in the segment: the next is a realignment
  // A discontinuity or a restored feed: the aligner restarts before the
  // verdict of reference frame `restart_at`, the first the break can
  // concern (the aligner restarts from its oldest frame without one).
  bool restart_pending = false;
  uint64_t restart_at = 0;
  // The buffer that brought a lost feed back, set by the feed watch as it
  // reaches the pad (feed_watch.h), ahead of the buffers still queued at
  // the pad from before the loss. Compared with the buffers taken, never
  // dereferenced: the alignment restarts at that buffer, not at whichever
  // buffer is taken next (restore_next: it was a gap or a start frame, the
  // pad's next frame restarts it).
  std::atomic<GstBuffer*> restored_by[2] = {{nullptr}, {nullptr}};
  bool restore_next[2] = {false, false};
};

// GstAggregator's aggregate with align other than off (`timeout`: the
// aggregator's live timeout fired).
GstFlowReturn AggregateAligned(GstSsimulacra2Cmp* self, const ElementSettings& s,
                               bool timeout);

// Releases the frames held for alignment and forgets the aligner and the
// pads' frame counts: a new segment, or stop.
void ResetAlignment(AlignState* a);

}  // namespace s2c

#endif  // S2C_GST_ALIGN_FLOW_H_
