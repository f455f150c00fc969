// SPDX-License-Identifier: BSD-3-Clause
// Test and tool support: images held in host memory as frames the metric
// library reads. PPM (P6, 8 or 16 bit) is read directly; 8-bit data becomes
// RGB, 16-bit data RGBA64_LE (alpha set to opaque, and ignored anyway); and
// the test data's folder.
#ifndef S2C_TESTS_IMAGE_IO_H_
#define S2C_TESTS_IMAGE_IO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "steps/frame.h"

namespace s2c {
namespace test {

struct HostImage {
  FrameDesc desc;
  std::vector<uint8_t> bytes;
  ptrdiff_t stride = 0;
  FrameView View() const;
};

// Returns false (with a message in *error) if the file cannot be read.
bool ReadPpm(const std::string& path, HostImage* out, std::string* error);

// An 8-bit RGB image as the binary PPM file that holds it (P6, maxval 255).
std::string PpmBytes(const HostImage& rgb);

// The test data folder (tests/data): $S2C_TESTDATA, which Meson sets for
// every test, else tests/data from the current directory. A file missing
// there is a test failure.
std::string TestdataDir();

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_IMAGE_IO_H_
