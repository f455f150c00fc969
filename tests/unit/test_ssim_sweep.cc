// SPDX-License-Identifier: BSD-3-Clause
// The SSIM CPU reference beyond the reference pairs: on random
// frames of many sizes (8x8 up to odd sizes like 127x65) and subsamplings,
// each plane equals a direct evaluation that sums the 2-D window at every
// pixel with no row ring (the integer moments are the same numbers, so the
// doubles must be equal bits); the same samples in two layouts (I420 and
// NV12, YV12 and NV21, I420_10LE and P010, I420_12LE and P012, ...) give
// the same bits; three threads give the bits of one; identical frames give
// 1 and +inf dB.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "cpu/ssim_reference.h"
#include "frontend.h"
#include "ssim_planes.h"
#include "steps/ssim_steps.h"
#include "thread_pool.h"

namespace {

using s2c::PixelFormat;

// One plane of samples, row-major.
struct Plane {
  int w = 0, h = 0;
  std::vector<int> v;
  int at(int x, int y) const { return v[static_cast<size_t>(y) * w + x]; }
};

// The sums of one plane, window by window, straight from the definition.
s2c::SsimSums DirectPlane(const Plane& a, const Plane& b, int64_t samplemax, double aspect) {
  const double sigma = a.h * (1.5 / 256);
  const std::vector<int> vw = s2c::SsimWindow(sigma, std::min(a.w, a.h));
  const std::vector<int> hw = s2c::SsimWindow(sigma / aspect, std::min(a.w, a.h));
  const int vo = static_cast<int>(vw.size()) / 2, ho = static_cast<int>(hw.size()) / 2;
  double terms = 0, weights = 0;
  for (int y = 0; y < a.h; ++y) {
    for (int x = 0; x < a.w; ++x) {
      s2c::SsimMoments m;
      for (int j = 0; j < static_cast<int>(vw.size()); ++j) {
        const int yy = y - vo + j;
        if (yy < 0 || yy >= a.h) continue;
        s2c::SsimMoments row;
        for (int i = 0; i < static_cast<int>(hw.size()); ++i) {
          const int xx = x - ho + i;
          if (xx < 0 || xx >= a.w) continue;
          s2c::SsimAccumulate(&row, hw[i], a.at(xx, yy), b.at(xx, yy));
        }
        s2c::SsimAccumulate(&m, vw[j], row);
      }
      terms += s2c::SsimTerm(m, samplemax);
      weights += static_cast<double>(m.w);
    }
  }
  return {terms, weights};
}

// Y', Cb, Cr planes of a frame of `w` x `h` with chroma subsampled by
// (sx, sy), `bits` per sample; `noise` > 0 perturbs a copy of `base`.
std::vector<Plane> MakePlanes(int w, int h, int sx, int sy, int bits, std::mt19937* rng,
                              const std::vector<Plane>* base, int noise) {
  std::vector<Plane> planes(3);
  const int max = (1 << bits) - 1;
  for (int k = 0; k < 3; ++k) {
    Plane& p = planes[k];
    p.w = k ? (w + (1 << sx) - 1) >> sx : w;
    p.h = k ? (h + (1 << sy) - 1) >> sy : h;
    p.v.resize(static_cast<size_t>(p.w) * p.h);
    for (size_t i = 0; i < p.v.size(); ++i) {
      int v;
      if (base == nullptr) {
        v = static_cast<int>((*rng)() % (max + 1));
      } else {
        v = (*base)[k].v[i] + static_cast<int>((*rng)() % (2 * noise + 1)) - noise;
      }
      p.v[i] = std::min(max, std::max(0, v));
    }
  }
  return planes;
}

// The planes as a frame of `format` in `bytes`.
s2c::FrameView Pack(const std::vector<Plane>& planes, PixelFormat format,
                    std::vector<uint8_t>* bytes) {
  s2c::FrameView view;
  view.desc.format = format;
  view.desc.width = planes[0].w;
  view.desc.height = planes[0].h;
  s2c::FrameLayout l;
  if (!s2c::DescribeFormat(view.desc, &l).ok()) return view;
  const int n = l.num_planes;
  std::vector<size_t> offset(n);
  size_t total = 0;
  for (int p = 0; p < n; ++p) {
    offset[p] = total;
    view.stride[p] = static_cast<ptrdiff_t>(s2c::PlaneRowBytes(format, l.width, p)) + 3;
    total += static_cast<size_t>(view.stride[p]) * s2c::PlaneRows(format, l.height, p);
  }
  bytes->assign(total, 0);
  for (int k = 0; k < 3; ++k) {
    const s2c::ComponentLayout& c = l.comp[k];
    for (int y = 0; y < planes[k].h; ++y) {
      for (int x = 0; x < planes[k].w; ++x) {
        uint8_t* at = bytes->data() + offset[c.plane] + y * view.stride[c.plane] +
                      x * c.step + c.offset;
        const uint32_t v = static_cast<uint32_t>(planes[k].at(x, y)) << c.shift;
        at[0] = static_cast<uint8_t>(v);
        if (c.bytes == 2) at[1] = static_cast<uint8_t>(v >> 8);
      }
    }
  }
  for (int p = 0; p < n; ++p) view.data[p] = bytes->data() + offset[p];
  return view;
}

void CheckPair(PixelFormat format, const std::vector<Plane>& a, const std::vector<Plane>& b,
               int bits, const std::string& what, s2c::SsimResult* out) {
  std::vector<uint8_t> ra, rb;
  const s2c::FrameView va = Pack(a, format, &ra), vb = Pack(b, format, &rb);
  const s2c::Status st = s2c::SsimCompare(va, vb, out);
  S2C_CHECK(st.ok(), "%s: %s", what.c_str(), st.message().c_str());
  if (!st.ok()) return;
  s2c::FrameLayout layout;
  S2C_CHECK(s2c::DescribeFrame(va, &layout).ok(), "%s: layout", what.c_str());
  for (int k = 0; k < 3; ++k) {
    const s2c::SsimSums direct = DirectPlane(a[k], b[k], (int64_t{1} << bits) - 1, 1.0);
    const std::string plane = what + " plane " + std::to_string(k);
    S2C_CHECK_SAME(out->plane[k], direct.terms / direct.weights, "%s", plane.c_str());
    // The GPU takes the weights' sum from the windows alone (SsimGeometry).
    S2C_CHECK_SAME(s2c::SsimGeometry(layout, k, 1.0).weight, direct.weights,
                   "%s: the weights from the windows", plane.c_str());
  }
}

}  // namespace

int main() {
  std::mt19937 rng(1424);
  // Each format, and another layout of the same samples where there is one
  // (kUnknown: none at that depth and subsampling).
  const struct {
    PixelFormat first, other;
    int sx, sy, bits;
  } kFormats[] = {
      {PixelFormat::kI420, PixelFormat::kNV12, 1, 1, 8},
      {PixelFormat::kYV12, PixelFormat::kNV21, 1, 1, 8},
      {PixelFormat::kI420_10LE, PixelFormat::kP010_10LE, 1, 1, 10},
      {PixelFormat::kI420_12LE, PixelFormat::kP012_LE, 1, 1, 12},
      {PixelFormat::kY42B, PixelFormat::kNV16, 1, 0, 8},
      {PixelFormat::kY444, PixelFormat::kNV24, 0, 0, 8},
      {PixelFormat::kY444_12LE, PixelFormat::kUnknown, 0, 0, 12},
      {PixelFormat::kY444_16LE, PixelFormat::kUnknown, 0, 0, 16},
      {PixelFormat::kP016_LE, PixelFormat::kUnknown, 1, 1, 16},
  };
  const int kSizes[][2] = {{8, 8}, {9, 13}, {33, 17}, {64, 48}, {127, 65}, {200, 9}, {31, 120}};
  for (const auto& f : kFormats) {
    for (const auto& size : kSizes) {
      const std::vector<Plane> a = MakePlanes(size[0], size[1], f.sx, f.sy, f.bits, &rng, nullptr, 0);
      const std::vector<Plane> b =
          MakePlanes(size[0], size[1], f.sx, f.sy, f.bits, &rng, &a, 3 << (f.bits - 8));
      const std::string what = std::string(s2c::PixelFormatName(f.first)) + " " +
                               std::to_string(size[0]) + "x" + std::to_string(size[1]);
      s2c::SsimResult first, same;
      CheckPair(f.first, a, b, f.bits, what, &first);
      if (f.other != PixelFormat::kUnknown) {
        s2c::SsimResult other;
        CheckPair(f.other, a, b, f.bits, what + " as " + s2c::PixelFormatName(f.other), &other);
        for (int k = 0; k < 3; ++k) {
          S2C_CHECK_SAME(other.plane[k], first.plane[k], "%s as %s, plane %d", what.c_str(),
                         s2c::PixelFormatName(f.other), k);
        }
        S2C_CHECK_SAME(other.combined, first.combined, "%s as %s", what.c_str(),
                       s2c::PixelFormatName(f.other));
      }
      {
        std::vector<uint8_t> ra, rb;
        s2c::ThreadPool pool(3);
        s2c::SsimResult threaded;
        S2C_CHECK(s2c::SsimCompare(Pack(a, f.first, &ra), Pack(b, f.first, &rb), &threaded,
                                   &pool)
                      .ok(),
                  "%s on three threads", what.c_str());
        for (int k = 0; k < 3; ++k) {
          S2C_CHECK_SAME(threaded.plane[k], first.plane[k], "%s: three threads", what.c_str());
        }
      }
      CheckPair(f.first, a, a, f.bits, what + " identical", &same);
      S2C_CHECK(same.combined == 1.0 && std::isinf(same.combined_db) && same.combined_db > 0,
                "%s identical: %.17g, %.17g dB", what.c_str(), same.combined, same.combined_db);
    }
  }
  return s2c::test::Finish();
}
