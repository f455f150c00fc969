// SPDX-License-Identifier: BSD-3-Clause
// Still images with alpha, scored as the canonical tool scores them
// (docs/frontend.md, 8): every pair of tests/data/stills/scores.txt prints
// the canonical tool's 8 decimals and gives its double, bit for bit. A
// transparent ramp must not score as the opaque pair does (alpha ignored),
// and an alpha channel that is opaque everywhere must change nothing.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "cpu/cpu_reference.h"
#include "frontend.h"
#include "image_io.h"
#include "png_reader.h"

namespace {

using s2c::test::HostImage;
using s2c::test::LoadPng;

bool Score(s2c::CpuReference& cpu, const HostImage& ref, const HostImage& dist, double* score) {
  s2c::Result r;
  const s2c::Status st = cpu.Compare(ref.View(), dist.View(), &r);
  S2C_CHECK(st.ok(), "%s", st.message().c_str());
  *score = r.score;
  return st.ok();
}

// Each line: reference, distorted, what the canonical tool prints, and the
// same run's double to 17 digits.
void CheckCanonicalScores(s2c::CpuReference& cpu, const std::string& dir) {
  std::ifstream list(dir + "/scores.txt");
  S2C_CHECK(list.good(), "cannot read %s/scores.txt", dir.c_str());
  std::string line;
  int pairs = 0;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string ref_name, dist_name, printed, digits;
    fields >> ref_name >> dist_name >> printed >> digits;
    HostImage ref, dist;
    double score = 0.0;
    if (!LoadPng(dir + "/" + ref_name, &ref) || !LoadPng(dir + "/" + dist_name, &dist) ||
        !Score(cpu, ref, dist, &score)) {
      continue;
    }
    char got[64];
    std::snprintf(got, sizeof(got), "%.8f", score);
    const std::string pair = ref_name + " " + dist_name;
    S2C_CHECK(printed == got, "%s: printed %s, canonical %s", pair.c_str(), got, printed.c_str());
    S2C_CHECK_SAME(score, std::strtod(digits.c_str(), nullptr), "%s", pair.c_str());
    ++pairs;
  }
  S2C_CHECK(pairs >= 7, "only %d pairs in scores.txt", pairs);
}

// The pair of the same colours, without alpha and with a transparent ramp:
// the ramp must count.
void CheckRampIsNotIgnored(s2c::CpuReference& cpu, const std::string& dir) {
  HostImage opaque, opaque_dist, ramp, ramp_dist;
  double without = 0.0, with = 0.0;
  if (!LoadPng(dir + "/opaque.png", &opaque) || !LoadPng(dir + "/opaque_distorted.png", &opaque_dist) ||
      !LoadPng(dir + "/ramp.png", &ramp) || !LoadPng(dir + "/ramp_distorted.png", &ramp_dist) ||
      !Score(cpu, opaque, opaque_dist, &without) || !Score(cpu, ramp, ramp_dist, &with)) {
    return;
  }
  S2C_CHECK(without != with, "the transparent ramp scores as the opaque pair, %.17g", with);
}

// The ramp pair with every alpha sample set to the maximum: the colours of
// the opaque pair, whose bits it must give (each blend is then 1 * v + 0).
void CheckOpaqueAlphaChangesNothing(s2c::CpuReference& cpu, const std::string& dir) {
  HostImage opaque, opaque_dist, ramp, ramp_dist;
  double without = 0.0, with = 0.0;
  if (!LoadPng(dir + "/opaque.png", &opaque) || !LoadPng(dir + "/opaque_distorted.png", &opaque_dist) ||
      !LoadPng(dir + "/ramp.png", &ramp) || !LoadPng(dir + "/ramp_distorted.png", &ramp_dist)) {
    return;
  }
  for (HostImage* img : {&ramp, &ramp_dist}) {
    S2C_CHECK(img->desc.format == s2c::PixelFormat::kRGBA, "the ramp images are RGBA");
    for (size_t i = 3; i < img->bytes.size(); i += 4) img->bytes[i] = 0xff;
    s2c::FrameLayout layout;
    S2C_CHECK(s2c::DescribeFrame(img->View(), &layout).ok() &&
                  !s2c::HasTransparency(layout, img->View()),
              "alpha 255 everywhere is no transparency");
  }
  if (!Score(cpu, opaque, opaque_dist, &without) || !Score(cpu, ramp, ramp_dist, &with)) return;
  S2C_CHECK_SAME(with, without, "opaque alpha");
}

// HasTransparency finds one alpha byte below 0xFF anywhere, in every
// format with alpha, at odd and even widths (its 8-byte words leave a pixel
// over), and nothing in an opaque frame or a format without alpha.
void CheckHasTransparency() {
  using s2c::PixelFormat;
  for (PixelFormat f : {PixelFormat::kRGBA, PixelFormat::kBGRA, PixelFormat::kARGB,
                        PixelFormat::kABGR, PixelFormat::kARGB64, PixelFormat::kRGBA64_LE,
                        PixelFormat::kBGRA64_LE, PixelFormat::kABGR64_LE, PixelFormat::kRGBx}) {
    for (int w : {9, 10}) {
      s2c::FrameView v;
      v.desc.format = f;
      v.desc.width = w;
      v.desc.height = 8;
      s2c::FrameLayout l;
      S2C_CHECK(s2c::DescribeFormat(v.desc, &l).ok(), "%s", s2c::PixelFormatName(f));
      const int step = f == PixelFormat::kRGBx || l.bit_depth == 8 ? 4 : 8;
      v.stride[0] = w * step + 3;
      std::vector<uint8_t> bytes(v.stride[0] * 8, 0xFF);
      v.data[0] = bytes.data();
      S2C_CHECK(!s2c::HasTransparency(l, v), "%s %d: opaque", s2c::PixelFormatName(f), w);
      if (!l.has_alpha) continue;
      // Each byte of the alpha of the last pixel of a row, then of the
      // first, lowered by one.
      for (int x : {w - 1, 0}) {
        for (int b = 0; b < l.alpha.bytes; ++b) {
          uint8_t& at = bytes[5 * v.stride[0] + x * step + l.alpha.offset + b];
          at = 0xFE;
          S2C_CHECK(s2c::HasTransparency(l, v), "%s %d: alpha byte %d of pixel (%d, 5)",
                    s2c::PixelFormatName(f), w, b, x);
          at = 0xFF;
        }
      }
    }
  }
}

// The passes the canonical rule asks for, from the layouts.
void CheckPlan() {
  s2c::FrameLayout rgb{}, rgba{};
  rgba.has_alpha = true;
  struct Case {
    const s2c::FrameLayout* ref;
    const s2c::FrameLayout* dist;
    bool transparent[2];
    int count;
    float background[2];
  } cases[] = {
      {&rgb, &rgb, {false, false}, 1, {0.5f, 0.5f}},
      {&rgb, &rgba, {false, true}, 1, {0.5f, 0.5f}},     // the tool's default background
      {&rgba, &rgb, {true, false}, 2, {0.1f, 0.9f}},
      {&rgba, &rgba, {false, true}, 2, {0.1f, 0.9f}},    // the distorted alpha counts too
      {&rgba, &rgba, {false, false}, 1, {0.1f, 0.9f}},   // opaque: the blends change nothing
  };
  for (const Case& c : cases) {
    const s2c::FrameLayout layout[2] = {*c.ref, *c.dist};
    const s2c::AlphaPasses p = s2c::PlanAlphaPasses(layout, c.transparent);
    S2C_CHECK(p.count == c.count && p.background[0] == c.background[0] &&
                  (p.count == 1 || p.background[1] == c.background[1]),
              "ref alpha %d, dist alpha %d, transparent %d %d: %d passes on %g, %g",
              c.ref->has_alpha, c.dist->has_alpha, c.transparent[0], c.transparent[1], p.count,
              p.background[0], p.background[1]);
  }
}

}  // namespace

int main() {
  const std::string dir = S2C_STILLS_DIR;
  s2c::CpuReference cpu(0);
  CheckPlan();
  CheckHasTransparency();
  CheckCanonicalScores(cpu, dir);
  CheckRampIsNotIgnored(cpu, dir);
  CheckOpaqueAlphaChangesNothing(cpu, dir);
  return s2c::test::Finish();
}

