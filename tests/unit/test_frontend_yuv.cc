// SPDX-License-Identifier: BSD-3-Clause
// The video front end's YUV formats (docs/frontend.md) against an
// independent statement of their definition: frames are packed here byte by
// byte from per-format descriptions written for this test, and the expected
// R'G'B' is computed from whole planes with the documented formulas, not by
// the code under test. Every comparison is on bits. Also: refused frames
// and the PFM dump (test_frontend.cc: names, sizes, RGB and gray).
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

// ---------------------------------------------------------------- YUV

// YUV as this test describes it, independently of the library's table.
struct YuvFormat {
  PixelFormat f;
  int depth;
  int sub_x, sub_y;   // 2 or 1
  bool semi_planar;
  bool v_first;       // YV12 plane order, NV21 byte order
  int bytes;
  int shift;          // left shift of the sample in its word (P010: 6)
};

const YuvFormat kYuvFormats[] = {
    {PixelFormat::kI420, 8, 2, 2, false, false, 1, 0},
    {PixelFormat::kYV12, 8, 2, 2, false, true, 1, 0},
    {PixelFormat::kY42B, 8, 2, 1, false, false, 1, 0},
    {PixelFormat::kY444, 8, 1, 1, false, false, 1, 0},
    {PixelFormat::kNV12, 8, 2, 2, true, false, 1, 0},
    {PixelFormat::kNV21, 8, 2, 2, true, true, 1, 0},
    {PixelFormat::kNV16, 8, 2, 1, true, false, 1, 0},
    {PixelFormat::kNV24, 8, 1, 1, true, false, 1, 0},
    {PixelFormat::kI420_10LE, 10, 2, 2, false, false, 2, 0},
    {PixelFormat::kI422_10LE, 10, 2, 1, false, false, 2, 0},
    {PixelFormat::kY444_10LE, 10, 1, 1, false, false, 2, 0},
    {PixelFormat::kI420_12LE, 12, 2, 2, false, false, 2, 0},
    {PixelFormat::kI422_12LE, 12, 2, 1, false, false, 2, 0},
    {PixelFormat::kY444_12LE, 12, 1, 1, false, false, 2, 0},
    {PixelFormat::kY444_16LE, 16, 1, 1, false, false, 2, 0},
    {PixelFormat::kP010_10LE, 10, 2, 2, true, false, 2, 6},
    {PixelFormat::kP012_LE, 12, 2, 2, true, false, 2, 4},
    {PixelFormat::kP016_LE, 16, 2, 2, true, false, 2, 0},
};

const YuvFormat& Yuv(PixelFormat f) {
  for (const YuvFormat& y : kYuvFormats) {
    if (y.f == f) return y;
  }
  return kYuvFormats[0];
}

// Sample values at the format's bit depth: luma w x h, chroma cw x ch.
struct YuvContent {
  int w, h, cw, ch;
  std::vector<uint32_t> y, u, v;
};

YuvContent RandomContent(int w, int h, int sub_x, int sub_y, int depth,
                         std::mt19937& rng) {
  YuvContent c{w, h, (w + sub_x - 1) / sub_x, (h + sub_y - 1) / sub_y, {}, {}, {}};
  const uint32_t mask = (1u << depth) - 1;
  c.y.resize(static_cast<size_t>(w) * h);
  c.u.resize(static_cast<size_t>(c.cw) * c.ch);
  c.v.resize(c.u.size());
  for (auto& s : c.y) s = rng() & mask;
  for (auto& s : c.u) s = rng() & mask;
  for (auto& s : c.v) s = rng() & mask;
  // Extremes, so that clamping and the ends of the ranges are hit.
  c.y[0] = 0;
  c.y[1] = mask;
  c.u[0] = mask;
  c.v[0] = 0;
  return c;
}

YuvContent Shifted(const YuvContent& c, int bits) {
  YuvContent s = c;
  for (auto& v : s.y) v <<= bits;
  for (auto& v : s.u) v <<= bits;
  for (auto& v : s.v) v <<= bits;
  return s;
}

TestFrame PackYuv(const YuvFormat& yf, const YuvContent& c, YuvMatrix m,
                  YuvRange r, ChromaSiting siting) {
  TestFrame t(yf.f, c.w, c.h);
  t.view.desc.matrix = m;
  t.view.desc.range = r;
  t.view.desc.siting = siting;
  const int b = yf.bytes;
  t.Alloc(0, static_cast<size_t>(c.w) * b, c.h);
  for (int y = 0; y < c.h; ++y) {
    for (int x = 0; x < c.w; ++x) t.Put(0, x * b, y, b, c.y[y * c.w + x] << yf.shift);
  }
  if (yf.semi_planar) {
    t.Alloc(1, static_cast<size_t>(c.cw) * 2 * b, c.ch);
  } else {
    t.Alloc(1, static_cast<size_t>(c.cw) * b, c.ch);
    t.Alloc(2, static_cast<size_t>(c.cw) * b, c.ch);
  }
  for (int y = 0; y < c.ch; ++y) {
    for (int x = 0; x < c.cw; ++x) {
      const uint32_t u = c.u[y * c.cw + x] << yf.shift;
      const uint32_t v = c.v[y * c.cw + x] << yf.shift;
      const uint32_t first = yf.v_first ? v : u;
      const uint32_t second = yf.v_first ? u : v;
      if (yf.semi_planar) {
        t.Put(1, (2 * x) * b, y, b, first);
        t.Put(1, (2 * x + 1) * b, y, b, second);
      } else {
        t.Put(1, x * b, y, b, first);
        t.Put(2, x * b, y, b, second);
      }
    }
  }
  return t;
}

// docs/frontend.md, 2, at bit depth d.
void Normalisation(int d, YuvRange r, float* yo, float* ys, float* co, float* cs) {
  const int k = 1 << (d - 8);
  if (r == YuvRange::kLimited) {
    *yo = static_cast<float>(16 * k);
    *ys = static_cast<float>(1.0 / (219.0 * k));
    *co = static_cast<float>(128 * k);
    *cs = static_cast<float>(1.0 / (224.0 * k));
  } else {
    const double max = static_cast<double>((1 << d) - 1);
    *yo = 0.0f;
    *ys = static_cast<float>(1.0 / max);
    *co = static_cast<float>(1 << (d - 1));
    *cs = *ys;
  }
}

// One direction of docs/frontend.md, 3, over a whole line of chroma `in`
// (n samples) to `len` positions.
std::vector<float> UpsampleLine(const std::vector<float>& in, int len, int sub,
                                bool cosited) {
  std::vector<float> out(len);
  const int n = static_cast<int>(in.size());
  for (int p = 0; p < len; ++p) {
    if (sub == 1) {
      out[p] = in[p];
    } else if (cosited) {
      out[p] = p % 2 == 0 ? in[p / 2]
                          : 0.5f * in[(p - 1) / 2] + 0.5f * in[std::min((p + 1) / 2, n - 1)];
    } else {
      const int far = p % 2 == 0 ? std::max(p / 2 - 1, 0) : std::min(p / 2 + 1, n - 1);
      out[p] = 0.75f * in[p / 2] + 0.25f * in[far];
    }
  }
  return out;
}

// A chroma plane brought to luma size: every row horizontally, then every
// column of the result vertically.
std::vector<float> UpsamplePlane(const std::vector<float>& chroma, const YuvContent& c,
                                 int sub_x, int sub_y, ChromaSiting s) {
  std::vector<float> wide(static_cast<size_t>(c.w) * c.ch);
  for (int y = 0; y < c.ch; ++y) {
    std::vector<float> row(chroma.begin() + y * c.cw, chroma.begin() + (y + 1) * c.cw);
    const std::vector<float> up = UpsampleLine(row, c.w, sub_x, s.h_cosited);
    std::copy(up.begin(), up.end(), wide.begin() + y * c.w);
  }
  std::vector<float> full(static_cast<size_t>(c.w) * c.h);
  for (int x = 0; x < c.w; ++x) {
    std::vector<float> col(c.ch);
    for (int y = 0; y < c.ch; ++y) col[y] = wide[y * c.w + x];
    const std::vector<float> up = UpsampleLine(col, c.h, sub_y, s.v_cosited);
    for (int y = 0; y < c.h; ++y) full[y * c.w + x] = up[y];
  }
  return full;
}

float Clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

// The whole of docs/frontend.md for YUV, plane by plane.
std::vector<float> ExpectedYuv(const YuvContent& c, int depth, int sub_x, int sub_y,
                               YuvMatrix m, YuvRange r, ChromaSiting s) {
  float yo, ys, co, cs;
  Normalisation(depth, r, &yo, &ys, &co, &cs);
  std::vector<float> cb(c.u.size()), cr(c.v.size());
  for (size_t i = 0; i < cb.size(); ++i) {
    cb[i] = (static_cast<float>(c.u[i]) - co) * cs;
    cr[i] = (static_cast<float>(c.v[i]) - co) * cs;
  }
  const std::vector<float> cb_full = UpsamplePlane(cb, c, sub_x, sub_y, s);
  const std::vector<float> cr_full = UpsamplePlane(cr, c, sub_x, sub_y, s);
  const double kr = m == YuvMatrix::kBT601 ? 0.299 : m == YuvMatrix::kBT709 ? 0.2126 : 0.2627;
  const double kb = m == YuvMatrix::kBT601 ? 0.114 : m == YuvMatrix::kBT709 ? 0.0722 : 0.0593;
  const double kg = 1.0 - kr - kb;
  const float cr_r = static_cast<float>(2.0 * (1.0 - kr));
  const float cb_b = static_cast<float>(2.0 * (1.0 - kb));
  const float cb_g = static_cast<float>(2.0 * kb * (1.0 - kb) / kg);
  const float cr_g = static_cast<float>(2.0 * kr * (1.0 - kr) / kg);
  const int n = c.w * c.h;
  std::vector<float> out(3 * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const float luma = (static_cast<float>(c.y[i]) - yo) * ys;
    const float pr = cr_r * cr_full[i];
    const float gb = cb_g * cb_full[i];
    const float gr = cr_g * cr_full[i];
    const float pb = cb_b * cb_full[i];
    out[i] = Clamp01(luma + pr);
    const float g = luma - gb;
    out[n + i] = Clamp01(g - gr);
    out[2 * n + i] = Clamp01(luma + pb);
  }
  return out;
}

const YuvMatrix kMatrices[] = {YuvMatrix::kBT601, YuvMatrix::kBT709, YuvMatrix::kBT2020};
const YuvRange kRanges[] = {YuvRange::kLimited, YuvRange::kFull};
const ChromaSiting kSitings[] = {{true, false}, {false, false}, {true, true}, {false, true}};
const int kSizes[][2] = {{9, 9}, {8, 8}, {10, 11}, {13, 9}, {8, 12}};

std::string Case(const YuvFormat& yf, int w, int h, YuvMatrix m, YuvRange r,
                 ChromaSiting s) {
  return std::string(PixelFormatName(yf.f)) + " " + std::to_string(w) + "x" +
         std::to_string(h) + " matrix " + std::to_string(static_cast<int>(m)) +
         " range " + std::to_string(static_cast<int>(r)) + " siting h" +
         (s.h_cosited ? "cosited" : "centred") + "/v" +
         (s.v_cosited ? "cosited" : "centred");
}

void test_yuv_formats_follow_the_definition(std::mt19937& rng) {
  for (const YuvFormat& yf : kYuvFormats) {
    for (const auto& size : kSizes) {
      const YuvContent c = RandomContent(size[0], size[1], yf.sub_x, yf.sub_y, yf.depth, rng);
      for (YuvMatrix m : kMatrices) {
        for (YuvRange r : kRanges) {
          for (ChromaSiting s : kSitings) {
            TestFrame t = PackYuv(yf, c, m, r, s);
            const std::vector<float> got = FrontEnd(t.view);
            const std::vector<float> want =
                ExpectedYuv(c, yf.depth, yf.sub_x, yf.sub_y, m, r, s);
            if (got.size() != want.size()) continue;
            const int n = c.w * c.h;
            int bad = 0;
            for (int i = 0; i < 3 * n && bad < 3; ++i) {
              const std::string where = Case(yf, c.w, c.h, m, r, s) +
                                        Where("", yf.f, i % n % c.w, i % n / c.w, i / n);
              if (!S2C_CHECK_SAME(got[i], want[i], "%s", where.c_str())) ++bad;
            }
          }
        }
      }
    }
  }
}

// Hand-computed values: no chroma (Cb = Cr = 0 exactly) gives R' = G' = B'
// = Y', clamped; the nominal black and white codes give 0 and 1.
void test_yuv_neutral_chroma_gives_gray() {
  const int w = 9, h = 9;
  YuvContent c{w, h, 5, 5, std::vector<uint32_t>(w * h), std::vector<uint32_t>(25, 128),
               std::vector<uint32_t>(25, 128)};
  for (int i = 0; i < w * h; ++i) c.y[i] = static_cast<uint32_t>((i * 37) % 256);
  c.y[0] = 16;   // limited black
  c.y[1] = 235;  // limited white
  c.y[2] = 0;    // below black: clamps to 0
  c.y[3] = 255;  // above white: clamps to 1
  TestFrame t = PackYuv(Yuv(PixelFormat::kI420), c, YuvMatrix::kBT709,
                        YuvRange::kLimited, ChromaSiting{});
  const std::vector<float> got = FrontEnd(t.view);
  if (got.empty()) return;
  const int n = w * h;
  for (int i = 0; i < n; ++i) {
    const float y = (static_cast<float>(c.y[i]) - 16.0f) * static_cast<float>(1.0 / 219);
    const float want = y < 0.0f ? 0.0f : (y > 1.0f ? 1.0f : y);
    for (int ch = 0; ch < 3; ++ch) {
      S2C_CHECK_SAME(got[ch * n + i], want, "%s",
                     Where("neutral", PixelFormat::kI420, i % w, i / w, ch).c_str());
    }
  }
  for (int ch = 0; ch < 3; ++ch) {
    S2C_CHECK_SAME(got[ch * n + 0], 0.0f, "limited black is 0, channel %d", ch);
    S2C_CHECK_SAME(got[ch * n + 2], 0.0f, "below black clamps to 0, channel %d", ch);
    S2C_CHECK_SAME(got[ch * n + 3], 1.0f, "above white clamps to 1, channel %d", ch);
  }
}

// Limited range at b bits is the 8-bit definition with numerator and
// denominator scaled by 2^(b-8): the floats are the same bits, so 8-bit
// content shifted up must give identical planes in every format of a
// subsampling, planar or not.
void test_limited_range_is_independent_of_bit_depth(std::mt19937& rng) {
  // The first of each family is the 8-bit base the others are compared with.
  const std::vector<PixelFormat> kFamilies[] = {
      {PixelFormat::kI420, PixelFormat::kYV12, PixelFormat::kNV12, PixelFormat::kNV21,
       PixelFormat::kI420_10LE, PixelFormat::kI420_12LE, PixelFormat::kP010_10LE,
       PixelFormat::kP012_LE},
      {PixelFormat::kY42B, PixelFormat::kNV16, PixelFormat::kI422_10LE,
       PixelFormat::kI422_12LE},
      {PixelFormat::kY444, PixelFormat::kNV24, PixelFormat::kY444_10LE,
       PixelFormat::kY444_12LE, PixelFormat::kY444_16LE},
  };
  for (const std::vector<PixelFormat>& family : kFamilies) {
    const YuvFormat& base = Yuv(family[0]);
    const YuvContent c8 = RandomContent(11, 9, base.sub_x, base.sub_y, 8, rng);
    for (YuvMatrix m : kMatrices) {
      for (ChromaSiting s : kSitings) {
        TestFrame t8 = PackYuv(base, c8, m, YuvRange::kLimited, s);
        const std::vector<float> ref = FrontEnd(t8.view);
        for (size_t i = 1; i < family.size(); ++i) {
          const YuvFormat& yf = Yuv(family[i]);
          TestFrame t = PackYuv(yf, Shifted(c8, yf.depth - 8), m, YuvRange::kLimited, s);
          S2C_CHECK(SamePlanes(FrontEnd(t.view), ref), "%s vs %s (limited range): planes differ",
                    PixelFormatName(family[i]), PixelFormatName(family[0]));
        }
      }
    }
  }
  // P016 = I420 at 16 bits (no planar 4:2:0 16-bit format to compare with).
  const YuvContent c8 = RandomContent(9, 9, 2, 2, 8, rng);
  TestFrame a = PackYuv(Yuv(PixelFormat::kI420), c8, YuvMatrix::kBT2020,
                        YuvRange::kLimited, ChromaSiting{});
  TestFrame b = PackYuv(Yuv(PixelFormat::kP016_LE), Shifted(c8, 8), YuvMatrix::kBT2020,
                        YuvRange::kLimited, ChromaSiting{});
  S2C_CHECK(SamePlanes(FrontEnd(b.view), FrontEnd(a.view)),
            "P016_LE vs I420 (limited range): planes differ");
}

// Full range divides by 2^b - 1, so 8-bit content shifted up is not the
// same picture (255 << 2 = 1020 is not 10-bit white). Same-depth layouts
// still agree: P010 == I420_10LE, NV12 == I420, NV21 == I420, YV12 == I420.
void test_same_content_same_planes_in_every_layout(std::mt19937& rng) {
  const PixelFormat kPairs[][2] = {
      {PixelFormat::kP010_10LE, PixelFormat::kI420_10LE},
      {PixelFormat::kP012_LE, PixelFormat::kI420_12LE},
      {PixelFormat::kNV12, PixelFormat::kI420},
      {PixelFormat::kNV21, PixelFormat::kI420},
      {PixelFormat::kYV12, PixelFormat::kI420},
      {PixelFormat::kNV16, PixelFormat::kY42B},
      {PixelFormat::kNV24, PixelFormat::kY444},
  };
  for (const auto& pair : kPairs) {
    const YuvFormat& a = Yuv(pair[0]);
    const YuvFormat& b = Yuv(pair[1]);
    const YuvContent c = RandomContent(9, 9, a.sub_x, a.sub_y, a.depth, rng);
    for (YuvRange r : kRanges) {
      TestFrame ta = PackYuv(a, c, YuvMatrix::kBT709, r, ChromaSiting{});
      TestFrame tb = PackYuv(b, c, YuvMatrix::kBT709, r, ChromaSiting{});
      S2C_CHECK(SamePlanes(FrontEnd(ta.view), FrontEnd(tb.view)), "%s vs %s: planes differ",
                PixelFormatName(pair[0]), PixelFormatName(pair[1]));
    }
  }
  // Full-range white with neutral chroma is 1 at 8 and 10 bits.
  for (const YuvFormat* yf : {&Yuv(PixelFormat::kI420), &Yuv(PixelFormat::kI420_10LE)}) {
    const uint32_t white = (1u << yf->depth) - 1;
    const uint32_t mid = 1u << (yf->depth - 1);
    YuvContent c{8, 8, 4, 4, std::vector<uint32_t>(64, white),
                 std::vector<uint32_t>(16, mid), std::vector<uint32_t>(16, mid)};
    TestFrame t = PackYuv(*yf, c, YuvMatrix::kBT601, YuvRange::kFull, ChromaSiting{});
    const std::vector<float> got = FrontEnd(t.view);
    if (!got.empty()) {
      S2C_CHECK_SAME(got[5], 1.0f, "full-range white at %d bits", yf->depth);
    }
  }
}

// The f32 constants docs/frontend.md tabulates, pinned to their bits.
void test_layout_constants_are_the_documented_bits() {
  const struct { YuvMatrix m; float cr_r, cb_g, cr_g, cb_b; } kMatrixBits[] = {
      {YuvMatrix::kBT601, 0x1.66e978p+0f, 0x1.606544p-2f, 0x1.6da346p-1f, 0x1.c5a1cap+0f},
      {YuvMatrix::kBT709, 0x1.932618p+0f, 0x1.7fa3dep-3f, 0x1.df5bf8p-2f, 0x1.db089ap+0f},
      {YuvMatrix::kBT2020, 0x1.797f62p+0f, 0x1.51013ap-3f, 0x1.248866p-1f, 0x1.e1a36ep+0f},
  };
  for (const auto& k : kMatrixBits) {
    FrameDesc d;
    d.format = PixelFormat::kI420;
    d.width = d.height = 8;
    d.matrix = k.m;
    FrameLayout l;
    if (!S2C_CHECK(DescribeFormat(d, &l).ok(), "DescribeFormat I420 8x8")) continue;
    const int m = static_cast<int>(k.m);
    S2C_CHECK_SAME(l.cr_r, k.cr_r, "matrix %d: cr_r", m);
    S2C_CHECK_SAME(l.cb_g, k.cb_g, "matrix %d: cb_g", m);
    S2C_CHECK_SAME(l.cr_g, k.cr_g, "matrix %d: cr_g", m);
    S2C_CHECK_SAME(l.cb_b, k.cb_b, "matrix %d: cb_b", m);
  }
  const struct { PixelFormat f; YuvRange r; float yo, ys, co, cs; } kScaleBits[] = {
      {PixelFormat::kI420, YuvRange::kLimited, 16.0f, 0x1.2b404ap-8f, 128.0f, 0x1.24924ap-8f},
      {PixelFormat::kP010_10LE, YuvRange::kLimited, 64.0f, 0x1.2b404ap-10f, 512.0f, 0x1.24924ap-10f},
      {PixelFormat::kI420_12LE, YuvRange::kFull, 0.0f, 0x1.001002p-12f, 2048.0f, 0x1.001002p-12f},
      {PixelFormat::kY444_16LE, YuvRange::kFull, 0.0f, 0x1.0001p-16f, 32768.0f, 0x1.0001p-16f},
      {PixelFormat::kRGB, YuvRange::kLimited, 0.0f, 0x1.010102p-8f, 0.0f, 0.0f},
      {PixelFormat::kARGB64, YuvRange::kLimited, 0.0f, 0x1.0001p-16f, 0.0f, 0.0f},
  };
  for (const auto& k : kScaleBits) {
    FrameDesc d;
    d.format = k.f;
    d.width = d.height = 8;
    d.range = k.r;
    FrameLayout l;
    const char* name = PixelFormatName(k.f);
    if (!S2C_CHECK(DescribeFormat(d, &l).ok(), "DescribeFormat %s 8x8", name)) continue;
    S2C_CHECK_SAME(l.luma_offset, k.yo, "%s luma offset", name);
    S2C_CHECK_SAME(l.luma_scale, k.ys, "%s luma scale", name);
    S2C_CHECK_SAME(l.chroma_offset, k.co, "%s chroma offset", name);
    S2C_CHECK_SAME(l.chroma_scale, k.cs, "%s chroma scale", name);
  }
}

// ---------------------------------------------------------------- errors

void ExpectRefused(const FrameView& view, const char* must_mention,
                   const std::string& what) {
  FrameLayout l;
  const Status s = DescribeFrame(view, &l);
  S2C_CHECK(!s.ok() && s.code() == StatusCode::kInvalidArgument &&
                s.message().find(must_mention) != std::string::npos,
            "%s: %s, want an invalid-argument error naming \"%s\"", what.c_str(),
            s.ok() ? "accepted" : s.message().c_str(), must_mention);
}

void test_bad_frames_are_refused_with_a_clear_message() {
  const int kSmall[][2] = {{7, 8}, {8, 7}, {0, 0}, {-8, 8}, {1, 1}};
  for (const auto& size : kSmall) {
    TestFrame t(PixelFormat::kRGB, size[0], size[1]);
    t.Alloc(0, 64, 16);
    const std::string text = std::to_string(size[0]) + "x" + std::to_string(size[1]);
    ExpectRefused(t.view, text.c_str(), "size " + text);
    FrameLayout l;
    S2C_CHECK(!DescribeFormat(t.view.desc, &l).ok(), "DescribeFormat accepted %s", text.c_str());
  }
  for (int f : {0, static_cast<int>(PixelFormat::kCount), 999, -1}) {
    TestFrame t(static_cast<PixelFormat>(f), 16, 16);
    t.Alloc(0, 64, 16);
    ExpectRefused(t.view, "unknown pixel format", "format " + std::to_string(f));
  }
  const YuvContent c{9, 8, 5, 4, std::vector<uint32_t>(72, 16),
                     std::vector<uint32_t>(20, 128), std::vector<uint32_t>(20, 128)};
  for (PixelFormat f : {PixelFormat::kI420, PixelFormat::kNV12, PixelFormat::kP010_10LE}) {
    for (int p = 0; p < NumPlanes(f); ++p) {
      TestFrame t = PackYuv(Yuv(f), c, YuvMatrix::kBT709, YuvRange::kLimited, ChromaSiting{});
      t.view.data[p] = nullptr;
      const std::string plane = "plane " + std::to_string(p);
      ExpectRefused(t.view, (plane + " of the ").c_str(),
                    std::string("null ") + plane + " of " + PixelFormatName(f));
      TestFrame u = PackYuv(Yuv(f), c, YuvMatrix::kBT709, YuvRange::kLimited, ChromaSiting{});
      u.view.stride[p] = static_cast<ptrdiff_t>(PlaneRowBytes(f, 9, p)) - 1;
      ExpectRefused(u.view, "stride", std::string("short stride, ") + plane + " of " +
                                          PixelFormatName(f));
      u.view.stride[p] = -static_cast<ptrdiff_t>(PlaneRowBytes(f, 9, p));
      ExpectRefused(u.view, "stride", std::string("negative stride, ") + plane);
    }
  }
  {
    TestFrame t(PixelFormat::kRGB, 9, 8);
    t.Alloc(0, 27, 8);
    t.view.stride[0] = 26;
    ExpectRefused(t.view, "row of 27 bytes", "RGB stride 26 at width 9");
    t.view.stride[0] = 27;  // exactly the row: fine
    FrameLayout l;
    S2C_CHECK(DescribeFrame(t.view, &l).ok(), "RGB stride equal to the row refused");
  }
  {
    TestFrame t = PackYuv(Yuv(PixelFormat::kI420), c, YuvMatrix::kBT709, YuvRange::kLimited,
                          ChromaSiting{});
    t.view.desc.matrix = static_cast<YuvMatrix>(7);
    ExpectRefused(t.view, "matrix", "invalid matrix");
  }
}

// ---------------------------------------------------------------- PFM

void test_pfm_dump_holds_the_exact_floats(std::mt19937& rng) {
  const int w = 9, h = 11;
  const YuvContent c = RandomContent(w, h, 2, 2, 8, rng);
  TestFrame t = PackYuv(Yuv(PixelFormat::kI420), c, YuvMatrix::kBT709, YuvRange::kLimited,
                        ChromaSiting{});
  const std::string path = "test_frontend_dump.pfm";
  const Status s = WriteRgbPrimePfm(t.view, path.c_str());
  if (!S2C_CHECK(s.ok(), "WriteRgbPrimePfm: %s", s.message().c_str())) return;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  std::vector<char> bytes;
  if (file != nullptr) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file)) > 0) bytes.insert(bytes.end(), buf, buf + n);
    std::fclose(file);
  }
  std::remove(path.c_str());
  const std::string header = "PF\n9 11\n-1.0\n";
  if (!S2C_CHECK(bytes.size() == header.size() + 12u * w * h &&
                     std::memcmp(bytes.data(), header.data(), header.size()) == 0,
                 "PFM header or size (%zu bytes)", bytes.size())) {
    return;
  }
  const std::vector<float> planes = FrontEnd(t.view);
  const char* data = bytes.data() + header.size();
  for (int row = 0; row < h; ++row) {
    const int y = h - 1 - row;  // bottom to top
    for (int x = 0; x < w; ++x) {
      for (int ch = 0; ch < 3; ++ch) {
        float v;
        std::memcpy(&v, data + ((row * w + x) * 3 + ch) * 4, 4);
        S2C_CHECK_SAME(v, planes[ch * w * h + y * w + x], "%s",
                       Where("pfm", PixelFormat::kI420, x, y, ch).c_str());
      }
    }
  }
  TestFrame bad(PixelFormat::kRGB, 4, 4);
  bad.Alloc(0, 12, 4);
  S2C_CHECK(!WriteRgbPrimePfm(bad.view, path.c_str()).ok(), "PFM of a 4x4 frame written");
}


}  // namespace
}  // namespace s2c

int main() {
  std::mt19937 rng(20261129);
  s2c::test_yuv_formats_follow_the_definition(rng);
  s2c::test_yuv_neutral_chroma_gives_gray();
  s2c::test_limited_range_is_independent_of_bit_depth(rng);
  s2c::test_same_content_same_planes_in_every_layout(rng);
  s2c::test_layout_constants_are_the_documented_bits();
  s2c::test_bad_frames_are_refused_with_a_clear_message();
  s2c::test_pfm_dump_holds_the_exact_floats(rng);
  return s2c::test::Finish();
}
