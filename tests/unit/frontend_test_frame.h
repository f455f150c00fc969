// SPDX-License-Identifier: BSD-3-Clause
// What the front-end tests share (test_frontend.cc: names, sizes, RGB and
// gray; test_frontend_yuv.cc: YUV, errors, PFM): frames packed byte by byte
// with padded rows, the front end's output for every pixel, and bit-exact
// comparison of planes.
#ifndef S2C_TESTS_UNIT_FRONTEND_TEST_FRAME_H_
#define S2C_TESTS_UNIT_FRONTEND_TEST_FRAME_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "frontend.h"
#include "steps/frontend_steps.h"

namespace s2c {
namespace frontend_test {

inline std::string Where(const char* test, PixelFormat f, int x, int y, int c) {
  return std::string(test) + " " + PixelFormatName(f) + " pixel (" +
         std::to_string(x) + "," + std::to_string(y) + ") channel " +
         std::to_string(c);
}

// A frame owning its planes, rows padded beyond the row size so that
// strides are exercised.
struct TestFrame {
  std::vector<uint8_t> plane[kMaxPlanes];
  FrameView view;

  TestFrame(PixelFormat f, int w, int h) {
    view.desc.format = f;
    view.desc.width = w;
    view.desc.height = h;
  }
  uint8_t* Alloc(int p, size_t row_bytes, int rows) {
    const ptrdiff_t stride = static_cast<ptrdiff_t>(row_bytes) + 3 + p;
    plane[p].assign(static_cast<size_t>(stride) * rows, 0xA5);
    view.data[p] = plane[p].data();
    view.stride[p] = stride;
    return plane[p].data();
  }
  void Put(int p, int x_bytes, int y, int bytes, uint32_t v) {
    uint8_t* q = plane[p].data() + y * view.stride[p] + x_bytes;
    q[0] = static_cast<uint8_t>(v & 0xFF);
    if (bytes == 2) q[1] = static_cast<uint8_t>(v >> 8);
  }
};

// The front end's output for every pixel, channel-planar.
inline std::vector<float> FrontEnd(const FrameView& view) {
  FrameLayout l;
  const Status s = DescribeFrame(view, &l);
  if (!S2C_CHECK(s.ok(), "DescribeFrame refused a valid %s frame: %s",
                 PixelFormatName(view.desc.format), s.message().c_str())) {
    return {};
  }
  const int n = l.width * l.height;
  std::vector<float> out(3 * static_cast<size_t>(n));
  for (int y = 0; y < l.height; ++y) {
    for (int x = 0; x < l.width; ++x) {
      float rgb[3];
      RgbPrimeAt(l, view, x, y, rgb);
      for (int c = 0; c < 3; ++c) out[c * n + y * l.width + x] = rgb[c];
    }
  }
  return out;
}

// The same planes, bit for bit.
inline bool SamePlanes(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace frontend_test
}  // namespace s2c

#endif  // S2C_TESTS_UNIT_FRONTEND_TEST_FRAME_H_
