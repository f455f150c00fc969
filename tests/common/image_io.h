// SPDX-License-Identifier: BSD-3-Clause
// Test and tool support: images held in host memory as frames the metric
// library reads. PPM (P6, 8 or 16 bit) is read directly; 8-bit data becomes
// RGB, 16-bit data RGBA64_LE (alpha set to opaque).
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

// Where the shared test data is: $S2C_TESTDATA, else ../shared/testdata
// (from the current directory); "" when that is no directory (caller skips).
std::string TestdataDir();

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_IMAGE_IO_H_
