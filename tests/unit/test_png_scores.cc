// SPDX-License-Identifier: BSD-3-Clause
// Layer 1 on the PNG test vectors: the tank pair (8-bit source, 16-bit
// distorted, PNG only) prints the canonical 17.37731364, and each flower PNG
// holds the pixels of its PPM twin and scores with the same bits.
#include <cstdio>
#include <string>

#include "check.h"
#include "image_io.h"

#ifndef S2C_HAVE_PNG_READER

int main() {
  std::printf("skipped: built without zlib, so without the PNG reader (install zlib1g-dev)\n");
  return 77;
}

#else

#include "cpu/cpu_reference.h"
#include "png_reader.h"

namespace {

using s2c::test::HostImage;

bool Load(const std::string& path, HostImage* img) {
  std::string error;
  const bool ok = path.size() > 4 && path.compare(path.size() - 4, 4, ".png") == 0
                      ? s2c::test::ReadPng(path, img, &error)
                      : s2c::test::ReadPpm(path, img, &error);
  S2C_CHECK(ok, "%s", error.c_str());
  return ok;
}

bool Score(s2c::CpuReference& cpu, const HostImage& a, const HostImage& b, double* score) {
  s2c::Result r;
  const s2c::Status st = cpu.Compare(a.View(), b.View(), &r);
  S2C_CHECK(st.ok(), "%s", st.message().c_str());
  *score = r.score;
  return st.ok();
}

void CheckTank(s2c::CpuReference& cpu, const std::string& dir) {
  HostImage src, dist;
  if (!Load(dir + "/tank_source.png", &src) || !Load(dir + "/tank_distorted16.png", &dist)) return;
  S2C_CHECK(src.desc.format == s2c::PixelFormat::kRGB, "tank_source.png is 8-bit RGB");
  S2C_CHECK(dist.desc.format == s2c::PixelFormat::kRGBA64_LE, "tank_distorted16.png is 16-bit");
  double score = 0.0;
  if (!Score(cpu, src, dist, &score)) return;
  char got[64];
  std::snprintf(got, sizeof(got), "%.8f", score);
  S2C_CHECK(std::string(got) == "17.37731364", "tank pair: got %s (%.17g), canonical 17.37731364",
            got, score);
}

void CheckPngEqualsPpm(s2c::CpuReference& cpu, const std::string& dir, const char* distorted) {
  const std::string base = dir + "/flower_small", other = dir + "/" + distorted;
  HostImage ref_png, ref_ppm, dist_png, dist_ppm;
  if (!Load(base + ".png", &ref_png) || !Load(base + ".ppm", &ref_ppm) ||
      !Load(other + ".png", &dist_png) || !Load(other + ".ppm", &dist_ppm)) {
    return;
  }
  S2C_CHECK(ref_png.bytes == ref_ppm.bytes && ref_png.desc.format == ref_ppm.desc.format,
            "flower_small: PNG and PPM pixels differ");
  S2C_CHECK(dist_png.bytes == dist_ppm.bytes && dist_png.desc.format == dist_ppm.desc.format,
            "%s: PNG and PPM pixels differ", distorted);
  double from_png = 0.0, from_ppm = 0.0;
  if (!Score(cpu, ref_png, dist_png, &from_png) || !Score(cpu, ref_ppm, dist_ppm, &from_ppm)) {
    return;
  }
  S2C_CHECK_SAME_DOUBLE(from_png, from_ppm, distorted);
}

}  // namespace

int main() {
  const std::string dir = s2c::test::TestdataDir();
  if (dir.empty()) {
    std::printf("skipped: ../shared/testdata not found (set S2C_TESTDATA)\n");
    return 77;
  }
  s2c::CpuReference cpu(0);
  CheckTank(cpu, dir);
  for (const char* d : {"flower_small_q30", "flower_small_q70", "flower_small_q90"}) {
    CheckPngEqualsPpm(cpu, dir, d);
  }
  return s2c::test::GlobalTally().Finish();
}

#endif  // S2C_HAVE_PNG_READER
