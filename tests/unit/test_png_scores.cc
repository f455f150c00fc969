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

int main() {
  const std::string dir = s2c::test::TestdataDir();
  s2c::test::HostImage src, dist;
  if (!s2c::test::LoadPng(dir + "/tank_source.png", &src) ||
      !s2c::test::LoadPng(dir + "/tank_distorted16.png", &dist)) {
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
