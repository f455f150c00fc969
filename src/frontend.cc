// SPDX-License-Identifier: BSD-3-Clause
// The front end's format table and frame validation (docs/frontend.md, 1
// and 5): one row per PixelFormat, from which names, plane sizes and the
// FrameLayout of a frame are derived.
#include "frontend.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "primaries.h"
#include "steps/frontend_steps.h"

// ARGB64 is native endian and PFM floats are written as they lie in memory.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the front end assumes a little-endian host");

namespace s2c {
namespace {

struct FormatInfo {
  PixelFormat format;
  const char* name;
  ColorModel model;
  int bit_depth;
  int num_planes;
  int chroma_shift_x;
  int chroma_shift_y;
  ComponentLayout comp[3];  // R', G', B' / Y', Cb, Cr / gray
  ComponentLayout alpha = {};  // bytes 0 (left out of the row): no alpha
};

constexpr ComponentLayout C(int plane, int offset, int step, int bytes,
                            int shift = 0) {
  return ComponentLayout{plane, offset, step, bytes, shift};
}

constexpr ColorModel kRgb = ColorModel::kRgb;
constexpr ColorModel kYuv = ColorModel::kYuv;
constexpr ColorModel kGray = ColorModel::kGray;
using F = PixelFormat;

// Plane order is GStreamer's (GST_VIDEO_FRAME_PLANE_DATA): YV12 has V in
// plane 1, NV21 has V first in its interleaved plane.
constexpr FormatInfo kFormats[] = {
    {F::kI420, "I420", kYuv, 8, 3, 1, 1, {C(0, 0, 1, 1), C(1, 0, 1, 1), C(2, 0, 1, 1)}},
    {F::kYV12, "YV12", kYuv, 8, 3, 1, 1, {C(0, 0, 1, 1), C(2, 0, 1, 1), C(1, 0, 1, 1)}},
    {F::kY42B, "Y42B", kYuv, 8, 3, 1, 0, {C(0, 0, 1, 1), C(1, 0, 1, 1), C(2, 0, 1, 1)}},
    {F::kY444, "Y444", kYuv, 8, 3, 0, 0, {C(0, 0, 1, 1), C(1, 0, 1, 1), C(2, 0, 1, 1)}},
    {F::kNV12, "NV12", kYuv, 8, 2, 1, 1, {C(0, 0, 1, 1), C(1, 0, 2, 1), C(1, 1, 2, 1)}},
    {F::kNV21, "NV21", kYuv, 8, 2, 1, 1, {C(0, 0, 1, 1), C(1, 1, 2, 1), C(1, 0, 2, 1)}},
    {F::kNV16, "NV16", kYuv, 8, 2, 1, 0, {C(0, 0, 1, 1), C(1, 0, 2, 1), C(1, 1, 2, 1)}},
    {F::kNV24, "NV24", kYuv, 8, 2, 0, 0, {C(0, 0, 1, 1), C(1, 0, 2, 1), C(1, 1, 2, 1)}},
    {F::kI420_10LE, "I420_10LE", kYuv, 10, 3, 1, 1, {C(0, 0, 2, 2), C(1, 0, 2, 2), C(2, 0, 2, 2)}},
    {F::kI422_10LE, "I422_10LE", kYuv, 10, 3, 1, 0, {C(0, 0, 2, 2), C(1, 0, 2, 2), C(2, 0, 2, 2)}},
    {F::kY444_10LE, "Y444_10LE", kYuv, 10, 3, 0, 0, {C(0, 0, 2, 2), C(1, 0, 2, 2), C(2, 0, 2, 2)}},
    {F::kI420_12LE, "I420_12LE", kYuv, 12, 3, 1, 1, {C(0, 0, 2, 2), C(1, 0, 2, 2), C(2, 0, 2, 2)}},
    {F::kI422_12LE, "I422_12LE", kYuv, 12, 3, 1, 0, {C(0, 0, 2, 2), C(1, 0, 2, 2), C(2, 0, 2, 2)}},
    {F::kY444_12LE, "Y444_12LE", kYuv, 12, 3, 0, 0, {C(0, 0, 2, 2), C(1, 0, 2, 2), C(2, 0, 2, 2)}},
    {F::kY444_16LE, "Y444_16LE", kYuv, 16, 3, 0, 0, {C(0, 0, 2, 2), C(1, 0, 2, 2), C(2, 0, 2, 2)}},
    // Semi-planar high-bit-depth formats keep the sample in the high bits.
    {F::kP010_10LE, "P010_10LE", kYuv, 10, 2, 1, 1, {C(0, 0, 2, 2, 6), C(1, 0, 4, 2, 6), C(1, 2, 4, 2, 6)}},
    {F::kP012_LE, "P012_LE", kYuv, 12, 2, 1, 1, {C(0, 0, 2, 2, 4), C(1, 0, 4, 2, 4), C(1, 2, 4, 2, 4)}},
    {F::kP016_LE, "P016_LE", kYuv, 16, 2, 1, 1, {C(0, 0, 2, 2), C(1, 0, 4, 2), C(1, 2, 4, 2)}},
    {F::kGray8, "GRAY8", kGray, 8, 1, 0, 0, {C(0, 0, 1, 1), C(0, 0, 1, 1), C(0, 0, 1, 1)}},
    {F::kGray16LE, "GRAY16_LE", kGray, 16, 1, 0, 0, {C(0, 0, 2, 2), C(0, 0, 2, 2), C(0, 0, 2, 2)}},
    {F::kRGB, "RGB", kRgb, 8, 1, 0, 0, {C(0, 0, 3, 1), C(0, 1, 3, 1), C(0, 2, 3, 1)}},
    {F::kBGR, "BGR", kRgb, 8, 1, 0, 0, {C(0, 2, 3, 1), C(0, 1, 3, 1), C(0, 0, 3, 1)}},
    {F::kRGBA, "RGBA", kRgb, 8, 1, 0, 0, {C(0, 0, 4, 1), C(0, 1, 4, 1), C(0, 2, 4, 1)}, C(0, 3, 4, 1)},
    {F::kBGRA, "BGRA", kRgb, 8, 1, 0, 0, {C(0, 2, 4, 1), C(0, 1, 4, 1), C(0, 0, 4, 1)}, C(0, 3, 4, 1)},
    {F::kRGBx, "RGBx", kRgb, 8, 1, 0, 0, {C(0, 0, 4, 1), C(0, 1, 4, 1), C(0, 2, 4, 1)}},
    {F::kBGRx, "BGRx", kRgb, 8, 1, 0, 0, {C(0, 2, 4, 1), C(0, 1, 4, 1), C(0, 0, 4, 1)}},
    {F::kxRGB, "xRGB", kRgb, 8, 1, 0, 0, {C(0, 1, 4, 1), C(0, 2, 4, 1), C(0, 3, 4, 1)}},
    {F::kxBGR, "xBGR", kRgb, 8, 1, 0, 0, {C(0, 3, 4, 1), C(0, 2, 4, 1), C(0, 1, 4, 1)}},
    {F::kARGB, "ARGB", kRgb, 8, 1, 0, 0, {C(0, 1, 4, 1), C(0, 2, 4, 1), C(0, 3, 4, 1)}, C(0, 0, 4, 1)},
    {F::kABGR, "ABGR", kRgb, 8, 1, 0, 0, {C(0, 3, 4, 1), C(0, 2, 4, 1), C(0, 1, 4, 1)}, C(0, 0, 4, 1)},
    // ARGB64 is native endian in GStreamer; the library assumes a
    // little-endian host (x86-64, aarch64), where it is ARGB64_LE.
    {F::kARGB64, "ARGB64", kRgb, 16, 1, 0, 0, {C(0, 2, 8, 2), C(0, 4, 8, 2), C(0, 6, 8, 2)}, C(0, 0, 8, 2)},
    {F::kRGBA64_LE, "RGBA64_LE", kRgb, 16, 1, 0, 0, {C(0, 0, 8, 2), C(0, 2, 8, 2), C(0, 4, 8, 2)}, C(0, 6, 8, 2)},
    {F::kBGRA64_LE, "BGRA64_LE", kRgb, 16, 1, 0, 0, {C(0, 4, 8, 2), C(0, 2, 8, 2), C(0, 0, 8, 2)}, C(0, 6, 8, 2)},
    {F::kABGR64_LE, "ABGR64_LE", kRgb, 16, 1, 0, 0, {C(0, 6, 8, 2), C(0, 4, 8, 2), C(0, 2, 8, 2)}, C(0, 0, 8, 2)},
};

constexpr int kNumFormats = static_cast<int>(sizeof(kFormats) / sizeof(kFormats[0]));

constexpr bool TableFollowsEnum() {
  for (int i = 0; i < kNumFormats; ++i) {
    if (static_cast<int>(kFormats[i].format) != i + 1) return false;
  }
  return kNumFormats + 1 == static_cast<int>(PixelFormat::kCount);
}
static_assert(TableFollowsEnum(), "kFormats must list every PixelFormat in enum order");

const FormatInfo* Find(PixelFormat format) {
  const int i = static_cast<int>(format) - 1;
  if (i < 0 || i >= kNumFormats) return nullptr;
  return &kFormats[i];
}

// Bytes between two samples of `plane`: the step of any component in it
// (for packed RGB it includes alpha/x).
int PlaneStep(const FormatInfo& f, int plane) {
  for (const ComponentLayout& c : f.comp) {
    if (c.plane == plane) return c.step;
  }
  return 0;
}

int SubsampledSize(int size, int shift) {
  return (size + (1 << shift) - 1) >> shift;
}

// Kr and Kb of the non-constant-luminance matrices (ITU-R BT.601, BT.709,
// BT.2020; the same values as gst_video_color_matrix_get_Kr_Kb).
void KrKb(YuvMatrix m, double* kr, double* kb) {
  switch (m) {
    case YuvMatrix::kBT601: *kr = 0.299; *kb = 0.114; return;
    case YuvMatrix::kBT709: *kr = 0.2126; *kb = 0.0722; return;
    case YuvMatrix::kBT2020: *kr = 0.2627; *kb = 0.0593; return;
  }
}

}  // namespace

std::string SizeText(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

const char* PixelFormatName(PixelFormat format) {
  const FormatInfo* f = Find(format);
  return f ? f->name : nullptr;
}

bool IsYuv(PixelFormat format) {
  const FormatInfo* f = Find(format);
  return f != nullptr && f->model == ColorModel::kYuv;
}

PixelFormat PixelFormatFromName(const char* name) {
  if (name == nullptr) return PixelFormat::kUnknown;
  for (const FormatInfo& f : kFormats) {
    if (std::strcmp(f.name, name) == 0) return f.format;
  }
  // GStreamer 1.20+ also names the little-endian ARGB64 explicitly.
  if (std::strcmp(name, "ARGB64_LE") == 0) return PixelFormat::kARGB64;
  return PixelFormat::kUnknown;
}

int NumPlanes(PixelFormat format) {
  const FormatInfo* f = Find(format);
  return f ? f->num_planes : 0;
}

size_t PlaneRowBytes(PixelFormat format, int width, int plane) {
  const FormatInfo* f = Find(format);
  if (f == nullptr || plane < 0 || plane >= f->num_planes || width < 0) return 0;
  const int samples = plane == 0 ? width : SubsampledSize(width, f->chroma_shift_x);
  return static_cast<size_t>(samples) * static_cast<size_t>(PlaneStep(*f, plane));
}

int PlaneRows(PixelFormat format, int height, int plane) {
  const FormatInfo* f = Find(format);
  if (f == nullptr || plane < 0 || plane >= f->num_planes || height < 0) return 0;
  return plane == 0 ? height : SubsampledSize(height, f->chroma_shift_y);
}

Status CheckFrameSize(int width, int height) {
  if (width < kMinSide || height < kMinSide) {
    return InvalidArgument("frame size " + SizeText(width, height) + " is below the minimum " +
                           SizeText(kMinSide, kMinSide));
  }
  return Status::Ok();
}

Status DescribeFormat(const FrameDesc& desc, FrameLayout* out) {
  const FormatInfo* f = Find(desc.format);
  if (f == nullptr) {
    return InvalidArgument("unknown pixel format (" +
                           std::to_string(static_cast<int>(desc.format)) + ")");
  }
  S2C_RETURN_IF_ERROR(CheckFrameSize(desc.width, desc.height));
  const int matrix = static_cast<int>(desc.matrix);
  const int range = static_cast<int>(desc.range);
  if (f->model == ColorModel::kYuv &&
      (matrix < 0 || matrix > static_cast<int>(YuvMatrix::kBT2020) ||
       range < 0 || range > static_cast<int>(YuvRange::kFull))) {
    return InvalidArgument(std::string("invalid matrix/range values for ") +
                           f->name + " frame");
  }
  const int primaries = static_cast<int>(desc.primaries);
  if (f->model != ColorModel::kGray &&
      (primaries < 0 || primaries > static_cast<int>(RgbPrimaries::kBT2020))) {
    return InvalidArgument(std::string("invalid primaries value for ") + f->name + " frame");
  }

  FrameLayout l{};
  l.format = f->format;
  l.model = f->model;
  l.width = desc.width;
  l.height = desc.height;
  l.bit_depth = f->bit_depth;
  l.num_planes = f->num_planes;
  for (int k = 0; k < 3; ++k) l.comp[k] = f->comp[k];
  l.has_alpha = f->alpha.bytes != 0;
  l.alpha = f->alpha;
  l.chroma_shift_x = f->chroma_shift_x;
  l.chroma_shift_y = f->chroma_shift_y;
  l.chroma_width = SubsampledSize(desc.width, f->chroma_shift_x);
  l.chroma_height = SubsampledSize(desc.height, f->chroma_shift_y);
  l.h_cosited = desc.siting.h_cosited;
  l.v_cosited = desc.siting.v_cosited;

  // frontend.md, 2: each constant is one double expression rounded to float.
  const int b = f->bit_depth;
  const double max_code = static_cast<double>((1 << b) - 1);
  if (f->model != ColorModel::kYuv) {
    l.luma_scale = static_cast<float>(1.0 / max_code);
  } else if (desc.range == YuvRange::kLimited) {
    l.luma_offset = static_cast<float>(16 << (b - 8));
    l.luma_scale = static_cast<float>(1.0 / static_cast<double>(219 << (b - 8)));
    l.chroma_offset = static_cast<float>(128 << (b - 8));
    l.chroma_scale = static_cast<float>(1.0 / static_cast<double>(224 << (b - 8)));
  } else {
    l.luma_scale = static_cast<float>(1.0 / max_code);
    l.chroma_offset = static_cast<float>(1 << (b - 1));
    l.chroma_scale = l.luma_scale;
  }

  if (f->model == ColorModel::kYuv) {
    // frontend.md, 4.
    double kr = 0.0, kb = 0.0;
    KrKb(desc.matrix, &kr, &kb);
    const double kg = 1.0 - kr - kb;
    l.cr_r = static_cast<float>(2.0 * (1.0 - kr));
    l.cb_g = static_cast<float>(2.0 * kb * (1.0 - kb) / kg);
    l.cr_g = static_cast<float>(2.0 * kr * (1.0 - kr) / kg);
    l.cb_b = static_cast<float>(2.0 * (1.0 - kb));
  }
  // frontend.md, 9.
  l.convert_primaries =
      f->model != ColorModel::kGray && desc.primaries == RgbPrimaries::kBT2020;
  if (l.convert_primaries) Bt2020ToBt709(l.primaries);
  *out = l;
  return Status::Ok();
}

Status DescribeFrame(const FrameView& view, FrameLayout* out) {
  FrameLayout l;
  S2C_RETURN_IF_ERROR(DescribeFormat(view.desc, &l));
  const char* name = PixelFormatName(l.format);
  for (int p = 0; p < l.num_planes; ++p) {
    const std::string plane = "plane " + std::to_string(p) + " of the " +
                              name + " " + SizeText(l.width, l.height) + " frame";
    if (view.data[p] == nullptr) return InvalidArgument(plane + " is null");
    const size_t row = PlaneRowBytes(l.format, l.width, p);
    if (view.stride[p] < 0 || static_cast<size_t>(view.stride[p]) < row) {
      return InvalidArgument(plane + " has stride " +
                             std::to_string(view.stride[p]) +
                             ", smaller than its row of " +
                             std::to_string(row) + " bytes");
    }
  }
  *out = l;
  return Status::Ok();
}

Status CheckFramePair(const FrameView& ref, const FrameView& dist, FrameLayout layout[2]) {
  S2C_RETURN_IF_ERROR(DescribeFrame(ref, &layout[0]));
  S2C_RETURN_IF_ERROR(DescribeFrame(dist, &layout[1]));
  if (ref.desc.width != dist.desc.width || ref.desc.height != dist.desc.height) {
    return InvalidArgument("frame sizes differ: reference " +
                           SizeText(ref.desc.width, ref.desc.height) + ", distorted " +
                           SizeText(dist.desc.width, dist.desc.height));
  }
  return Status::Ok();
}

AlphaPasses PlanAlphaPasses(const FrameLayout layout[2], const bool transparent[2]) {
  AlphaPasses passes;  // no alpha on the reference: the canonical default, 0.5
  if (!layout[0].has_alpha) return passes;
  passes.background[0] = 0.1f;
  passes.background[1] = 0.9f;
  passes.count = transparent[0] || transparent[1] ? 2 : 1;
  return passes;
}

bool HasTransparency(const FrameLayout& layout, const FrameView& host_frame) {
  if (!layout.has_alpha) return false;
  // The maximum of 8 and of 16 bits is every byte of the sample 0xFF. The
  // packed formats' steps (4 or 8 bytes) divide 8, so in 8-byte words of a
  // row the alpha bytes sit at the same places: a word's alpha bytes are
  // all 0xFF when the word ANDed with their mask is the mask.
  const ComponentLayout& a = layout.alpha;
  uint64_t mask = 0;
  for (int at = a.offset; at < 8; at += a.step) {
    for (int b = 0; b < a.bytes; ++b) mask |= uint64_t{0xFF} << (8 * (at + b));
  }
  const size_t row_bytes = static_cast<size_t>(layout.width) * a.step;
  const size_t words = row_bytes / 8;
  for (int y = 0; y < layout.height; ++y) {
    const uint8_t* row = host_frame.data[a.plane] + y * host_frame.stride[a.plane];
    uint64_t all = mask;
    for (size_t i = 0; i < words; ++i) {
      uint64_t word;
      std::memcpy(&word, row + 8 * i, 8);
      all &= word | ~mask;
    }
    if (all != mask) return true;
    // The pixel of an odd width that a 4-byte step leaves after the words.
    for (size_t i = words * 8 + a.offset; i < row_bytes; i += a.step) {
      if (row[i] != 0xFF) return true;
    }
  }
  return false;
}

Status WriteRgbPrimePfm(const FrameView& view, const char* path) {
  FrameLayout l;
  S2C_RETURN_IF_ERROR(DescribeFrame(view, &l));
  std::FILE* file = std::fopen(path, "wb");
  if (file == nullptr) {
    return InvalidArgument(std::string("cannot open ") + path + " for writing");
  }
  // Negative scale: little-endian floats. The library assumes a
  // little-endian host (see kFormats), so the floats are written as they lie.
  bool ok = std::fprintf(file, "PF\n%d %d\n-1.0\n", l.width, l.height) > 0;
  for (int y = l.height - 1; ok && y >= 0; --y) {  // PFM rows run bottom up
    for (int x = 0; ok && x < l.width; ++x) {
      float rgb[3];
      RgbPrimeAt(l, view, x, y, rgb);
      ok = std::fwrite(rgb, sizeof(float), 3, file) == 3;
    }
  }
  ok = std::fclose(file) == 0 && ok;
  if (!ok) return InvalidArgument(std::string("cannot write ") + path);
  return Status::Ok();
}

}  // namespace s2c
