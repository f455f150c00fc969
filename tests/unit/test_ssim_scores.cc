// SPDX-License-Identifier: BSD-3-Clause
// The SSIM CPU reference against Xiph's dump_ssim: every pair of
// tests/data/ssim (8-bit and 10-bit 4:2:0, odd-size 4:4:4), whose
// values tests/data/README.md lists to 17 digits, raw per plane and combined
// and in dB. Compared with ==. Also: RGB is refused naming videoconvert, the
// format check every backend and the element use (CheckSsimFormats) takes
// exactly the pairs of one YUV format, and the window is dump_ssim's
// (weights summing to 256, symmetric).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "check.h"
#include "cpu/ssim_reference.h"
#include "ssim_planes.h"
#include "ssim_table.h"
#include "y4m_reader.h"

namespace {

void TestWindow() {
  const std::vector<int> w = s2c::SsimWindow(532 * (1.5 / 256), 510);
  int sum = 0;
  for (int v : w) sum += v;
  S2C_CHECK(sum == 256 && w.size() % 2 == 1, "window sums to %d over %zu taps", sum, w.size());
  for (size_t i = 0; i < w.size(); ++i) S2C_CHECK(w[i] == w[w.size() - 1 - i], "asymmetric window");
}

void TestRgbRefused() {
  std::vector<uint8_t> pixels(16 * 16 * 3, 100);
  s2c::FrameView v;
  v.desc.format = s2c::PixelFormat::kRGB;
  v.desc.width = v.desc.height = 16;
  v.data[0] = pixels.data();
  v.stride[0] = 48;
  s2c::SsimResult r;
  const s2c::Status st = s2c::SsimCompare(v, v, &r);
  S2C_CHECK(!st.ok() && st.message().find("videoconvert") != std::string::npos,
            "RGB: %s", st.message().c_str());
}

void TestFormatCheck() {
  using s2c::PixelFormat;
  S2C_CHECK(s2c::CheckSsimFormats(PixelFormat::kI420, PixelFormat::kI420).ok(), "I420 pair");
  S2C_CHECK(s2c::CheckSsimFormats(PixelFormat::kP010_10LE, PixelFormat::kP010_10LE).ok(),
            "P010 pair");
  const struct {
    PixelFormat ref, dist;
    const char* named;  // in the message
  } refused[] = {{PixelFormat::kRGB, PixelFormat::kRGB, "RGB and RGB"},
                 {PixelFormat::kGray8, PixelFormat::kGray8, "GRAY8"},
                 {PixelFormat::kI420, PixelFormat::kNV12, "I420 and NV12"},
                 {PixelFormat::kUnknown, PixelFormat::kI420, "unknown format and I420"}};
  for (const auto& r : refused) {
    const s2c::Status st = s2c::CheckSsimFormats(r.ref, r.dist);
    S2C_CHECK(st.code() == s2c::StatusCode::kInvalidArgument &&
                  st.message().find(r.named) != std::string::npos &&
                  st.message().find("videoconvert") != std::string::npos,
              "%s: %s", r.named, st.message().c_str());
  }
}

}  // namespace

int main() {
  TestWindow();
  TestRgbRefused();
  TestFormatCheck();
  const std::vector<s2c::test::SsimExpected> rows = s2c::test::ReadSsimTable();
  S2C_CHECK(rows.size() == s2c::test::kSsimPairs, "the README's table has %zu pairs, want %zu",
            rows.size(), s2c::test::kSsimPairs);
  for (const s2c::test::SsimExpected& e : rows) {
    s2c::test::Y4mFrame ref, dist;
    std::string error;
    if (!S2C_CHECK(s2c::test::ReadSsimPair(e, &ref, &dist, &error), "%s", error.c_str())) {
      continue;
    }
    s2c::SsimResult r;
    const s2c::Status st = s2c::SsimCompare(ref.View(), dist.View(), &r);
    if (!S2C_CHECK(st.ok(), "%s: %s", e.dist.c_str(), st.message().c_str())) continue;
    const char* a = e.ref.c_str();
    const char* b = e.dist.c_str();
    S2C_CHECK_SAME(r.plane[0], e.y, "%s / %s, Y'", a, b);
    S2C_CHECK_SAME(r.plane[1], e.cb, "%s / %s, Cb", a, b);
    S2C_CHECK_SAME(r.plane[2], e.cr, "%s / %s, Cr", a, b);
    S2C_CHECK_SAME(r.combined, e.combined, "%s / %s, combined", a, b);
    S2C_CHECK_SAME(r.combined_db, e.combined_db, "%s / %s, dB", a, b);
  }
  return s2c::test::Finish();
}
