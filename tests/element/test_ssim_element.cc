// SPDX-License-Identifier: BSD-3-Clause
// SSIM through the element (metrics=ssimulacra2+ssim, and ssim alone): the
// pairs of ../shared/testdata/ssim fed by appsrc give frame messages whose
// ssim, ssim-db and plane fields are the bits dump_ssim prints (the
// README's table), the same value in the buffer's meta, the summary's
// ssim-mean and the json results file; with ssim alone no SSIMULACRA 2 score
// appears anywhere; RGB input with ssim is a negotiation error naming
// videoconvert. Runs on S2C_TEST_BACKEND (cpu by default). Skips (exit 77)
// when the folder is absent.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "frontend.h"
#include "image_io.h"
#include "pipeline_run.h"
#include "ssim_table.h"
#include "y4m_reader.h"

namespace {

// A check of the shared harness (check.h), with a line for each that passes.
void Check(bool ok, const std::string& what) {
  S2C_CHECK(ok, "%s", what.c_str());
  if (ok) std::printf("ok   %s\n", what.c_str());
}

bool SameBits(double a, double b) { return s2c::test::Bits(a) == s2c::test::Bits(b); }

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

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Printed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void TestPair(const s2c::test::SsimExpected& e, const char* metrics) {
  s2c::test::Y4mFrame ref, dist;
  std::string error;
  if (!s2c::test::ReadSsimPair(e, &ref, &dist, &error)) {
    Check(false, error);
    return;
  }
  std::string ref_caps, dist_caps;
  GstBuffer* a = BufferOf(ref, &ref_caps);
  GstBuffer* b = BufferOf(dist, &dist_caps);
  const std::string results = std::string(g_get_tmp_dir()) + "/s2c-ssim-element.json";
  const s2c_test::RunResult r = s2c_test::RunPipeline(
      "appsrc name=ref format=time caps=" + ref_caps +
          " ! cmp.ref_sink appsrc name=dist format=time caps=" + dist_caps +
          " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
      {std::string("metrics=") + metrics, "results-location=" + results, "results-format=json"},
      [a, b](GstElement* pipeline) {
        Push(pipeline, "ref", a);
        Push(pipeline, "dist", b);
      });
  gst_buffer_unref(a);
  gst_buffer_unref(b);
  const std::string what = e.ref + " / " + e.dist + " (" + metrics + ", " +
                           s2c_test::TestBackend() + ")";
  const bool with_score = std::strcmp(metrics, "ssim") != 0;
  const unsigned want_metrics = s2c::kMetricSsim | (with_score ? s2c::kMetricSsimulacra2 : 0u);
  if (!r.errors.empty() || r.frames.size() != 1 || r.summaries.empty() || r.out.size() != 1) {
    Check(false, what + ": " + (r.errors.empty() ? "no frame" : r.errors[0]));
    return;
  }
  const s2c::FrameMessage& f = r.frames[0];
  Check(f.metrics == want_metrics, what + ": the frame message has the chosen metrics");
  Check(SameBits(f.ssim.combined, e.combined) && SameBits(f.ssim.plane[0], e.y) &&
            SameBits(f.ssim.plane[1], e.cb) && SameBits(f.ssim.plane[2], e.cr) &&
            SameBits(f.ssim.combined_db, e.combined_db),
        what + ": ssim " + Printed(f.ssim.combined) + " == dump_ssim's " + Printed(e.combined) +
            ", planes and dB too");
  const s2c_test::OutBuffer& out = r.out[0];
  Check(out.has_meta && out.meta.metrics == want_metrics &&
            SameBits(out.meta.ssim, e.combined) && SameBits(out.meta.ssim_db, e.combined_db),
        what + ": the meta holds the same ssim");
  const s2c::SummaryMessage& s = r.summaries.back();
  Check(s.metrics == want_metrics && s.frames_scored() == 1 && SameBits(s.ssim.mean, e.combined),
        what + ": summary ssim-mean");
  const std::string json = ReadFile(results);
  const std::string db = std::isinf(e.combined_db) ? "null" : Printed(e.combined_db);
  Check(json.find("\"ssim\":" + Printed(e.combined) + ",\"ssim_db\":" + db) != std::string::npos &&
            (json.find("\"ssimulacra2\"") != std::string::npos) == with_score,
        what + ": results file");
}

void TestRgbRefused(const std::string& dir) {
  const std::string png = dir + "/flower_small.png";
  const s2c_test::RunResult r = s2c_test::RunPipeline(
      "filesrc location=\"" + png + "\" ! pngdec ! cmp.ref_sink filesrc location=\"" + png +
          "\" ! pngdec ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
      {"metrics=ssimulacra2+ssim"});
  Check(!r.errors.empty() && r.errors[0].find("videoconvert") != std::string::npos &&
            r.frames.empty(),
        "RGB input with ssim: " + (r.errors.empty() ? std::string("no error") : r.errors[0]));
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const std::string dir = s2c::test::TestdataDir();
  const std::vector<s2c::test::SsimExpected> rows = s2c::test::ReadSsimTable();
  if (rows.empty()) {
    std::printf("skipped: ../shared/testdata/ssim not found (set S2C_TESTDATA)\n");
    return 77;
  }
  for (const s2c::test::SsimExpected& e : rows) {
    TestPair(e, "ssimulacra2+ssim");
    TestPair(e, "ssim");
  }
  if (gst_element_factory_find("pngdec") != nullptr) TestRgbRefused(dir);
  return s2c::test::GlobalTally().Finish();
}
