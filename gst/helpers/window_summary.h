// SPDX-License-Identifier: BSD-3-Clause
// Periodic summaries (summary-interval): the reference frames that leave
// the element are counted in windows of `interval` running time, [start,
// start + interval); the first frame at or past a window's end closes it,
// and the element posts its summary without stopping the stream. Pure
// logic, fed in output order (score_fanout.cc).
#ifndef S2C_GST_WINDOW_SUMMARY_H_
#define S2C_GST_WINDOW_SUMMARY_H_

#include <gst/gst.h>

#include "score_message.h"
#include "stats.h"

namespace s2c {

// Windows of `interval` running time, [start, start + interval), the first
// starting at the first frame's running time and the next at the multiple
// of `interval` after it that holds the frame that closed it: windows
// without frames (a feed that stopped) are skipped.
class TimeWindows {
 public:
  // A frame at `running_time` (valid; interval > 0). True when it closes
  // the current window, whose start is then in `closed_start`.
  bool Advance(GstClockTime interval, GstClockTime running_time, GstClockTime* closed_start);

 private:
  GstClockTime start_ = GST_CLOCK_TIME_NONE;
};

class WindowSummary {
 public:
  // A reference frame left at `running_time` (NONE: untimed, not counted),
  // scored with `score` or not. With interval 0 nothing is counted. True
  // when it closed a window, whose summary is then in `closed` (origin
  // left to the caller).
  bool Add(GstClockTime interval, GstClockTime running_time, bool scored, double score,
           WindowMessage* closed);

  void Reset() { *this = WindowSummary(); }

 private:
  TimeWindows windows_;
  uint64_t ref_frames_ = 0;
  ScoreStats scores_;
};

}  // namespace s2c

#endif  // S2C_GST_WINDOW_SUMMARY_H_
