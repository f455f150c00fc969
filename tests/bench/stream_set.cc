// SPDX-License-Identifier: BSD-3-Clause
#include "stream_set.h"

#include <cstdio>
#include <cstdlib>

namespace s2c_bench {

namespace {

constexpr char kDeviceMemory[] = "device-memory";
constexpr char kDeviceMemoryLimit[] = "device-memory-limit";

// How often the elements' device memory is read while they play.
constexpr auto kMemorySampleEvery = std::chrono::milliseconds(10);

// Live: how long after Play() the shared base time lies, so that every
// pipeline has been set playing before its first frame is due.
constexpr GstClockTime kLiveStartMargin = 100 * GST_MSECOND;

}  // namespace

bool HasProperty(GstElement* element, const char* name) {
  return g_object_class_find_property(G_OBJECT_GET_CLASS(element), name) != nullptr;
}

StreamSet::StreamSet(const StreamConfig& c, int count) : live_fps_(c.live_fps) {
  streams_.reserve(count);  // the feeds' addresses are handed to the appsrcs
  for (int i = 0; i < count; ++i) {
    Stream s;
    GError* error = nullptr;
    s.pipeline = gst_parse_launch(FedPipeline(c.width, c.height, "", c.live_fps).c_str(), &error);
    if (s.pipeline == nullptr || error != nullptr) {
      std::printf("error: %s\n", error != nullptr ? error->message : "no pipeline");
      std::exit(1);
    }
    s.cmp = gst_bin_get_by_name(GST_BIN(s.pipeline), "cmp");
    gst_util_set_object_arg(G_OBJECT(s.cmp), "backend", c.backend.c_str());
    gst_util_set_object_arg(G_OBJECT(s.cmp), "max-in-flight", c.max_in_flight.c_str());
    if (c.backend == "cuda") {
      g_object_set(s.cmp, "cuda-device-id", c.devices[i % c.devices.size()], nullptr);
    }
    limit_set_ = c.memory_limit > 0 && HasProperty(s.cmp, kDeviceMemoryLimit);
    if (limit_set_) g_object_set(s.cmp, kDeviceMemoryLimit, c.memory_limit, nullptr);
    reports_memory_ = HasProperty(s.cmp, kDeviceMemory);
    streams_.push_back(s);
  }
}

StreamSet::~StreamSet() {
  for (Stream& s : streams_) {
    gst_element_set_state(s.pipeline, GST_STATE_NULL);
    gst_object_unref(s.cmp);
    gst_object_unref(s.pipeline);
  }
}

void StreamSet::Feed(const Frames* ref, const Frames* dist, int n) {
  for (Stream& s : streams_) {
    s.ref = {ref, n, 0};
    s.dist = {dist, n, 0};
    ConnectFeeds(s.pipeline, "", &s.ref, &s.dist);
  }
}

GstClockTime StreamSet::Play() {
  if (!live()) {
    for (Stream& s : streams_) gst_element_set_state(s.pipeline, GST_STATE_PLAYING);
    return GST_CLOCK_TIME_NONE;
  }
  // One clock and one base time for all, which the pipelines keep (no start
  // time of their own): running time k / fps is the same instant in every
  // stream, so one thread can push frame k to all of them. Going to PAUSED
  // starts each element (its backend) and returns at once, live.
  GstClock* clock = gst_system_clock_obtain();
  for (Stream& s : streams_) {
    gst_pipeline_use_clock(GST_PIPELINE(s.pipeline), clock);
    gst_element_set_start_time(s.pipeline, GST_CLOCK_TIME_NONE);
    gst_element_set_state(s.pipeline, GST_STATE_PAUSED);
  }
  const GstClockTime base = gst_clock_get_time(clock) + kLiveStartMargin;
  for (Stream& s : streams_) {
    gst_element_set_base_time(s.pipeline, base);
    gst_element_set_state(s.pipeline, GST_STATE_PLAYING);
  }
  gst_object_unref(clock);
  return base;
}

bool StreamSet::Poll() {
  const auto now = std::chrono::steady_clock::now();
  if (now >= next_sample_) {
    SampleDeviceMemory();
    next_sample_ = now + kMemorySampleEvery;
  }
  bool any = false;
  for (Stream& s : streams_) {
    if (s.done) continue;
    GstBus* bus = gst_element_get_bus(s.pipeline);
    while (GstMessage* m = gst_bus_pop(bus)) {
      any = true;
      s.done = s2c_test::Collect(m, &s.result);
      gst_message_unref(m);
      if (s.done) break;
    }
    gst_object_unref(bus);
  }
  return any;
}

bool StreamSet::Done() const {
  for (const Stream& s : streams_) {
    if (!s.done) return false;
  }
  return true;
}

void StreamSet::WaitForEnd() {
  while (!Done()) {
    if (!Poll()) g_usleep(500);
  }
}

void StreamSet::SampleDeviceMemory() {
  if (!reports_memory_) return;
  guint64 sum = 0;
  for (const Stream& s : streams_) {
    guint64 bytes = 0;
    g_object_get(s.cmp, kDeviceMemory, &bytes, nullptr);
    sum += bytes;
  }
  if (sum > peak_memory_) peak_memory_ = sum;
}

}  // namespace s2c_bench
