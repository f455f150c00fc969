// SPDX-License-Identifier: BSD-3-Clause
// Feed loss. In PLAYING, a sink pad that has had no buffer for
// `feed-timeout` of clock time is lost: a "feed" message says so (state
// "lost"), and says so again when a buffer comes (state "restored"). While
// the distorted feed is lost, last-score reads NaN: the last score no
// longer describes what is on air. A restored feed restarts the alignment
// (align_flow.h) at the buffer that restored it. The watch waits on the element's clock
// (asynchronously, from the clock's thread), so it follows the pipeline's
// clock, a GstTestClock included. Only live pipelines are watched: not
// live, a pad may rightly wait on the other (the aggregator holds it) for
// as long as scoring takes.
#ifndef S2C_GST_FEED_WATCH_H_
#define S2C_GST_FEED_WATCH_H_

#include <gst/gst.h>

#include <mutex>

#include "gstssimulacra2cmp.h"

namespace s2c {

// The watch, under its own lock: the sink pads' probes, the clock's thread
// and state changes touch it.
struct FeedWatchState {
  std::mutex lock;
  bool armed = false;        // in PLAYING, with a feed-timeout
  GstClock* clock = nullptr;  // a reference while armed
  GstClockTime timeout = 0;
  GstClockTime last[2] = {0, 0};  // clock time of each pad's last buffer
  bool lost[2] = {false, false};
  GstClockID id = nullptr;  // the next check
};

// Installs the buffer probes on both sink pads. Called once, at init.
void InstallFeedProbes(GstSsimulacra2Cmp* self);

// Arms the watch with the clock's time now as both feeds' last buffer
// (timeout 0: none). Called when the element goes to PLAYING.
void StartFeedWatch(GstSsimulacra2Cmp* self, GstClockTime timeout);

// Disarms it. Called when the element leaves PLAYING.
void StopFeedWatch(GstSsimulacra2Cmp* self);

}  // namespace s2c

#endif  // S2C_GST_FEED_WATCH_H_
