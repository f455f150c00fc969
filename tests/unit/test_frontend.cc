// SPDX-License-Identifier: BSD-3-Clause
// The video front end (docs/frontend.md) against an independent statement of
// its definition: frames are packed here byte by byte from per-format
// descriptions written for this test, and the expected R'G'B' is computed
// from whole planes with the documented formulas, not by the code under
// test. Every comparison is on bits. This file: format names, plane sizes,
// the RGB and gray formats (test_frontend_yuv.cc: the YUV formats, refused
// frames and the PFM dump).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "frontend_test_frame.h"

namespace s2c {
namespace {

using namespace frontend_test;  // NOLINT: the shared test helpers

// ---------------------------------------------------------------- names

void test_names_round_trip() {
  for (int i = 1; i < static_cast<int>(PixelFormat::kCount); ++i) {
    const PixelFormat f = static_cast<PixelFormat>(i);
    const char* name = PixelFormatName(f);
    S2C_CHECK(name != nullptr && PixelFormatFromName(name) == f,
              "name round trip of format %d (%s)", i, name ? name : "null");
  }
  S2C_CHECK(PixelFormatName(PixelFormat::kUnknown) == nullptr &&
                PixelFormatName(PixelFormat::kCount) == nullptr &&
                PixelFormatName(static_cast<PixelFormat>(-3)) == nullptr,
            "names of invalid formats must be null");
  const struct { const char* name; PixelFormat f; } kKnown[] = {
      {"I420", PixelFormat::kI420}, {"NV12", PixelFormat::kNV12},
      {"P010_10LE", PixelFormat::kP010_10LE}, {"ARGB64", PixelFormat::kARGB64},
      {"ARGB64_LE", PixelFormat::kARGB64}, {"RGBA64_LE", PixelFormat::kRGBA64_LE},
      {"GRAY8", PixelFormat::kGray8}, {"GRAY16_LE", PixelFormat::kGray16LE},
      {"xRGB", PixelFormat::kxRGB}, {"YUY2", PixelFormat::kUnknown},
      {"", PixelFormat::kUnknown}, {"i420", PixelFormat::kUnknown},
  };
  for (const auto& k : kKnown) {
    S2C_CHECK(PixelFormatFromName(k.name) == k.f, "the name \"%s\" gives format %d, want %d",
              k.name, static_cast<int>(PixelFormatFromName(k.name)), static_cast<int>(k.f));
  }
  S2C_CHECK(PixelFormatFromName(nullptr) == PixelFormat::kUnknown, "a null name has a format");
}

void test_plane_sizes() {
  const struct { PixelFormat f; int w, h, plane; size_t row; int rows; } kCases[] = {
      {PixelFormat::kI420, 9, 7, 0, 9, 7},  {PixelFormat::kI420, 9, 7, 1, 5, 4},
      {PixelFormat::kI420, 9, 7, 2, 5, 4},  {PixelFormat::kI420, 9, 7, 3, 0, 0},
      {PixelFormat::kYV12, 10, 8, 2, 5, 4}, {PixelFormat::kY42B, 9, 7, 1, 5, 7},
      {PixelFormat::kY444, 9, 7, 2, 9, 7},  {PixelFormat::kNV12, 9, 7, 1, 10, 4},
      {PixelFormat::kNV12, 9, 7, 2, 0, 0},  {PixelFormat::kNV16, 9, 7, 1, 10, 7},
      {PixelFormat::kNV24, 9, 7, 1, 18, 7}, {PixelFormat::kI420_10LE, 9, 7, 1, 10, 4},
      {PixelFormat::kP010_10LE, 9, 7, 0, 18, 7}, {PixelFormat::kP010_10LE, 9, 7, 1, 20, 4},
      {PixelFormat::kY444_16LE, 9, 7, 2, 18, 7}, {PixelFormat::kRGB, 9, 7, 0, 27, 7},
      {PixelFormat::kBGRx, 9, 7, 0, 36, 7}, {PixelFormat::kARGB64, 9, 7, 0, 72, 7},
      {PixelFormat::kGray8, 9, 7, 0, 9, 7}, {PixelFormat::kGray16LE, 9, 7, 0, 18, 7},
      {PixelFormat::kUnknown, 9, 7, 0, 0, 0},
  };
  for (const auto& c : kCases) {
    const size_t row = PlaneRowBytes(c.f, c.w, c.plane);
    const int rows = PlaneRows(c.f, c.h, c.plane);
    S2C_CHECK(row == c.row && rows == c.rows,
              "plane %d of format %d at %dx%d: %zu bytes x %d rows, want %zu x %d", c.plane,
              static_cast<int>(c.f), c.w, c.h, row, rows, c.row, c.rows);
  }
  const struct { PixelFormat f; int n; } kPlanes[] = {
      {PixelFormat::kI420, 3}, {PixelFormat::kNV21, 2}, {PixelFormat::kP016_LE, 2},
      {PixelFormat::kRGBA, 1}, {PixelFormat::kGray16LE, 1}, {PixelFormat::kUnknown, 0}};
  for (const auto& p : kPlanes) {
    S2C_CHECK(NumPlanes(p.f) == p.n, "format %d has %d planes, want %d", static_cast<int>(p.f),
              NumPlanes(p.f), p.n);
  }
}

// ---------------------------------------------------------------- RGB, gray

// Packed RGB as this test describes it: the channel letter at each byte
// position of a pixel ('R', 'G', 'B', anything else ignored).
struct RgbFormat {
  PixelFormat f;
  const char* order;
  int bytes;
};

const RgbFormat kRgb8[] = {
    {PixelFormat::kRGB, "RGB", 1},   {PixelFormat::kBGR, "BGR", 1},
    {PixelFormat::kRGBA, "RGBA", 1}, {PixelFormat::kBGRA, "BGRA", 1},
    {PixelFormat::kRGBx, "RGBx", 1}, {PixelFormat::kBGRx, "BGRx", 1},
    {PixelFormat::kxRGB, "xRGB", 1}, {PixelFormat::kxBGR, "xBGR", 1},
    {PixelFormat::kARGB, "ARGB", 1}, {PixelFormat::kABGR, "ABGR", 1},
};
const RgbFormat kRgb16[] = {
    {PixelFormat::kARGB64, "ARGB", 2}, {PixelFormat::kRGBA64_LE, "RGBA", 2},
    {PixelFormat::kBGRA64_LE, "BGRA", 2}, {PixelFormat::kABGR64_LE, "ABGR", 2},
};

TestFrame PackRgb(const RgbFormat& rf, int w, int h,
                  const std::vector<uint32_t>& rgb, std::mt19937& rng) {
  TestFrame t(rf.f, w, h);
  const int n = static_cast<int>(std::strlen(rf.order));
  t.Alloc(0, static_cast<size_t>(w) * n * rf.bytes, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int i = 0; i < n; ++i) {
        const char* letter = std::strchr("RGB", rf.order[i]);
        // Alpha and x get noise: they must not matter.
        const uint32_t v = letter ? rgb[(y * w + x) * 3 + (letter - "RGB")]
                                  : static_cast<uint32_t>(rng());
        t.Put(0, (x * n + i) * rf.bytes, y, rf.bytes,
              v & (rf.bytes == 1 ? 0xFFu : 0xFFFFu));
      }
    }
  }
  return t;
}

// The canonical tool's input scaling (exactness contract, layer 1).
float CanonicalScale(uint32_t v, int bytes) {
  return bytes == 1 ? static_cast<float>(v) * static_cast<float>(1.0 / 255)
                    : static_cast<float>(v) * static_cast<float>(1.0 / 65535);
}

void CheckRgbFamily(const RgbFormat* formats, int count, int w, int h,
                    std::mt19937& rng) {
  const int bytes = formats[0].bytes;
  std::vector<uint32_t> rgb(static_cast<size_t>(w) * h * 3);
  for (size_t i = 0; i < rgb.size(); ++i) {
    rgb[i] = rng() & (bytes == 1 ? 0xFFu : 0xFFFFu);
  }
  // Extremes at the corners.
  rgb[0] = 0;
  rgb[1] = bytes == 1 ? 255 : 65535;
  std::vector<float> first;
  for (int i = 0; i < count; ++i) {
    TestFrame t = PackRgb(formats[i], w, h, rgb, rng);
    const std::vector<float> planes = FrontEnd(t.view);
    if (planes.empty()) continue;
    const int n = w * h;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        for (int c = 0; c < 3; ++c) {
          S2C_CHECK_SAME(planes[c * n + y * w + x],
                         CanonicalScale(rgb[(y * w + x) * 3 + c], bytes), "%s",
                         Where("rgb", formats[i].f, x, y, c).c_str());
        }
      }
    }
    if (i == 0) first = planes;
    S2C_CHECK(SamePlanes(planes, first), "%s vs %s: R'G'B' planes differ",
              PixelFormatName(formats[i].f), PixelFormatName(formats[0].f));
  }
}

void test_rgb_formats_scale_like_the_canonical_tool(std::mt19937& rng) {
  CheckRgbFamily(kRgb8, 10, 11, 9, rng);
  CheckRgbFamily(kRgb16, 4, 11, 9, rng);
  CheckRgbFamily(kRgb8, 10, 8, 8, rng);
}

void test_gray_is_rgb_with_equal_channels(std::mt19937& rng) {
  for (int bytes = 1; bytes <= 2; ++bytes) {
    const PixelFormat f = bytes == 1 ? PixelFormat::kGray8 : PixelFormat::kGray16LE;
    const int w = 9, h = 8;
    TestFrame t(f, w, h);
    t.Alloc(0, static_cast<size_t>(w) * bytes, h);
    std::vector<uint32_t> v(static_cast<size_t>(w) * h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        v[y * w + x] = rng() & (bytes == 1 ? 0xFFu : 0xFFFFu);
        t.Put(0, x * bytes, y, bytes, v[y * w + x]);
      }
    }
    const std::vector<float> planes = FrontEnd(t.view);
    if (planes.empty()) continue;
    for (int i = 0; i < w * h; ++i) {
      for (int c = 0; c < 3; ++c) {
        S2C_CHECK_SAME(planes[c * w * h + i], CanonicalScale(v[i], bytes), "%s",
                       Where("gray", f, i % w, i / w, c).c_str());
      }
    }
  }
}


}  // namespace
}  // namespace s2c

int main() {
  std::mt19937 rng(20261129);
  s2c::test_names_round_trip();
  s2c::test_plane_sizes();
  s2c::test_rgb_formats_scale_like_the_canonical_tool(rng);
  s2c::test_gray_is_rgb_with_equal_channels(rng);
  return s2c::test::Finish();
}
