// SPDX-License-Identifier: BSD-3-Clause
#include "window_summary.h"

namespace s2c {

bool TimeWindows::Advance(GstClockTime interval, GstClockTime running_time,
                          GstClockTime* closed_start) {
  if (!GST_CLOCK_TIME_IS_VALID(start_)) start_ = running_time;
  if (running_time < start_ || running_time - start_ < interval) return false;
  *closed_start = start_;
  start_ += (running_time - start_) / interval * interval;
  return true;
}

bool WindowSummary::Add(GstClockTime interval, GstClockTime running_time, bool scored,
                        double score, WindowMessage* closed) {
  if (interval == 0 || !GST_CLOCK_TIME_IS_VALID(running_time)) return false;
  GstClockTime start = 0;
  const bool closes = windows_.Advance(interval, running_time, &start);
  if (closes) {
    closed->start = start;
    closed->end = start + interval;
    closed->ref_frames = ref_frames_;
    closed->scores = scores_.Summarize();
    ref_frames_ = 0;
    scores_.Reset();
  }
  ++ref_frames_;
  if (scored) scores_.Add(score);
  return closes;
}

}  // namespace s2c
