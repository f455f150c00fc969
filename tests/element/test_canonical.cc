// SPDX-License-Identifier: BSD-3-Clause
// The canonical vectors of tests/data through plain pipelines: filesrc !
// pngdec (8-bit RGB) and filesrc ! pnmdec, and the 16-bit pair as
// RGB against RGBA64_LE (the distorted side through appsrc: GStreamer 1.22's
// pngdec shifts 16-bit RGB PNGs by two bytes, see docs/element.md),
// each score printed with %.8f equal to the table of tests/data/README.md,
// and a self-comparison exactly 100.
#include <gst/gst.h>

#include <cstdio>
#include <functional>
#include <cstring>
#include <string>

#include "check.h"
#include "image_io.h"
#include "pipeline_run.h"
#include "png_reader.h"
#include "test_files.h"

namespace {

struct Vector {
  const char* ref;
  const char* dist;
  const char* decoder;
  const char* expected;  // as the canonical tool prints it
};

// The PPM files are written from the PNGs at run time (PpmBytes), in a
// folder of their own: they hold the same pixels, the canonical tool's
// input (tests/data/README.md).
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

void CheckScore(const Vector& v, const std::string& launch,
                const std::function<void(GstElement*)>& prepare) {
  const s2c_test::RunResult r = s2c_test::RunPipeline(launch, {}, prepare);
  char printed[64] = "(no score)";
  if (r.frames.size() == 1) std::snprintf(printed, sizeof(printed), "%.8f", r.frames[0].score);
  const bool self = std::strcmp(v.expected, "100.00000000") == 0;
  S2C_CHECK(r.errors.empty() && r.frames.size() == 1 && std::strcmp(printed, v.expected) == 0 &&
                (!self || r.frames[0].score == 100.0),
            "%s vs %s (%s, %s backend): %s (%.17g), canonical %s%s%s", v.ref, v.dist, v.decoder,
            s2c_test::TestBackend(), printed, r.frames.empty() ? 0.0 : r.frames[0].score,
            v.expected, r.errors.empty() ? "" : "; error: ",
            r.errors.empty() ? "" : r.errors[0].c_str());
}

// flower_small*.ppm in `ppm_dir`, from the PNGs of `dir`.
void WritePpms(const std::string& dir, const std::string& ppm_dir) {
  for (const char* name : {"flower_small", "flower_small_q30", "flower_small_q70",
                           "flower_small_q90"}) {
    s2c::test::HostImage image;
    if (!s2c::test::LoadPng(dir + "/" + name + ".png", &image)) continue;
    const std::string bytes = s2c::test::PpmBytes(image);
    S2C_CHECK(g_file_set_contents((ppm_dir + "/" + name + ".ppm").c_str(), bytes.data(),
                                  static_cast<gssize>(bytes.size()), nullptr),
              "cannot write %s/%s.ppm", ppm_dir.c_str(), name);
  }
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const std::string dir = s2c::test::TestdataDir();
  for (const char* needed : {"pngdec", "pnmdec", "ssimulacra2cmp"}) {
    GstElementFactory* f = gst_element_factory_find(needed);
    S2C_CHECK(f != nullptr, "GStreamer element %s is not installed", needed);
    if (f != nullptr) gst_object_unref(f);
  }
  const s2c::test::TempDir ppm_dir("canonical");
  WritePpms(dir, ppm_dir.path());
  for (const Vector& v : kVectors) {
    const std::string from = std::strcmp(v.decoder, "pnmdec") == 0 ? ppm_dir.path() : dir;
    const std::string a = from + "/" + v.ref;
    const std::string b = from + "/" + v.dist;
    CheckScore(v,
               "filesrc location=\"" + a + "\" ! " + v.decoder +
                   " ! cmp.ref_sink filesrc location=\"" + b + "\" ! " + v.decoder +
                   " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
               nullptr);
  }

  s2c::test::HostImage png16;
  if (!s2c::test::LoadPng(dir + "/" + kSixteenBit.dist, &png16)) return s2c::test::Finish();
  GstBuffer* rgba64 = gst_buffer_new_memdup(png16.bytes.data(), png16.bytes.size());
  CheckScore(kSixteenBit,
             "filesrc location=\"" + dir + "/" + kSixteenBit.ref + "\" ! pngdec ! cmp.ref_sink "
             "appsrc name=dist format=time caps=video/x-raw,format=RGBA64_LE,width=" +
                 std::to_string(png16.desc.width) + ",height=" +
                 std::to_string(png16.desc.height) +
                 ",framerate=0/1 ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
             [rgba64](GstElement* pipeline) {
               GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "dist");
               GstFlowReturn flow;
               g_signal_emit_by_name(src, "push-buffer", rgba64, &flow);
               g_signal_emit_by_name(src, "end-of-stream", &flow);
               gst_object_unref(src);
             });
  gst_buffer_unref(rgba64);
  return s2c::test::Finish();
}
