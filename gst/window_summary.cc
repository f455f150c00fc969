// SPDX-License-Identifier: BSD-3-Clause
#include "window_summary.h"

namespace s2c {

bool WindowSummary::Add(GstClockTime interval, GstClockTime running_time, bool scored,
                        double score, WindowMessage* closed) {
  if (interval == 0 || !GST_CLOCK_TIME_IS_VALID(running_time)) return false;
  if (!GST_CLOCK_TIME_IS_VALID(start_)) start_ = running_time;
  bool closes = running_time >= start_ && running_time - start_ >= interval;
  if (closes) {
    closed->start = start_;
    closed->end = start_ + interval;
    closed->ref_frames = ref_frames_;
    closed->scores = scores_.Summarize();
    // The next window is the one that holds this frame: windows without
    // frames (a feed that stopped) are not posted.
    start_ += (running_time - start_) / interval * interval;
    ref_frames_ = 0;
    scores_.Reset();
  }
  ++ref_frames_;
  if (scored) scores_.Add(score);
  return closes;
}

}  // namespace s2c
