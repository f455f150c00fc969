// SPDX-License-Identifier: BSD-3-Clause
// A channel's configuration checked against GStreamer: its feeds parse, and
// each of its element keys is a property of ssimulacra2cmp that takes the
// value given. The element on main and the element with more properties
// both work: a key the element lacks is a warning and is left out, so a
// configuration written for a newer element still runs on an older one.
#ifndef S2C_MONITOR_CHANNEL_PLAN_H_
#define S2C_MONITOR_CHANNEL_PLAN_H_

#include <gst/gst.h>

#include <string>
#include <utility>
#include <vector>

#include "config.h"

namespace s2c::monitor {

struct ChannelPlan {
  ChannelConfig config;
  // The element's properties to set, in GStreamer's serialised form
  // (durations converted to the property's unit).
  std::vector<std::pair<std::string, std::string>> properties;
  // The element watches the feeds itself (it has a feed-timeout, and the
  // channel's is not 0): its feed messages say when a feed is lost.
  bool element_watches_feeds = false;

  // Sets `properties` on `element` (an ssimulacra2cmp), which they were
  // checked against.
  void Apply(GstElement* element) const;
};

// Checks `config`; on success fills `plan` and appends to `warnings` the
// keys the element does not have. On failure says why in `error`.
bool PlanChannel(const ChannelConfig& config, ChannelPlan* plan,
                 std::vector<std::string>* warnings, std::string* error);

// The names the channel's pipeline gives its parts.
extern const char kElementName[];       // the ssimulacra2cmp
extern const char* const kFeedNames[2];  // "reference", "distorted": the feeds' bins, as events name them
extern const char* const kSinkPads[2];   // "ref_sink", "dist_sink": where each feed links

// The channel's pipeline, parsed as gst-launch-1.0 would parse
//
//   bin.( name=reference REFERENCE ! capsfilter caps="video/x-raw(ANY)" !
//         queue max-size-time=0 ! cmp.ref_sink )
//   bin.( name=distorted DISTORTED ! capsfilter ... ! cmp.dist_sink )
//   ssimulacra2cmp name=cmp ! fakesink
//
// so a feed is whatever gst-launch takes, with the last element of its
// description linked on: demuxers and decodebin whose pads come later
// (the link waits for their video pad, as gst-launch's does) and a
// description that ends in caps. The queue lets live feeds of different
// latencies meet (channel_plan.cc). Each feed is a bin of its own, which
// tells whose message is whose. Named after the channel; null, with the
// reason in `error` (naming the feed at fault where one is), when it does
// not parse or link.
GstElement* MakeChannelPipeline(const ChannelConfig& config, std::string* error);

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_CHANNEL_PLAN_H_
