// SPDX-License-Identifier: BSD-3-Clause
#include "png16_reader.h"

#include <png.h>

#include <cstdio>

namespace s2c_test {

GstBuffer* ReadPng16AsArgb64(const std::string& path, int* width, int* height) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return nullptr;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  GstBuffer* buffer = nullptr;
  if (info != nullptr && setjmp(png_jmpbuf(png)) == 0) {
    png_init_io(png, file);
    // Samples as stored, only brought to host byte order.
    png_read_png(png, info, PNG_TRANSFORM_SWAP_ENDIAN, nullptr);
    if (png_get_bit_depth(png, info) == 16 &&
        png_get_color_type(png, info) == PNG_COLOR_TYPE_RGB) {
      const int w = static_cast<int>(png_get_image_width(png, info));
      const int h = static_cast<int>(png_get_image_height(png, info));
      png_bytepp rows = png_get_rows(png, info);
      buffer = gst_buffer_new_allocate(nullptr, static_cast<gsize>(w) * h * 8, nullptr);
      GstMapInfo map;
      gst_buffer_map(buffer, &map, GST_MAP_WRITE);
      auto* out = reinterpret_cast<guint16*>(map.data);
      for (int y = 0; y < h; ++y) {
        const auto* in = reinterpret_cast<const guint16*>(rows[y]);
        for (int x = 0; x < w; ++x, out += 4, in += 3) {
          out[0] = 0xffff;
          out[1] = in[0];
          out[2] = in[1];
          out[3] = in[2];
        }
      }
      gst_buffer_unmap(buffer, &map);
      *width = w;
      *height = h;
    }
  }
  png_destroy_read_struct(&png, &info, nullptr);
  std::fclose(file);
  return buffer;
}

}  // namespace s2c_test
