// SPDX-License-Identifier: BSD-3-Clause
// The threshold alarm as pure logic: raised when the score has stayed below
// `threshold` for at least `hold` of running time, cleared when it has
// stayed at or above threshold + hysteresis for as long. With a hold of 0
// a single score raises or clears it. The element feeds it SSIMULACRA 2's
// scores in output order (score_fanout.cc) and posts what it says.
#ifndef S2C_GST_ALARM_H_
#define S2C_GST_ALARM_H_

#include <gst/gst.h>

namespace s2c {

struct AlarmRule {
  double threshold = 0.0;
  double hysteresis = 0.0;
  GstClockTime hold = 0;  // running time, ns
};

enum class AlarmChange { kNone, kRaised, kCleared };

class ThresholdAlarm {
 public:
  // The score of a frame with this running time (NONE for a frame without
  // a timestamp, which cannot measure a hold: it counts as held long
  // enough). Says whether the alarm is raised or cleared by it.
  AlarmChange Update(const AlarmRule& rule, double score, GstClockTime running_time);

  bool active() const { return active_; }
  // No alarm, nothing held (a new segment).
  void Reset() { *this = ThresholdAlarm(); }

 private:
  bool active_ = false;
  // The running time of the first score of the present run of scores on
  // the other side of the alarm's state (NONE: none so far).
  GstClockTime crossing_since_ = GST_CLOCK_TIME_NONE;
  bool crossing_ = false;
};

}  // namespace s2c

#endif  // S2C_GST_ALARM_H_
