// SPDX-License-Identifier: BSD-3-Clause
// Feeds live appsrcs (FedPipeline with a live rate) in real time, as a
// capture card would: on a thread of its own, frame k of every stream is
// pushed at clock time base + k / fps, its running time, until the caller
// says where to stop; after the last frame every appsrc gets end-of-stream.
#ifndef S2C_TESTS_BENCH_LIVE_FEEDER_H_
#define S2C_TESTS_BENCH_LIVE_FEEDER_H_

#include <gst/gst.h>

#include <atomic>
#include <climits>
#include <thread>
#include <vector>

#include "frame_feed.h"

namespace s2c_bench {

class LiveFeeder {
 public:
  // Starts pushing frames at `fps` into the appsrcs named "ref" and "dist"
  // of each pipeline, from `ref` and `dist` (which must outlive the
  // feeder), frame 0 at `base` on the system clock.
  LiveFeeder(const std::vector<GstElement*>& pipelines, const Frames* ref, const Frames* dist,
             int fps, GstClockTime base);
  ~LiveFeeder();  // joins the thread: StopAfter must have been called
  LiveFeeder(const LiveFeeder&) = delete;
  LiveFeeder& operator=(const LiveFeeder&) = delete;

  // Makes frame `frames` - 1 the last (or the next, when it is past).
  void StopAfter(int frames) { frames_ = frames; }

  // Waits until the last frame and end-of-stream are pushed.
  void Join();

  // The most a frame's pushes into all appsrcs ended after the frame was
  // due: a feeder that falls behind makes frames late that the element
  // did not delay.
  GstClockTimeDiff max_behind() const { return max_behind_; }

 private:
  void Run();

  std::vector<GstElement*> ref_srcs_, dist_srcs_;
  const Frames* ref_;
  const Frames* dist_;
  int fps_;
  std::atomic<int> frames_{INT_MAX};
  GstClockTime base_;
  GstClockTimeDiff max_behind_ = 0;
  std::thread thread_;
};

}  // namespace s2c_bench

#endif  // S2C_TESTS_BENCH_LIVE_FEEDER_H_
