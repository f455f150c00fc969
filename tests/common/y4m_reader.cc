// SPDX-License-Identifier: BSD-3-Clause
#include "y4m_reader.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace s2c {
namespace test {

namespace {

// The pixel format for a C tag, or kUnknown.
PixelFormat FormatOf(const std::string& c) {
  if (c.rfind("420p10", 0) == 0) return PixelFormat::kI420_10LE;
  if (c.rfind("420p12", 0) == 0) return PixelFormat::kI420_12LE;
  if (c.rfind("420", 0) == 0) return PixelFormat::kI420;
  if (c == "422p10") return PixelFormat::kI422_10LE;
  if (c == "422") return PixelFormat::kY42B;
  if (c == "444p10") return PixelFormat::kY444_10LE;
  if (c == "444") return PixelFormat::kY444;
  return PixelFormat::kUnknown;
}

}  // namespace

FrameView Y4mFrame::View() const {
  FrameView v;
  v.desc = image.desc;
  const ptrdiff_t luma = image.stride * image.desc.height;
  const ptrdiff_t chroma = chroma_stride * chroma_height;
  v.data[0] = image.bytes.data();
  v.data[1] = image.bytes.data() + luma;
  v.data[2] = image.bytes.data() + luma + chroma;
  v.stride[0] = image.stride;
  v.stride[1] = v.stride[2] = chroma_stride;
  return v;
}

bool ReadY4m(const std::string& path, Y4mFrame* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  std::string header;
  if (!in || !std::getline(in, header) || header.rfind("YUV4MPEG2 ", 0) != 0) {
    *error = path + ": not a YUV4MPEG2 file";
    return false;
  }
  int w = 0, h = 0;
  std::string colour = "420jpeg";
  double aspect = 1.0;
  std::istringstream tags(header.substr(10));
  for (std::string tag; tags >> tag;) {
    if (tag[0] == 'W') w = std::atoi(tag.c_str() + 1);
    if (tag[0] == 'H') h = std::atoi(tag.c_str() + 1);
    if (tag[0] == 'C') colour = tag.substr(1);
    if (tag[0] == 'A') {
      int n = 0, d = 0;
      if (std::sscanf(tag.c_str() + 1, "%d:%d", &n, &d) == 2 && n > 0 && d > 0) aspect = double(n) / d;
    }
  }
  const PixelFormat format = FormatOf(colour);
  std::string frame;
  if (w <= 0 || h <= 0 || format == PixelFormat::kUnknown || !std::getline(in, frame) ||
      frame.rfind("FRAME", 0) != 0) {
    *error = path + ": unsupported header \"" + header + "\"";
    return false;
  }
  const int bytes = colour.find("p1") != std::string::npos ? 2 : 1;
  const int sx = colour.rfind("444", 0) == 0 ? 0 : 1;
  const int sy = colour.rfind("420", 0) == 0 ? 1 : 0;
  const int cw = (w + sx) >> sx, ch = (h + sy) >> sy;
  out->image.desc.format = format;
  out->image.desc.width = w;
  out->image.desc.height = h;
  out->image.stride = static_cast<ptrdiff_t>(w) * bytes;
  out->chroma_stride = static_cast<ptrdiff_t>(cw) * bytes;
  out->chroma_height = ch;
  out->image.desc.pixel_aspect = aspect;
  const size_t size = static_cast<size_t>(w) * h * bytes + 2 * static_cast<size_t>(cw) * ch * bytes;
  out->image.bytes.resize(size);
  if (!in.read(reinterpret_cast<char*>(out->image.bytes.data()), static_cast<std::streamsize>(size))) {
    *error = path + ": the first frame is cut short";
    return false;
  }
  return true;
}

}  // namespace test
}  // namespace s2c
