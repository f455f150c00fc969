// SPDX-License-Identifier: BSD-3-Clause
#include "alarm.h"

namespace s2c {

AlarmChange ThresholdAlarm::Update(const AlarmRule& rule, double score,
                                   GstClockTime running_time) {
  const bool crosses = active_ ? score >= rule.threshold + rule.hysteresis
                               : score < rule.threshold;
  if (!crosses) {
    // The run is broken: the next crossing holds from its own start.
    crossing_ = false;
    crossing_since_ = GST_CLOCK_TIME_NONE;
    return AlarmChange::kNone;
  }
  if (!crossing_) {
    crossing_ = true;
    crossing_since_ = running_time;
  }
  const bool held = rule.hold == 0 || !GST_CLOCK_TIME_IS_VALID(running_time) ||
                    !GST_CLOCK_TIME_IS_VALID(crossing_since_) ||
                    (running_time >= crossing_since_ && running_time - crossing_since_ >= rule.hold);
  if (!held) return AlarmChange::kNone;
  active_ = !active_;
  crossing_ = false;
  crossing_since_ = GST_CLOCK_TIME_NONE;
  return active_ ? AlarmChange::kRaised : AlarmChange::kCleared;
}

}  // namespace s2c
