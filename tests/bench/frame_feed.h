// SPDX-License-Identifier: BSD-3-Clause
// Prepared I420 frames fed through appsrc, for the element benchmarks: the
// frames are generated once and each buffer wraps one of them, so the
// source costs nothing per frame.
#ifndef S2C_TESTS_BENCH_FRAME_FEED_H_
#define S2C_TESTS_BENCH_FRAME_FEED_H_

#include <gst/gst.h>

#include <string>
#include <vector>

namespace s2c_bench {

// How many distinct frames a feed cycles through: pair i is pair
// i % kDistinctFrames again, and scores the same.
constexpr int kDistinctFrames = 8;

using Frames = std::vector<std::vector<guint8>>;

// kDistinctFrames I420 frames with gradients and edges; `distorted` adds
// noise.
Frames MakeFrames(int width, int height, bool distorted);

// Frame `index` of a feed at `fps`: a buffer wrapping frames[index %
// kDistinctFrames] (no copy; `frames` must outlive it), timestamped index /
// fps, with the frame number as its offset so that the element's
// `frame-index` is `index` even when frames before it went unscored.
GstBuffer* FrameBuffer(const Frames& frames, int index, int fps);

// One appsrc's supply, pulled as fast as the pipeline takes it: `total`
// buffers at 60 fps from `frames`.
struct Feed {
  const Frames* frames = nullptr;
  int total = 0;
  int pushed = 0;
};

// "appsrc name=ref ... ! NAME.ref_sink appsrc name=dist ... ! NAME.dist_sink
// ssimulacra2cmp name=NAME ! fakesink name=out", with the prefix on every
// name so that several fit in one bin. `live_fps` 0: the appsrcs are
// pulled by ConnectFeeds at 60 fps and the sink does not sync. Else they
// are live sources at that rate, whose buffers the application pushes
// (FrameBuffer) at their running times, and the sink renders on the clock,
// as in a live monitoring pipeline.
std::string FedPipeline(int width, int height, const std::string& prefix, int live_fps = 0);

// Connects the two appsrcs named by FedPipeline(prefix) (not live) in `bin`
// to the feeds, which must outlive the pipeline's run.
void ConnectFeeds(GstElement* bin, const std::string& prefix, Feed* ref, Feed* dist);

}  // namespace s2c_bench

#endif  // S2C_TESTS_BENCH_FRAME_FEED_H_
