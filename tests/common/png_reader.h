// SPDX-License-Identifier: BSD-3-Clause
// A small PNG reader for the tests (the canonical tank pair exists only as
// PNG, the stills with alpha): non-interlaced truecolour PNGs with or
// without alpha, and grey with alpha, 8 or 16 bits.
// Ancillary chunks (gAMA, iCCP, cICP, ...) are ignored: the samples are
// taken as sRGB, as the project's element takes what pngdec gives it.
// Needs zlib; built only when Meson finds it.
#ifndef S2C_TESTS_PNG_READER_H_
#define S2C_TESTS_PNG_READER_H_

#include <string>

#include "image_io.h"

namespace s2c {
namespace test {

// 8-bit data becomes RGB or RGBA, 16-bit data RGBA64_LE (alpha opaque when
// the file has none); grey is copied to R, G and B. Returns false with a
// message in *error otherwise.
bool ReadPng(const std::string& path, HostImage* out, std::string* error);

// ReadPng as a check of the harness (check.h): a file that cannot be read
// is a failure with ReadPng's message. Returns whether *out holds the image.
bool LoadPng(const std::string& path, HostImage* out);

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_PNG_READER_H_
