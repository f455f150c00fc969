// SPDX-License-Identifier: BSD-3-Clause
#include "live_feeder.h"

namespace s2c_bench {

namespace {

// A buffer of its own per appsrc, as independent sources would give (a
// wrapper of the prepared frame: nothing is copied).
void Push(GstElement* src, const Frames& frames, int index, int fps) {
  GstBuffer* buf = FrameBuffer(frames, index, fps);
  GstFlowReturn flow;
  g_signal_emit_by_name(src, "push-buffer", buf, &flow);
  gst_buffer_unref(buf);
}

}  // namespace

LiveFeeder::LiveFeeder(const std::vector<GstElement*>& pipelines, const Frames* ref,
                       const Frames* dist, int fps, GstClockTime base)
    : ref_(ref), dist_(dist), fps_(fps), base_(base) {
  for (GstElement* pipeline : pipelines) {
    ref_srcs_.push_back(gst_bin_get_by_name(GST_BIN(pipeline), "ref"));
    dist_srcs_.push_back(gst_bin_get_by_name(GST_BIN(pipeline), "dist"));
  }
  thread_ = std::thread(&LiveFeeder::Run, this);
}

LiveFeeder::~LiveFeeder() {
  Join();
  for (GstElement* src : ref_srcs_) gst_object_unref(src);
  for (GstElement* src : dist_srcs_) gst_object_unref(src);
}

void LiveFeeder::Join() {
  if (thread_.joinable()) thread_.join();
}

void LiveFeeder::Run() {
  GstClock* clock = gst_system_clock_obtain();
  for (int k = 0; k < frames_.load(); ++k) {
    const GstClockTime due = base_ + gst_util_uint64_scale_int(k, GST_SECOND, fps_);
    GstClockID id = gst_clock_new_single_shot_id(clock, due);
    gst_clock_id_wait(id, nullptr);  // returns at once when already past
    gst_clock_id_unref(id);
    for (size_t i = 0; i < ref_srcs_.size(); ++i) {
      Push(ref_srcs_[i], *ref_, k, fps_);
      Push(dist_srcs_[i], *dist_, k, fps_);
    }
    const GstClockTimeDiff behind = GST_CLOCK_DIFF(due, gst_clock_get_time(clock));
    if (behind > max_behind_) max_behind_ = behind;
  }
  for (size_t i = 0; i < ref_srcs_.size(); ++i) {
    GstFlowReturn flow;
    g_signal_emit_by_name(ref_srcs_[i], "end-of-stream", &flow);
    g_signal_emit_by_name(dist_srcs_[i], "end-of-stream", &flow);
  }
  gst_object_unref(clock);
}

}  // namespace s2c_bench
