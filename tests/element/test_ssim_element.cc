// SPDX-License-Identifier: BSD-3-Clause
// SSIM through the element (metrics=ssimulacra2+ssim, and ssim alone): each
// of the six pairs of tests/data/ssim, read by filesrc ! y4mdec and fed
// by appsrc from the tests' own YUV4MPEG2 reader, gives frame messages
// whose ssim, ssim-db and plane fields are the bits dump_ssim prints (the
// table of tests/data/README.md), the same value in the buffer's meta, the
// summary's ssim-mean and the json results file; with ssim alone no
// SSIMULACRA 2 score appears anywhere; RGB input with ssim is a
// negotiation error naming videoconvert. Runs on S2C_TEST_BACKEND (cpu by
// default). A y4mdec that reads a file's colour space as another format
// (GStreamer 1.22's reads C420p10 as 8-bit I420) cannot give that pair: it
// is then checked through appsrc alone, and the test says so.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "frontend.h"
#include "image_io.h"
#include "pipeline_run.h"
#include "ssim_table.h"
#include "test_files.h"
#include "y4m_reader.h"

namespace {

using s2c::test::ReadFile;
using s2c::test::SameBits;

// The frame in GStreamer's default layout for its caps, and those caps.
GstBuffer* BufferOf(const s2c::test::Y4mFrame& f, std::string* caps) {
  const s2c::FrameView v = f.View();
  GstVideoInfo info;
  gst_video_info_set_format(&info,
                            gst_video_format_from_string(s2c::PixelFormatName(v.desc.format)),
                            v.desc.width, v.desc.height);
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame frame;
  gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE);
  for (int p = 0; p < 3; ++p) {
    const size_t row = s2c::PlaneRowBytes(v.desc.format, v.desc.width, p);
    for (int y = 0; y < s2c::PlaneRows(v.desc.format, v.desc.height, p); ++y) {
      std::memcpy(static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p)) +
                      y * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p),
                  v.data[p] + y * v.stride[p], row);
    }
  }
  gst_video_frame_unmap(&frame);
  GST_BUFFER_PTS(buffer) = 0;
  *caps = std::string("video/x-raw,format=") + s2c::PixelFormatName(v.desc.format) +
          ",width=" + std::to_string(v.desc.width) + ",height=" + std::to_string(v.desc.height) +
          ",framerate=0/1";
  return buffer;
}

void Push(GstElement* pipeline, const char* name, GstBuffer* buffer) {
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), name);
  GstFlowReturn flow;
  g_signal_emit_by_name(src, "push-buffer", buffer, &flow);
  g_signal_emit_by_name(src, "end-of-stream", &flow);
  gst_object_unref(src);
}

std::string Printed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The format y4mdec gives for a file (GStreamer's name), "" when it gives
// none.
std::string Y4mdecFormat(const std::string& path) {
  GstElement* pipeline = gst_parse_launch(
      ("filesrc location=\"" + path + "\" ! y4mdec name=d ! fakesink").c_str(), nullptr);
  if (pipeline == nullptr) return "";
  gst_element_set_state(pipeline, GST_STATE_PAUSED);
  gst_element_get_state(pipeline, nullptr, nullptr, 10 * GST_SECOND);
  GstElement* dec = gst_bin_get_by_name(GST_BIN(pipeline), "d");
  GstPad* pad = gst_element_get_static_pad(dec, "src");
  GstCaps* caps = gst_pad_get_current_caps(pad);
  std::string format;
  if (caps != nullptr) {
    const char* f = gst_structure_get_string(gst_caps_get_structure(caps, 0), "format");
    format = f != nullptr ? f : "";
    gst_caps_unref(caps);
  }
  gst_object_unref(pad);
  gst_object_unref(dec);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  return format;
}

// What the element says about one pair, fed by `source` ("y4mdec" or
// "appsrc"), is what dump_ssim prints, everywhere it says it.
void CheckRun(const s2c::test::SsimExpected& e, const char* metrics, const char* source,
              const s2c_test::RunResult& r, const std::string& results) {
  const std::string what = e.ref + " / " + e.dist + " (" + source + ", " + metrics + ", " +
                           s2c_test::TestBackend() + ")";
  const char* w = what.c_str();
  const bool with_score = std::strcmp(metrics, "ssim") != 0;
  const unsigned want_metrics = s2c::kMetricSsim | (with_score ? s2c::kMetricSsimulacra2 : 0u);
  if (!S2C_CHECK(r.errors.empty() && r.frames.size() == 1 && !r.summaries.empty() &&
                     r.out.size() == 1,
                 "%s: %s", w, r.errors.empty() ? "no frame" : r.errors[0].c_str())) {
    return;
  }
  const s2c::FrameMessage& f = r.frames[0];
  S2C_CHECK(f.metrics == want_metrics, "%s: the frame message has metrics %u, want %u", w,
            f.metrics, want_metrics);
  S2C_CHECK_SAME(f.ssim.combined, e.combined, "%s: ssim", w);
  S2C_CHECK_SAME(f.ssim.plane[0], e.y, "%s: ssim-y", w);
  S2C_CHECK_SAME(f.ssim.plane[1], e.cb, "%s: ssim-cb", w);
  S2C_CHECK_SAME(f.ssim.plane[2], e.cr, "%s: ssim-cr", w);
  S2C_CHECK_SAME(f.ssim.combined_db, e.combined_db, "%s: ssim-db", w);
  const s2c_test::OutBuffer& out = r.out[0];
  S2C_CHECK(out.has_meta && out.meta.metrics == want_metrics &&
                SameBits(out.meta.ssim, e.combined) && SameBits(out.meta.ssim_db, e.combined_db),
            "%s: the meta holds ssim %.17g, %.17g dB", w, out.meta.ssim, out.meta.ssim_db);
  const s2c::SummaryMessage& s = r.summaries.back();
  S2C_CHECK(s.metrics == want_metrics && s.frames_scored() == 1 &&
                SameBits(s.ssim.mean, e.combined),
            "%s: summary ssim-mean %.17g", w, s.ssim.mean);
  const std::string json = ReadFile(results);
  const std::string db = std::isinf(e.combined_db) ? "null" : Printed(e.combined_db);
  S2C_CHECK(json.find("\"ssim\":" + Printed(e.combined) + ",\"ssim_db\":" + db) !=
                    std::string::npos &&
                (json.find("\"ssimulacra2\"") != std::string::npos) == with_score,
            "%s: results file", w);
}

void TestPair(const s2c::test::SsimExpected& e, const char* metrics) {
  const s2c::test::TempDir dir("ssim-element");
  const std::string results = dir / "results.json";
  const std::vector<std::string> props = {std::string("metrics=") + metrics,
                                          "results-location=" + results,
                                          "results-format=json"};
  s2c::test::Y4mFrame ref, dist;
  std::string error;
  if (!S2C_CHECK(s2c::test::ReadSsimPair(e, &ref, &dist, &error), "%s", error.c_str())) return;

  // filesrc ! y4mdec, where y4mdec reads the files as the format they hold.
  const std::string ref_path = s2c::test::SsimPath(e.ref);
  const std::string dist_path = s2c::test::SsimPath(e.dist);
  const std::string format = s2c::PixelFormatName(ref.image.desc.format);
  const std::string decoded = Y4mdecFormat(ref_path);
  if (decoded == format) {
    CheckRun(e, metrics, "y4mdec",
             s2c_test::RunPipeline("filesrc location=\"" + ref_path + "\" ! y4mdec ! cmp.ref_sink "
                                   "filesrc location=\"" + dist_path + "\" ! y4mdec ! "
                                   "cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
                                   props),
             results);
  } else {
    std::printf("note: y4mdec reads %s as %s, not %s: this pair goes through appsrc only\n",
                e.ref.c_str(), decoded.empty() ? "nothing" : decoded.c_str(), format.c_str());
  }

  // appsrc, from the tests' reader.
  std::string ref_caps, dist_caps;
  GstBuffer* a = BufferOf(ref, &ref_caps);
  GstBuffer* b = BufferOf(dist, &dist_caps);
  const s2c_test::RunResult r = s2c_test::RunPipeline(
      "appsrc name=ref format=time caps=" + ref_caps +
          " ! cmp.ref_sink appsrc name=dist format=time caps=" + dist_caps +
          " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
      props, [a, b](GstElement* pipeline) {
        Push(pipeline, "ref", a);
        Push(pipeline, "dist", b);
      });
  gst_buffer_unref(a);
  gst_buffer_unref(b);
  CheckRun(e, metrics, "appsrc", r, results);
}

void TestRgbRefused(const std::string& dir) {
  const std::string png = dir + "/flower_small.png";
  const s2c_test::RunResult r = s2c_test::RunPipeline(
      "filesrc location=\"" + png + "\" ! pngdec ! cmp.ref_sink filesrc location=\"" + png +
          "\" ! pngdec ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
      {"metrics=ssimulacra2+ssim"});
  S2C_CHECK(!r.errors.empty() && r.errors[0].find("videoconvert") != std::string::npos &&
                r.frames.empty(),
            "RGB input with ssim: %s", r.errors.empty() ? "no error" : r.errors[0].c_str());
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  for (const char* needed : {"y4mdec", "pngdec", "ssimulacra2cmp"}) {
    GstElementFactory* factory = gst_element_factory_find(needed);
    S2C_CHECK(factory != nullptr, "GStreamer element %s is not installed", needed);
    if (factory != nullptr) gst_object_unref(factory);
  }
  const std::vector<s2c::test::SsimExpected> rows = s2c::test::ReadSsimTable();
  S2C_CHECK(rows.size() == s2c::test::kSsimPairs, "the README's table has %zu pairs, want %zu",
            rows.size(), s2c::test::kSsimPairs);
  for (const s2c::test::SsimExpected& e : rows) {
    TestPair(e, "ssimulacra2+ssim");
    TestPair(e, "ssim");
  }
  TestRgbRefused(s2c::test::TestdataDir());
  return s2c::test::Finish();
}
