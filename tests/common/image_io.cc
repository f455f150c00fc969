// SPDX-License-Identifier: BSD-3-Clause
#include "image_io.h"

#include <cstdio>
#include <cstdlib>

namespace s2c {
namespace test {

FrameView HostImage::View() const {
  FrameView v;
  v.desc = desc;
  v.data[0] = bytes.data();
  v.stride[0] = stride;
  return v;
}

bool ReadPpm(const std::string& path, HostImage* out, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = "cannot open " + path;
    return false;
  }
  char magic[3] = {0};
  int w = 0, h = 0, maxval = 0;
  if (std::fscanf(f, "%2s %d %d %d", magic, &w, &h, &maxval) != 4 ||
      std::string(magic) != "P6" || w <= 0 || h <= 0 ||
      (maxval != 255 && maxval != 65535)) {
    std::fclose(f);
    *error = path + ": not a binary PPM with maxval 255 or 65535";
    return false;
  }
  std::fgetc(f);
  const int bytes_per_sample = maxval > 255 ? 2 : 1;
  std::vector<uint8_t> raw(static_cast<size_t>(w) * h * 3 * bytes_per_sample);
  const bool complete = std::fread(raw.data(), 1, raw.size(), f) == raw.size();
  std::fclose(f);
  if (!complete) {
    *error = path + ": truncated";
    return false;
  }
  out->desc = FrameDesc();
  out->desc.width = w;
  out->desc.height = h;
  if (bytes_per_sample == 1) {
    out->desc.format = PixelFormat::kRGB;
    out->stride = static_cast<ptrdiff_t>(w) * 3;
    out->bytes = std::move(raw);
    return true;
  }
  // PPM stores 16-bit samples big endian; RGBA64_LE is little endian.
  out->desc.format = PixelFormat::kRGBA64_LE;
  out->stride = static_cast<ptrdiff_t>(w) * 8;
  out->bytes.assign(static_cast<size_t>(out->stride) * h, 0xff);
  for (size_t px = 0; px < static_cast<size_t>(w) * h; ++px) {
    for (int c = 0; c < 3; ++c) {
      out->bytes[px * 8 + c * 2 + 0] = raw[px * 6 + c * 2 + 1];
      out->bytes[px * 8 + c * 2 + 1] = raw[px * 6 + c * 2 + 0];
    }
  }
  return true;
}

std::string PpmBytes(const HostImage& rgb) {
  const int w = rgb.desc.width, h = rgb.desc.height;
  std::string out = "P6\n" + std::to_string(w) + " " + std::to_string(h) + "\n255\n";
  for (int y = 0; y < h; ++y) {
    const char* row = reinterpret_cast<const char*>(rgb.bytes.data()) + y * rgb.stride;
    out.append(row, static_cast<size_t>(w) * 3);
  }
  return out;
}

std::string TestdataDir() {
  const char* env = std::getenv("S2C_TESTDATA");
  return env != nullptr && *env != '\0' ? env : "tests/data";
}

}  // namespace test
}  // namespace s2c
