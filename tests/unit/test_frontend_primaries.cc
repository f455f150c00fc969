// SPDX-License-Identifier: BSD-3-Clause
// BT.2020 primaries in the video front end (docs/frontend.md, 9). The
// matrix is the documented one, bit for bit, and agrees with the one ITU-R
// BT.2087 publishes; the per-pixel conversion is the documented order of
// operations, restated here and compared on bits, and it agrees with the
// textbook computation in binary64 (sRGB's curves by pow, the matrix
// derived here from the chromaticities) on known colours. Gray ignores the
// primaries; BT.709 ones change nothing.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "frontend_test_frame.h"
#include "primaries.h"

namespace s2c {
namespace {

using namespace frontend_test;  // NOLINT: the shared test helpers
using test::Float;

// The table of docs/frontend.md, 9, row-major.
const uint32_t kDocumentedMatrix[9] = {
    0x3fd48af8, 0xbf166fa6, 0xbd95324f,  //  1.6604910, -0.5876411, -0.0728499
    0xbdff1452, 0x3f9102dd, 0xbc08cc04,  // -0.1245505,  1.1328999, -0.0083494
    0xbc94b0e9, 0xbdcdfc4f, 0x3f8f3289,  // -0.0181508, -0.1005789,  1.1187297
};

// ITU-R BT.2087-0, equation (4): the same matrix to four decimals.
const double kBt2087[9] = {1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083,
                           -0.0182, -0.1006, 1.1187};

void test_matrix_is_the_documented_one() {
  float m[9];
  Bt2020ToBt709(m);
  for (int i = 0; i < 9; ++i) {
    S2C_CHECK_SAME(m[i], Float(kDocumentedMatrix[i]), "matrix element %d", i);
    S2C_CHECK(std::fabs(m[i] - kBt2087[i]) <= 0.5e-4, "element %d: %.7f, BT.2087 says %.4f", i,
              m[i], kBt2087[i]);
  }
}

// ---------------------------------------------- the definition, restated

float RestatedSrgbToLinear(float x) {
  if (!(x > 0.04045f)) return x * (1.0f / 12.92f);
  const float p[5] = {2.200248328e-04f, 1.043637593e-02f, 1.624820318e-01f, 7.961564959e-01f,
                      8.210152774e-01f};
  const float q[5] = {2.631846970e-01f, 1.076976492e+00f, 4.987528350e-01f, -5.512498495e-02f,
                      6.521209011e-03f};
  float yp = p[4], yq = q[4];
  for (int i = 3; i >= 0; --i) {
    yp = std::fma(yp, x, p[i]);
    yq = std::fma(yq, x, q[i]);
  }
  return yp / yq;
}

float RestatedLinearToSrgb(float x) {
  if (!(x > 0.0031308f)) return x * 12.92f;
  const float p[5] = {-5.135152395e-04f, 5.287254571e-03f, 3.903842876e-01f, 1.474205315e+00f,
                      7.352629620e-01f};
  const float q[5] = {1.004519624e-02f, 3.036675394e-01f, 1.340816930e+00f, 9.258482155e-01f,
                      2.424867759e-02f};
  const float s = std::sqrt(x);
  float yp = p[4], yq = q[4];
  for (int i = 3; i >= 0; --i) {
    yp = std::fma(yp, s, p[i]);
    yq = std::fma(yq, s, q[i]);
  }
  return yp / yq;
}

float Clamp(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

void RestatedConversion(const float in[3], float out[3]) {
  float lin[3];
  for (int k = 0; k < 3; ++k) lin[k] = RestatedSrgbToLinear(in[k]);
  for (int k = 0; k < 3; ++k) {
    const uint32_t* row = &kDocumentedMatrix[3 * k];
    const float mixed = std::fma(Float(row[0]), lin[0],
                                 std::fma(Float(row[1]), lin[1], Float(row[2]) * lin[2]));
    out[k] = Clamp(RestatedLinearToSrgb(Clamp(mixed)));
  }
}

// ------------------------------------- the textbook computation, binary64

double DecodeSrgb(double v) {
  return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}
double EncodeSrgb(double v) {
  return v <= 0.0031308 ? v * 12.92 : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055;
}

// XYZ-to-BT.709 times BT.2020-to-XYZ, by Cramer's rule.
struct M3 {
  double a[3][3];
};
double Det(const M3& m) {
  return m.a[0][0] * (m.a[1][1] * m.a[2][2] - m.a[1][2] * m.a[2][1]) -
         m.a[0][1] * (m.a[1][0] * m.a[2][2] - m.a[1][2] * m.a[2][0]) +
         m.a[0][2] * (m.a[1][0] * m.a[2][1] - m.a[1][1] * m.a[2][0]);
}
// Solves m * x = b.
void Solve(const M3& m, const double b[3], double x[3]) {
  const double d = Det(m);
  for (int c = 0; c < 3; ++c) {
    M3 r = m;
    for (int k = 0; k < 3; ++k) r.a[k][c] = b[k];
    x[c] = Det(r) / d;
  }
}
M3 ToXyz(const double xy[3][2]) {
  M3 p;
  for (int c = 0; c < 3; ++c) {
    p.a[0][c] = xy[c][0] / xy[c][1];
    p.a[1][c] = 1.0;
    p.a[2][c] = (1.0 - xy[c][0] - xy[c][1]) / xy[c][1];
  }
  const double white[3] = {0.3127 / 0.3290, 1.0, (1.0 - 0.3127 - 0.3290) / 0.3290};
  double s[3];
  Solve(p, white, s);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) p.a[r][c] *= s[c];
  }
  return p;
}
void TextbookConversion(const double in[3], double out[3]) {
  const double bt709[3][2] = {{0.64, 0.33}, {0.30, 0.60}, {0.15, 0.06}};
  const double bt2020[3][2] = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}};
  const M3 to_xyz = ToXyz(bt2020);
  double lin[3], xyz[3] = {0, 0, 0}, rgb[3];
  for (int k = 0; k < 3; ++k) lin[k] = DecodeSrgb(in[k]);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) xyz[r] += to_xyz.a[r][c] * lin[c];
  }
  Solve(ToXyz(bt709), xyz, rgb);
  for (int k = 0; k < 3; ++k) out[k] = EncodeSrgb(std::min(std::max(rgb[k], 0.0), 1.0));
}

// ---------------------------------------------------------------- frames

// An 8-bit RGB frame whose rows hold the given pixels (R, G, B codes),
// padded with black to the 8 pixels the front end takes at least.
TestFrame RgbFrame(const std::vector<uint8_t>& codes, RgbPrimaries primaries) {
  const int n = static_cast<int>(codes.size());
  const int w = std::max(n / 3, kMinSide);
  TestFrame t(PixelFormat::kRGB, w, kMinSide);
  t.view.desc.primaries = primaries;
  t.Alloc(0, static_cast<size_t>(w) * 3, kMinSide);
  for (int y = 0; y < kMinSide; ++y) {
    for (int i = 0; i < 3 * w; ++i) t.Put(0, i, y, 1, i < n ? codes[i] : 0);
  }
  return t;
}

// Every colour of a grid of codes: the primaries, white, greys, mixtures.
std::vector<uint8_t> GridColours() {
  std::vector<uint8_t> codes;
  for (int r = 0; r < 256; r += 51) {
    for (int g = 0; g < 256; g += 51) {
      for (int b = 0; b < 256; b += 51) {
        codes.insert(codes.end(), {static_cast<uint8_t>(r), static_cast<uint8_t>(g),
                                   static_cast<uint8_t>(b)});
      }
    }
  }
  return codes;
}

void test_rgb_conversion_is_the_documented_order() {
  const std::vector<uint8_t> codes = GridColours();
  const TestFrame t = RgbFrame(codes, RgbPrimaries::kBT2020);
  const std::vector<float> got = FrontEnd(t.view);
  const int w = t.view.desc.width, n = w * t.view.desc.height;
  for (int x = 0; x < w; ++x) {
    float in[3], want[3];
    for (int k = 0; k < 3; ++k) in[k] = static_cast<float>(codes[3 * x + k]) * (1.0f / 255);
    RestatedConversion(in, want);
    for (int k = 0; k < 3; ++k) {
      S2C_CHECK_SAME(got[k * n + x], want[k], "RGB %d,%d,%d channel %d", codes[3 * x],
                     codes[3 * x + 1], codes[3 * x + 2], k);
    }
  }
}

void test_rgb_conversion_agrees_with_the_textbook() {
  const std::vector<uint8_t> codes = GridColours();
  const TestFrame t = RgbFrame(codes, RgbPrimaries::kBT2020);
  const std::vector<float> got = FrontEnd(t.view);
  const int w = t.view.desc.width, n = w * t.view.desc.height;
  for (int x = 0; x < w; ++x) {
    double in[3], want[3];
    for (int k = 0; k < 3; ++k) in[k] = codes[3 * x + k] / 255.0;
    TextbookConversion(in, want);
    for (int k = 0; k < 3; ++k) {
      S2C_CHECK(std::fabs(got[k * n + x] - want[k]) <= 1e-5,
                "RGB %d,%d,%d channel %d: %.8f, want %.8f", codes[3 * x], codes[3 * x + 1],
                codes[3 * x + 2], k, got[k * n + x], want[k]);
    }
  }
}

// Known values: BT.2020's primaries lie outside BT.709's gamut and clip to
// its own; white and black stay; a BT.709 colour written in BT.2020
// (BT.2087's inverse, in the codes nearest to it) comes back near itself.
void test_known_colours() {
  const std::vector<uint8_t> codes = {255, 0,   0,   0,   255, 0,   0,   0, 255,
                                      255, 255, 255, 0,   0,   0};
  const float want[5][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {0, 0, 0}};
  const TestFrame t = RgbFrame(codes, RgbPrimaries::kBT2020);
  const std::vector<float> got = FrontEnd(t.view);
  const int n = t.view.desc.width * t.view.desc.height;
  for (int x = 0; x < 5; ++x) {
    for (int k = 0; k < 3; ++k) {
      S2C_CHECK(std::fabs(got[k * n + x] - want[x][k]) <= 1e-6, "colour %d channel %d: %.8f", x,
                k, got[k * n + x]);
    }
  }
  // sRGB (0.8, 0.4, 0.2) in BT.2020: its linear values through BT.2087's
  // equation (2), R = 0.6274*R + 0.3293*G + 0.0433*B, ...
  const double srgb[3] = {0.8, 0.4, 0.2};
  const double inverse[9] = {0.6274, 0.3293, 0.0433, 0.0691, 0.9195,
                             0.0114, 0.0164, 0.0880, 0.8956};
  double bt2020[3];
  std::vector<uint8_t> colour;
  for (int r = 0; r < 3; ++r) {
    double lin = 0;
    for (int c = 0; c < 3; ++c) lin += inverse[3 * r + c] * DecodeSrgb(srgb[c]);
    bt2020[r] = EncodeSrgb(lin);
    colour.push_back(static_cast<uint8_t>(std::lround(bt2020[r] * 255)));
  }
  const TestFrame c = RgbFrame(colour, RgbPrimaries::kBT2020);
  const std::vector<float> back = FrontEnd(c.view);
  const int m = c.view.desc.width * c.view.desc.height;
  for (int k = 0; k < 3; ++k) {
    // Half a code of BT.2020 and BT.2087's four decimals.
    S2C_CHECK(std::fabs(back[k * m] - srgb[k]) <= 3e-3, "channel %d: %.6f, want %.1f", k,
              back[k * m], srgb[k]);
  }
}

// LinearToSrgb against sRGB's formula: libjxl states 5e-7.
void test_linear_to_srgb_against_pow() {
  for (int i = 0; i <= 100000; ++i) {
    const float x = static_cast<float>(i) / 100000;
    const double want = EncodeSrgb(x);
    S2C_CHECK(std::fabs(LinearToSrgb(x) - want) <= 1e-6, "x %.6f: %.9f, want %.9f", x,
              LinearToSrgb(x), want);
  }
}

// A YUV frame with BT.2020 primaries is its BT.709 reading, converted.
void test_yuv_with_bt2020_primaries(std::mt19937& rng) {
  const int w = 19, h = 11;
  TestFrame t(PixelFormat::kY444_10LE, w, h);
  t.view.desc.matrix = YuvMatrix::kBT2020;
  for (int p = 0; p < 3; ++p) {
    t.Alloc(p, static_cast<size_t>(w) * 2, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) t.Put(p, 2 * x, y, 2, 64 + rng() % 877);
    }
  }
  const std::vector<float> bt709 = FrontEnd(t.view);
  t.view.desc.primaries = RgbPrimaries::kBT2020;
  const std::vector<float> converted = FrontEnd(t.view);
  const int n = w * h;
  for (int i = 0; i < n; ++i) {
    const float in[3] = {bt709[i], bt709[n + i], bt709[2 * n + i]};
    float want[3];
    RestatedConversion(in, want);
    for (int k = 0; k < 3; ++k) {
      S2C_CHECK_SAME(converted[k * n + i], want[k], "pixel %d channel %d", i, k);
    }
  }
}

void test_gray_ignores_primaries() {
  TestFrame t(PixelFormat::kGray8, 9, 8);
  t.Alloc(0, 9, 8);
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 9; ++x) t.Put(0, x, y, 1, 29 * x + y);
  }
  const std::vector<float> bt709 = FrontEnd(t.view);
  t.view.desc.primaries = RgbPrimaries::kBT2020;
  S2C_CHECK(SamePlanes(FrontEnd(t.view), bt709), "gray changed with BT.2020 primaries");
}

void test_invalid_primaries_are_refused() {
  TestFrame t(PixelFormat::kRGB, 8, 8);
  t.view.desc.primaries = static_cast<RgbPrimaries>(7);
  FrameLayout l;
  const Status s = DescribeFormat(t.view.desc, &l);
  S2C_CHECK(s.code() == StatusCode::kInvalidArgument, "primaries 7: %s", s.message().c_str());
}

}  // namespace
}  // namespace s2c

int main() {
  std::mt19937 rng(20261204);
  s2c::test_matrix_is_the_documented_one();
  s2c::test_rgb_conversion_is_the_documented_order();
  s2c::test_rgb_conversion_agrees_with_the_textbook();
  s2c::test_known_colours();
  s2c::test_linear_to_srgb_against_pow();
  s2c::test_yuv_with_bt2020_primaries(rng);
  s2c::test_gray_ignores_primaries();
  s2c::test_invalid_primaries_are_refused();
  return s2c::test::Finish();
}
