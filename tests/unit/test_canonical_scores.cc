// SPDX-License-Identifier: BSD-3-Clause
// Layer 1 of the exactness contract on real photographs: the CPU reference
// prints the canonical tool's scores of tests/data to all 8 decimals, the
// q70 pair's 108 sub-scores to the 12 printed decimals, and an image
// against itself scores exactly 100, at every thread count.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "check.h"
#include "cpu/cpu_reference.h"
#include "image_io.h"
#include "png_reader.h"

namespace {

using s2c::test::HostImage;

std::string Printed(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

bool Load(const std::string& dir, const char* name, HostImage* img) {
  return s2c::test::LoadPng(dir + "/" + name, img);
}

void CheckPair(s2c::CpuReference& cpu, const std::string& dir, const char* a,
               const char* b, const char* expected) {
  HostImage ref, dist;
  if (!Load(dir, a, &ref) || !Load(dir, b, &dist)) return;
  s2c::Result r;
  const s2c::Status st = cpu.Compare(ref.View(), dist.View(), &r);
  S2C_CHECK(st.ok(), "%s", st.message().c_str());
  const std::string got = Printed("%.8f", r.score);
  S2C_CHECK(got == expected, "%s vs %s (%d threads): got %s, canonical %s", a,
            b, cpu.threads(), got.c_str(), expected);
}

void CheckQ70Subscores(s2c::CpuReference& cpu, const std::string& dir) {
  HostImage ref, dist;
  if (!Load(dir, "flower_small.png", &ref) || !Load(dir, "flower_small_q70.png", &dist)) return;
  s2c::Result r;
  S2C_CHECK(cpu.Compare(ref.View(), dist.View(), &r).ok(), "compare");
  double v[s2c::kNumWeights];
  const int n = r.subscores.InWeightOrder(v);
  S2C_CHECK(n == 108, "%d sub-scores", n);
  std::ifstream in(dir + "/flower_small_q70.subscores.txt");
  S2C_CHECK(in.is_open(), "cannot open %s/flower_small_q70.subscores.txt", dir.c_str());
  std::string line;
  int i = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("channel", 0) == 0 ||
        line.rfind("score", 0) == 0) {
      continue;
    }
    std::istringstream fields(line);
    std::string channel, scale, value;
    fields >> channel >> scale;
    while (fields >> value && i < n) {
      const std::string got = Printed("%.12f", v[i]);
      S2C_CHECK(got == value, "sub-score %d (%s scale %s): got %s, canonical %s",
                i, channel.c_str(), scale.c_str(), got.c_str(), value.c_str());
      ++i;
    }
  }
  S2C_CHECK(i == 108, "read %d canonical sub-scores", i);
}

void CheckSelf(s2c::CpuReference& cpu, const std::string& dir,
               const char* name) {
  HostImage img;
  if (!Load(dir, name, &img)) return;
  s2c::Result r;
  S2C_CHECK(cpu.Compare(img.View(), img.View(), &r).ok(), "compare");
  S2C_CHECK(r.score == 100.0, "%s against itself: %.17g", name, r.score);
}

}  // namespace

int main() {
  const std::string dir = s2c::test::TestdataDir();
  for (int threads : {1, 2, 3}) {
    s2c::CpuReference cpu(threads);
    CheckPair(cpu, dir, "flower_small.png", "flower_small_q30.png", "62.22503421");
    CheckPair(cpu, dir, "flower_small.png", "flower_small_q70.png", "81.74290736");
    CheckPair(cpu, dir, "flower_small.png", "flower_small_q90.png", "90.00349983");
    CheckSelf(cpu, dir, "flower_small.png");
    CheckSelf(cpu, dir, "flower_small_q30.png");
  }
  s2c::CpuReference cpu(0);
  CheckQ70Subscores(cpu, dir);
  return s2c::test::Finish();
}
