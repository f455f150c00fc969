// SPDX-License-Identifier: BSD-3-Clause
// Where a reference frame's score goes as the frame leaves the element, in
// output order (output_queue.h sends the buffers out and calls here for
// each one): the score meta on the buffer, the segment's statistics, the
// frame message, the threshold alarm, the summary-interval windows,
// min-coverage and the results file's record. A reference frame that
// leaves unscored counts in the windows and the coverage only.
#ifndef S2C_GST_SCORE_FANOUT_H_
#define S2C_GST_SCORE_FANOUT_H_

#include <gst/gst.h>

#include <cstdint>

#include "alarm.h"
#include "coverage.h"
#include "gstssimulacra2cmp.h"
#include "score_message.h"
#include "window_summary.h"

namespace s2c {

// What the reference frames leaving the element feed besides the results:
// their numbering and the signals that watch the scores. Streaming thread;
// from zero with each segment.
struct MonitorState {
  // The pairs scored in the segment: the frame-index of a reference buffer
  // that carries no frame number (FrameIndex).
  uint64_t frame_index = 0;
  ThresholdAlarm alarm;  // SSIMULACRA 2's threshold (alarm.h)
  WindowSummary window;  // summary-interval (window_summary.h)
  CoverageWatch coverage;  // min-coverage (coverage.h)
};

// A scored pair's reference buffer leaves with `scored`, the pair's frame
// message as the backend left it: numbered, counted and reported. *ref
// (taken) comes back writable, with the score meta; after GST_FLOW_ERROR
// (results-write-failure=error, an element error posted) it is released
// and null.
GstFlowReturn FanOutScore(GstSsimulacra2Cmp* self, const FrameMessage& scored, GstBuffer** ref);

// A reference frame leaves unscored (gaps and start frames aside): it
// counts in the summary-interval's window and in min-coverage's.
void CountUnscored(GstSsimulacra2Cmp* self, GstClockTime running_time);

}  // namespace s2c

#endif  // S2C_GST_SCORE_FANOUT_H_
