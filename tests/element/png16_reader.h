// SPDX-License-Identifier: BSD-3-Clause
// Test helper: reads a 16-bit RGB PNG with libpng into one GStreamer ARGB64
// buffer (alpha 0xffff, native-endian samples). GStreamer 1.22's pngdec
// shifts such images by two bytes (its output starts 0000 ffff 3f00 where
// the file's first pixel is 003f 003f 0050), so the 16-bit canonical vector
// is fed through appsrc from this reader instead; see docs/element.md.
#ifndef S2C_TESTS_ELEMENT_PNG16_READER_H_
#define S2C_TESTS_ELEMENT_PNG16_READER_H_

#include <gst/gst.h>

#include <string>

namespace s2c_test {

// (transfer full) nullptr when the file is not a 16-bit RGB PNG.
GstBuffer* ReadPng16AsArgb64(const std::string& path, int* width, int* height);

}  // namespace s2c_test

#endif  // S2C_TESTS_ELEMENT_PNG16_READER_H_
