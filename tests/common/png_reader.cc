// SPDX-License-Identifier: BSD-3-Clause
#include "png_reader.h"

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"

namespace s2c {
namespace test {
namespace {

uint32_t BigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

uint8_t Paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return static_cast<uint8_t>(a);
  return static_cast<uint8_t>(pb <= pc ? b : c);
}

// Undoes the per-row filters in place; `bpp` is bytes per pixel, `row` the
// bytes of one row without its filter byte. Returns false on a bad filter.
bool Unfilter(std::vector<uint8_t>& data, int height, size_t row, size_t bpp) {
  const std::vector<uint8_t> zero(row, 0);
  const uint8_t* prev = zero.data();
  for (int y = 0; y < height; ++y) {
    uint8_t* line = &data[y * (row + 1)];
    const int filter = line[0];
    uint8_t* cur = line + 1;
    for (size_t i = 0; i < row; ++i) {
      const int a = i >= bpp ? cur[i - bpp] : 0;
      const int b = prev[i];
      const int c = i >= bpp ? prev[i - bpp] : 0;
      switch (filter) {
        case 0: break;
        case 1: cur[i] = static_cast<uint8_t>(cur[i] + a); break;
        case 2: cur[i] = static_cast<uint8_t>(cur[i] + b); break;
        case 3: cur[i] = static_cast<uint8_t>(cur[i] + (a + b) / 2); break;
        case 4: cur[i] = static_cast<uint8_t>(cur[i] + Paeth(a, b, c)); break;
        default: return false;
      }
    }
    prev = cur;
  }
  return true;
}

}  // namespace

bool ReadPng(const std::string& path, HostImage* out, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = "cannot open " + path;
    return false;
  }
  std::vector<uint8_t> file;
  uint8_t buf[65536];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof(buf), f)) > 0) file.insert(file.end(), buf, buf + got);
  std::fclose(f);

  static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (file.size() < 8 || std::memcmp(file.data(), kSignature, 8) != 0) {
    *error = path + ": not a PNG file";
    return false;
  }
  uint32_t width = 0, height = 0;
  int depth = 0, colour_type = -1, interlace = 0;
  std::vector<uint8_t> compressed;
  bool ended = false;
  for (size_t pos = 8; !ended;) {
    if (pos + 12 > file.size()) {
      *error = path + ": truncated";
      return false;
    }
    const uint32_t length = BigEndian32(&file[pos]);
    if (length > file.size() - pos - 12) {
      *error = path + ": truncated chunk";
      return false;
    }
    const uint8_t* type = &file[pos + 4];
    const uint8_t* body = &file[pos + 8];
    const uint32_t crc = BigEndian32(body + length);
    if (crc32(crc32(0, nullptr, 0), type, length + 4) != crc) {
      *error = path + ": bad CRC in chunk " + std::string(reinterpret_cast<const char*>(type), 4);
      return false;
    }
    if (std::memcmp(type, "IHDR", 4) == 0 && length == 13) {
      width = BigEndian32(body);
      height = BigEndian32(body + 4);
      depth = body[8];
      colour_type = body[9];
      interlace = body[12];
    } else if (std::memcmp(type, "IDAT", 4) == 0) {
      compressed.insert(compressed.end(), body, body + length);
    } else if (std::memcmp(type, "IEND", 4) == 0) {
      ended = true;
    }
    pos += 12 + length;
  }
  if ((depth != 8 && depth != 16) ||
      (colour_type != 2 && colour_type != 4 && colour_type != 6) || interlace != 0 ||
      width == 0 || height == 0 || width > 65535 || height > 65535) {
    *error = path + ": only non-interlaced 8/16-bit RGB, RGBA or grey-with-alpha PNGs"
                    " are supported";
    return false;
  }

  const bool grey = colour_type == 4;
  const bool alpha = colour_type != 2;
  const size_t channels = grey ? 2 : alpha ? 4 : 3;
  const size_t bytes = depth / 8;
  const size_t bpp = channels * bytes;
  const size_t row = width * bpp;
  std::vector<uint8_t> data(height * (row + 1));
  uLongf data_size = data.size();
  if (uncompress(data.data(), &data_size, compressed.data(), compressed.size()) != Z_OK ||
      data_size != data.size()) {
    *error = path + ": corrupt image data";
    return false;
  }
  if (!Unfilter(data, static_cast<int>(height), row, bpp)) {
    *error = path + ": unknown row filter";
    return false;
  }

  out->desc = FrameDesc();
  out->desc.width = static_cast<int>(width);
  out->desc.height = static_cast<int>(height);
  out->desc.format = bytes == 2 ? PixelFormat::kRGBA64_LE
                     : alpha    ? PixelFormat::kRGBA
                                : PixelFormat::kRGB;
  const size_t out_channels = bytes == 2 || alpha ? 4 : 3;
  out->stride = static_cast<ptrdiff_t>(width * out_channels * bytes);
  out->bytes.assign(static_cast<size_t>(out->stride) * height, 0xff);  // opaque
  for (size_t y = 0; y < height; ++y) {
    const uint8_t* src = &data[y * (row + 1) + 1];
    uint8_t* dst = &out->bytes[y * out->stride];
    for (size_t x = 0; x < width; ++x) {
      for (size_t c = 0; c < (alpha ? 4u : 3u); ++c) {
        // Grey goes to R, G and B, as pngdec gives grey with alpha.
        const size_t from = c == 3 ? channels - 1 : grey ? 0 : c;
        // PNG stores 16-bit samples big endian; RGBA64_LE is little endian.
        const uint8_t* sample = src + (x * channels + from) * bytes;
        for (size_t b = 0; b < bytes; ++b) {
          dst[(x * out_channels + c) * bytes + b] = sample[bytes - 1 - b];
        }
      }
    }
  }
  return true;
}

bool LoadPng(const std::string& path, HostImage* out) {
  std::string error;
  return S2C_CHECK(ReadPng(path, out, &error), "%s", error.c_str());
}

}  // namespace test
}  // namespace s2c
