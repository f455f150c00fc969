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

#include <mutex>

#include "element_state.h"

namespace s2c {

// Installs the buffer probes on both sink pads. Called once, at init.
void InstallFeedProbes(GstSsimulacra2Cmp* self);

// Arms the watch with the clock's time now as both feeds' last buffer
// (timeout 0: none). Called when the element goes to PLAYING.
void StartFeedWatch(GstSsimulacra2Cmp* self, GstClockTime timeout);

// Disarms it. Called when the element leaves PLAYING.
void StopFeedWatch(GstSsimulacra2Cmp* self);

}  // namespace s2c

#endif  // S2C_GST_FEED_WATCH_H_
