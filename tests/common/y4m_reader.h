// SPDX-License-Identifier: BSD-3-Clause
// Test support: the first frame of a YUV4MPEG2 file as a host frame (the
// SSIM reference pairs of tests/data/ssim). Colour spaces C420*,
// C422, C444 and their p10/p12 forms (16-bit little-endian samples); the
// pixel aspect ratio from the A tag (1 when absent or 0:0).
#ifndef S2C_TESTS_Y4M_READER_H_
#define S2C_TESTS_Y4M_READER_H_

#include <string>

#include "image_io.h"

namespace s2c {
namespace test {

struct Y4mFrame {
  HostImage image;  // planar, `stride` for luma; chroma planes follow; the
                    // header's pixel aspect in image.desc
  ptrdiff_t chroma_stride = 0;
  int chroma_height = 0;
  FrameView View() const;
};

// False (with a message in *error) if the file cannot be read.
bool ReadY4m(const std::string& path, Y4mFrame* out, std::string* error);

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_Y4M_READER_H_
