// SPDX-License-Identifier: BSD-3-Clause
// Generated frames of any pixel format for the GPU tests and the benchmark:
// a smooth pattern with texture plus seeded noise, samples within the
// format's bit depth, rows padded so that strides exceed row sizes.
#ifndef S2C_TESTS_GPU_GENERATED_FRAMES_H_
#define S2C_TESTS_GPU_GENERATED_FRAMES_H_

#include <cstdint>
#include <vector>

#include "frontend.h"
#include "steps/frame.h"

namespace s2c {
namespace test {

struct Frame {
  s2c::FrameDesc desc;
  std::vector<uint8_t> planes[s2c::kMaxPlanes];
  ptrdiff_t stride[s2c::kMaxPlanes] = {};
  FrameView View() const {
    FrameView v;
    v.desc = desc;
    for (int p = 0; p < s2c::kMaxPlanes; ++p) {
      v.data[p] = planes[p].empty() ? nullptr : planes[p].data();
      v.stride[p] = stride[p];
    }
    return v;
  }
};

inline uint32_t Next(uint32_t* state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

// `noise` 0 gives the pattern alone; the same seed and noise give the same
// frame.
inline Frame MakeFrame(PixelFormat format, int w, int h, uint32_t seed, int noise,
                const s2c::FrameDesc* colorimetry = nullptr) {
  Frame f;
  if (colorimetry) f.desc = *colorimetry;
  f.desc.format = format;
  f.desc.width = w;
  f.desc.height = h;
  s2c::FrameLayout l;
  if (!s2c::DescribeFormat(f.desc, &l).ok()) return f;
  const int bytes = l.comp[0].bytes;
  const uint32_t max = (1u << l.bit_depth) - 1;
  uint32_t state = seed;
  for (int p = 0; p < s2c::NumPlanes(format); ++p) {
    const size_t row = s2c::PlaneRowBytes(format, w, p);
    const int rows = s2c::PlaneRows(format, h, p);
    f.stride[p] = static_cast<ptrdiff_t>(row) + 7;
    f.planes[p].assign(f.stride[p] * rows, 0);
    const size_t samples = row / bytes;
    for (int y = 0; y < rows; ++y) {
      for (size_t x = 0; x < samples; ++x) {
        // A smooth pattern with texture, scaled to the bit depth.
        const double u = static_cast<double>(x) / samples, v = static_cast<double>(y) / rows;
        double base = 0.5 + 0.3 * u - 0.25 * v + 0.1 * ((x / 3 + y / 2) % 5) / 4.0;
        const int jitter = noise ? static_cast<int>(Next(&state) % (2 * noise + 1)) - noise : 0;
        long s = static_cast<long>(base * max) + jitter * static_cast<long>(max / 255 + 1);
        if (s < 0) s = 0;
        if (s > static_cast<long>(max)) s = max;
        uint8_t* at = f.planes[p].data() + y * f.stride[p] + x * bytes;
        if (bytes == 1) {
          at[0] = static_cast<uint8_t>(s);
        } else {
          const uint32_t word = static_cast<uint32_t>(s) << l.comp[0].shift;
          at[0] = word & 0xFF;
          at[1] = (word >> 8) & 0xFF;
        }
      }
    }
  }
  return f;
}

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_GPU_GENERATED_FRAMES_H_
