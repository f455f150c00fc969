// SPDX-License-Identifier: BSD-3-Clause
// The canonical vectors of ../shared/testdata through plain pipelines:
// filesrc ! pngdec (8-bit RGB) and filesrc ! pnmdec, and the 16-bit pair as
// RGB against RGBA64_LE (the distorted side through appsrc: GStreamer 1.22's
// pngdec shifts 16-bit RGB PNGs by two bytes, see docs/element.md),
// each score printed with %.8f equal to the table of testdata/README.md, and
// a self-comparison exactly 100. Skips (exit 77) when the folder is absent.
#include <gst/gst.h>

#include <cstdio>
#include <functional>
#include <cstring>
#include <string>

#include "image_io.h"
#include "pipeline_run.h"
#include "png_reader.h"

namespace {

struct Vector {
  const char* ref;
  const char* dist;
  const char* decoder;
  const char* expected;  // as the canonical tool prints it
};

constexpr Vector kVectors[] = {
    {"flower_small.png", "flower_small_q30.png", "pngdec", "62.22503421"},
    {"flower_small.png", "flower_small_q70.png", "pngdec", "81.74290736"},
    {"flower_small.png", "flower_small_q90.png", "pngdec", "90.00349983"},
    {"flower_small.ppm", "flower_small_q30.ppm", "pnmdec", "62.22503421"},
    {"flower_small.ppm", "flower_small_q70.ppm", "pnmdec", "81.74290736"},
    {"flower_small.ppm", "flower_small_q90.ppm", "pnmdec", "90.00349983"},
    {"flower_small.png", "flower_small.png", "pngdec", "100.00000000"},
};

constexpr Vector kSixteenBit = {"tank_source.png", "tank_distorted16.png", "appsrc",
                                "17.37731364"};

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const std::string dir = s2c::test::TestdataDir();
  if (dir.empty() || !g_file_test((dir + "/flower_small.png").c_str(), G_FILE_TEST_EXISTS)) {
    std::printf("skipped: ../shared/testdata not found (set S2C_TESTDATA)\n");
    return 77;
  }
  for (const char* needed : {"pngdec", "pnmdec", "ssimulacra2cmp"}) {
    GstElementFactory* f = gst_element_factory_find(needed);
    if (f == nullptr) {
      std::printf("skipped: GStreamer element %s is not installed\n", needed);
      return 77;
    }
    gst_object_unref(f);
  }
  int failures = 0;
  auto check = [&](const Vector& v, const std::string& launch,
                   const std::function<void(GstElement*)>& prepare) {
    const s2c_test::RunResult r = s2c_test::RunPipeline(launch, {}, prepare);
    char printed[64] = "(no score)";
    if (r.frames.size() == 1) std::snprintf(printed, sizeof(printed), "%.8f", r.frames[0].score);
    bool ok = r.errors.empty() && r.frames.size() == 1 && std::strcmp(printed, v.expected) == 0;
    if (ok && std::strcmp(v.expected, "100.00000000") == 0) ok = r.frames[0].score == 100.0;
    std::printf("%s %s vs %s (%s, %s backend): %s, expected %s (%.17g)\n",
                ok ? "ok  " : "FAIL", v.ref, v.dist, v.decoder, s2c_test::TestBackend(),
                printed, v.expected, r.frames.empty() ? 0.0 : r.frames[0].score);
    for (const std::string& e : r.errors) std::printf("     error: %s\n", e.c_str());
    failures += !ok;
  };
  for (const Vector& v : kVectors) {
    const std::string a = dir + "/" + v.ref;
    const std::string b = dir + "/" + v.dist;
    check(v,
          "filesrc location=\"" + a + "\" ! " + v.decoder +
              " ! cmp.ref_sink filesrc location=\"" + b + "\" ! " + v.decoder +
              " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
          nullptr);
  }
  s2c::test::HostImage png16;
  std::string error;
  if (!s2c::test::ReadPng(dir + "/" + kSixteenBit.dist, &png16, &error)) {
    std::printf("FAIL %s\n", error.c_str());
    return 1;
  }
  GstBuffer* rgba64 = gst_buffer_new_memdup(png16.bytes.data(), png16.bytes.size());
  check(kSixteenBit,
        "filesrc location=\"" + dir + "/" + kSixteenBit.ref + "\" ! pngdec ! cmp.ref_sink "
        "appsrc name=dist format=time caps=video/x-raw,format=RGBA64_LE,width=" +
            std::to_string(png16.desc.width) + ",height=" + std::to_string(png16.desc.height) +
            ",framerate=0/1 ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
        [rgba64](GstElement* pipeline) {
          GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "dist");
          GstFlowReturn flow;
          g_signal_emit_by_name(src, "push-buffer", rgba64, &flow);
          g_signal_emit_by_name(src, "end-of-stream", &flow);
          gst_object_unref(src);
        });
  gst_buffer_unref(rgba64);
  return failures == 0 ? 0 : 1;
}
