// SPDX-License-Identifier: BSD-3-Clause
#include "pan_clip.h"

#include <gst/video/video.h>

#include <algorithm>
#include <cmath>

namespace s2c_test {
namespace {

// The landscape's light at (x, y): a few smooth waves of unrelated
// lengths, so that it does not repeat along the pan.
double Landscape(double x, double y) {
  return 126.0 + 45.0 * std::sin(x / 23.0 + 0.7 * std::sin(y / 41.0)) +
         35.0 * std::sin((0.8 * x - 0.6 * y) / 17.0) + 25.0 * std::cos(y / 13.0 + x / 61.0);
}

// Its colour, about the light: two slower waves.
double Tint(double x, double y, double phase) {
  return 28.0 * std::sin(x / 37.0 + y / 29.0 + phase);
}

guint8 Sample(double v, int x, int y, bool distorted) {
  if (distorted) {
    // Steps of 12 with a fixed dither of -2 .. 2.
    v = std::floor(v / 12.0) * 12.0 + 6.0 + ((x * 7 + y * 13) % 5) - 2;
  }
  return static_cast<guint8>(std::clamp(std::lround(v), 16L, 235L));
}

}  // namespace

std::string PanCaps(PanFormat format) {
  return std::string("video/x-raw,format=") + (format == PanFormat::kI420 ? "I420" : "RGB") +
         ",width=" + std::to_string(kPanWidth) + ",height=" + std::to_string(kPanHeight) +
         ",framerate=25/1";
}

GstBuffer* PanFrame(PanFormat format, int content, bool distorted, GstClockTime pts,
                    int number) {
  GstVideoInfo info;
  gst_video_info_set_format(&info,
                            format == PanFormat::kI420 ? GST_VIDEO_FORMAT_I420
                                                       : GST_VIDEO_FORMAT_RGB,
                            kPanWidth, kPanHeight);
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame frame;
  gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE);
  const double x0 = static_cast<double>(content) * kPanStep;
  for (int y = 0; y < kPanHeight; ++y) {
    const double ly = static_cast<double>(y) * kPanScale;
    for (int x = 0; x < kPanWidth; ++x) {
      const double lx = x0 + static_cast<double>(x) * kPanScale;
      const double light = Landscape(lx, ly);
      if (format == PanFormat::kRgb) {
        guint8* p = static_cast<guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)) +
                    y * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0) + 3 * x;
        p[0] = Sample(light + Tint(lx, ly, 0.0), x, y, distorted);
        p[1] = Sample(light, x, y, distorted);
        p[2] = Sample(light + Tint(lx, ly, 2.0), x, y, distorted);
        continue;
      }
      static_cast<guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0))
          [y * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0) + x] = Sample(light, x, y, distorted);
      if (x % 2 == 0 && y % 2 == 0) {
        for (int plane = 1; plane < 3; ++plane) {
          static_cast<guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, plane))
              [y / 2 * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane) + x / 2] =
                  Sample(128.0 + Tint(lx, ly, 2.0 * plane), x, y, distorted);
        }
      }
    }
  }
  gst_video_frame_unmap(&frame);
  GST_BUFFER_PTS(buffer) = pts;
  GST_BUFFER_DURATION(buffer) = kPanFrame;
  if (number >= 0) {
    GST_BUFFER_OFFSET(buffer) = static_cast<guint64>(number);
    GST_BUFFER_OFFSET_END(buffer) = static_cast<guint64>(number) + 1;
  }
  return buffer;
}

void PushClip(GstElement* pipeline, const char* name, PanFormat format,
              const std::vector<int>& contents, bool distorted,
              const std::vector<GstClockTime>& pts) {
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), name);
  GstFlowReturn flow;
  for (size_t j = 0; j < contents.size(); ++j) {
    GstBuffer* b = PanFrame(format, contents[j], distorted, pts.empty() ? j * kPanFrame : pts[j],
                            static_cast<int>(j));
    g_signal_emit_by_name(src, "push-buffer", b, &flow);
    gst_buffer_unref(b);
  }
  g_signal_emit_by_name(src, "end-of-stream", &flow);
  gst_object_unref(src);
}

std::vector<int> Run(int first, int n) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = first + i;
  return v;
}

std::vector<int> Then(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace s2c_test
