// SPDX-License-Identifier: BSD-3-Clause
#include "frame_feed.h"

namespace s2c_bench {

Frames MakeFrames(int w, int h, bool distorted) {
  Frames frames;
  const size_t luma = static_cast<size_t>(w) * h;
  const size_t chroma = static_cast<size_t>((w + 1) / 2) * ((h + 1) / 2);
  unsigned seed = distorted ? 99u : 7u;
  for (int f = 0; f < kDistinctFrames; ++f) {
    std::vector<guint8> buf(luma + 2 * chroma);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        seed = seed * 1103515245u + 12345u;
        int v = ((x + 3 * f) * 255 / w + (y / 64 % 2) * 40) % 220 + 16;
        if (distorted) v += static_cast<int>((seed >> 16) % 9) - 4;
        buf[static_cast<size_t>(y) * w + x] = static_cast<guint8>(v < 16 ? 16 : v > 235 ? 235 : v);
      }
    }
    for (size_t i = 0; i < 2 * chroma; ++i) buf[luma + i] = static_cast<guint8>(128 + (i / 97 + f) % 32 - 16);
    frames.push_back(std::move(buf));
  }
  return frames;
}

GstBuffer* FrameBuffer(const Frames& frames, int index, int fps) {
  const std::vector<guint8>& frame = frames[index % kDistinctFrames];
  GstBuffer* buf = gst_buffer_new_wrapped_full(
      GST_MEMORY_FLAG_READONLY, const_cast<guint8*>(frame.data()), frame.size(), 0,
      frame.size(), nullptr, nullptr);
  GST_BUFFER_PTS(buf) = gst_util_uint64_scale_int(index, GST_SECOND, fps);
  GST_BUFFER_DURATION(buf) = gst_util_uint64_scale_int(1, GST_SECOND, fps);
  GST_BUFFER_OFFSET(buf) = index;
  GST_BUFFER_OFFSET_END(buf) = index + 1;
  return buf;
}

namespace {

constexpr int kPulledFps = 60;

void OnNeedData(GstElement* src, guint, gpointer user) {
  Feed* feed = static_cast<Feed*>(user);
  GstFlowReturn flow;
  if (feed->pushed == feed->total) {
    g_signal_emit_by_name(src, "end-of-stream", &flow);
    return;
  }
  GstBuffer* buf = FrameBuffer(*feed->frames, feed->pushed++, kPulledFps);
  g_signal_emit_by_name(src, "push-buffer", buf, &flow);
  gst_buffer_unref(buf);
}

}  // namespace

std::string FedPipeline(int width, int height, const std::string& prefix, int live_fps) {
  const int fps = live_fps > 0 ? live_fps : kPulledFps;
  const std::string caps = "video/x-raw,format=I420,width=" + std::to_string(width) +
                           ",height=" + std::to_string(height) +
                           ",framerate=" + std::to_string(fps) + "/1";
  // Live: timestamps are the application's (do-timestamp would stamp the
  // push's clock time instead).
  const std::string src =
      live_fps > 0 ? " format=time is-live=true do-timestamp=false caps=" : " format=time caps=";
  const std::string sink = live_fps > 0 ? " sync=true" : "";
  const std::string cmp = prefix + "cmp";
  return "appsrc name=" + prefix + "ref" + src + caps + " ! " + cmp + ".ref_sink appsrc name=" +
         prefix + "dist" + src + caps + " ! " + cmp + ".dist_sink ssimulacra2cmp name=" + cmp +
         " ! fakesink name=" + prefix + "out" + sink;
}

void ConnectFeeds(GstElement* bin, const std::string& prefix, Feed* ref, Feed* dist) {
  Feed* feeds[2] = {ref, dist};
  const std::string names[2] = {prefix + "ref", prefix + "dist"};
  for (int i = 0; i < 2; ++i) {
    GstElement* src = gst_bin_get_by_name(GST_BIN(bin), names[i].c_str());
    g_signal_connect(src, "need-data", G_CALLBACK(OnNeedData), feeds[i]);
    gst_object_unref(src);
  }
}

}  // namespace s2c_bench
