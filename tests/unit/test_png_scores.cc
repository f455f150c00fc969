// SPDX-License-Identifier: BSD-3-Clause
// Layer 1 on the 16-bit test vector: the tank pair (8-bit source, 16-bit
// distorted, PNG only) prints the canonical 17.37731364, read through the
// tests' PNG reader.
#include <cstdio>
#include <string>

#include "check.h"
#include "cpu/cpu_reference.h"
#include "image_io.h"
#include "png_reader.h"

namespace {

using s2c::test::HostImage;

bool Load(const std::string& path, HostImage* img) {
  std::string error;
  return S2C_CHECK(s2c::test::ReadPng(path, img, &error), "%s", error.c_str());
}

}  // namespace

int main() {
  const std::string dir = s2c::test::TestdataDir();
  HostImage src, dist;
  if (!Load(dir + "/tank_source.png", &src) || !Load(dir + "/tank_distorted16.png", &dist)) {
    return s2c::test::Finish();
  }
  S2C_CHECK(src.desc.format == s2c::PixelFormat::kRGB, "tank_source.png is not 8-bit RGB");
  S2C_CHECK(dist.desc.format == s2c::PixelFormat::kRGBA64_LE, "tank_distorted16.png is not 16-bit");
  s2c::CpuReference cpu(0);
  s2c::Result r;
  const s2c::Status st = cpu.Compare(src.View(), dist.View(), &r);
  if (S2C_CHECK(st.ok(), "%s", st.message().c_str())) {
    char got[64];
    std::snprintf(got, sizeof(got), "%.8f", r.score);
    S2C_CHECK(std::string(got) == "17.37731364",
              "tank pair: got %s (%.17g), canonical 17.37731364", got, r.score);
  }
  return s2c::test::Finish();
}
