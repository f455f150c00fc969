// SPDX-License-Identifier: BSD-3-Clause
// Many streams in one process, for bench_streams: N pipelines of
// FedPipeline (frame_feed.h), one ssimulacra2cmp each, played together;
// each stream's bus messages are collected into its RunResult, and the
// device memory the elements hold is sampled while they play.
#ifndef S2C_TESTS_BENCH_STREAM_SET_H_
#define S2C_TESTS_BENCH_STREAM_SET_H_

#include <gst/gst.h>

#include <chrono>
#include <string>
#include <vector>

#include "frame_feed.h"
#include "pipeline_run.h"

namespace s2c_bench {

struct StreamConfig {
  int width = 0, height = 0;
  std::string backend = "cuda";
  std::vector<int> devices;  // CUDA: element i on devices[i % size]
  std::string max_in_flight = "4";
  guint64 memory_limit = 0;  // device-memory-limit of every element; 0: left unset
  int live_fps = 0;          // FedPipeline's: 0 not live
};

struct Stream {
  GstElement* pipeline = nullptr;
  GstElement* cmp = nullptr;
  Feed ref, dist;  // not live: what ConnectFeeds pulls from
  s2c_test::RunResult result;
  bool done = false;  // EOS or an error
};

// Whether the element has the property: the device-memory ones are newer
// than some builds of the plugin, and the bench runs on those too.
bool HasProperty(GstElement* element, const char* name);

class StreamSet {
 public:
  // Builds `count` stopped streams; exits the process when a pipeline
  // cannot be made (the plugin missing, say).
  StreamSet(const StreamConfig& config, int count);
  ~StreamSet();
  StreamSet(const StreamSet&) = delete;
  StreamSet& operator=(const StreamSet&) = delete;

  std::vector<Stream>& streams() { return streams_; }
  bool live() const { return live_fps_ > 0; }

  // Not live: every stream's two appsrcs give `n` frames of `ref` and
  // `dist`, as fast as the pipeline takes them.
  void Feed(const Frames* ref, const Frames* dist, int n);

  // Sets every pipeline playing. Live, all of them run on the system clock
  // with one base time, a little after the call so that every pipeline is
  // playing by then, which is returned: frame k is due at base + k / fps
  // in every stream. Not live: GST_CLOCK_TIME_NONE.
  GstClockTime Play();

  // Collects the streams' bus messages, and samples their device memory
  // when it was last read a while ago; false when there was no message.
  bool Poll();
  // Whether every stream has ended (EOS or an error).
  bool Done() const;
  // Polls until Done().
  void WaitForEnd();

  // Whether config.memory_limit was set on the elements (it is not when
  // they lack device-memory-limit).
  bool limit_set() const { return limit_set_; }
  // Whether the element reports the device memory it holds.
  bool reports_device_memory() const { return reports_memory_; }
  // The largest sum of the elements' device memory seen while they played.
  guint64 peak_device_memory() const { return peak_memory_; }

 private:
  void SampleDeviceMemory();

  std::chrono::steady_clock::time_point next_sample_;

  std::vector<Stream> streams_;
  int live_fps_ = 0;
  bool limit_set_ = false;
  bool reports_memory_ = false;
  guint64 peak_memory_ = 0;
};

}  // namespace s2c_bench

#endif  // S2C_TESTS_BENCH_STREAM_SET_H_
