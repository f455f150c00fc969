// SPDX-License-Identifier: BSD-3-Clause
// What a video frame is to the metric library: a pixel format, a size, the
// colorimetry the front end needs (exactness contract, layer 2) and plane
// pointers with strides. The same plain struct describes frames in host
// memory and in CUDA device memory, and is passed to kernels by value.
#ifndef S2C_FRAME_H_
#define S2C_FRAME_H_

#include <cstddef>
#include <cstdint>

namespace s2c {

// The formats of the exactness contract, named after GStreamer's. Multi-byte
// samples are little endian. Packed 10/12-bit semi-planar formats (P010,
// P012) hold their samples in the high bits of 16-bit words.
enum class PixelFormat : int {
  kUnknown = 0,
  // YUV, 8 bit
  kI420, kYV12, kY42B, kY444, kNV12, kNV21, kNV16, kNV24,
  // YUV, 10/12/16 bit planar
  kI420_10LE, kI422_10LE, kY444_10LE,
  kI420_12LE, kI422_12LE, kY444_12LE,
  kY444_16LE,
  // YUV, 10/12/16 bit semi-planar
  kP010_10LE, kP012_LE, kP016_LE,
  // Gray (full range, R = G = B)
  kGray8, kGray16LE,
  // Packed RGB, 8 bit; x is padding, A is blended as the canonical tool
  // blends it (docs/frontend.md, 8)
  kRGB, kBGR, kRGBA, kBGRA, kRGBx, kBGRx, kxRGB, kxBGR, kARGB, kABGR,
  // Packed RGB, 16 bit (ARGB64 is what pngdec gives for 16-bit PNGs)
  kARGB64, kRGBA64_LE, kBGRA64_LE, kABGR64_LE,
  kCount
};

enum class YuvMatrix : int { kBT601, kBT709, kBT2020 };
enum class YuvRange : int { kLimited, kFull };
// The RGB primaries of a colour frame: BT.709's are sRGB's (and stand for
// the SD primaries too, docs/frontend.md, 9); BT.2020's are converted to
// them.
enum class RgbPrimaries : int { kBT709, kBT2020 };

// Where chroma samples sit relative to luma, per direction (GStreamer's
// GST_VIDEO_CHROMA_SITE_H_COSITED / V_COSITED flags).
struct ChromaSiting {
  bool h_cosited = true;   // MPEG-2 / H.264 default: horizontally cosited
  bool v_cosited = false;  // and vertically centred
};

struct FrameDesc {
  PixelFormat format = PixelFormat::kUnknown;
  int width = 0;
  int height = 0;
  YuvMatrix matrix = YuvMatrix::kBT709;  // ignored for RGB and gray
  YuvRange range = YuvRange::kLimited;   // ignored for RGB and gray
  ChromaSiting siting;                   // ignored unless chroma is subsampled
  RgbPrimaries primaries = RgbPrimaries::kBT709;  // ignored for gray
  // Width over height of a pixel (the caps' pixel-aspect-ratio): SSIM's
  // horizontal window is its vertical one over this. Ignored by SSIMULACRA 2.
  double pixel_aspect = 1.0;
};

constexpr int kMaxPlanes = 4;

// Non-owning. `data[i]` points to the first byte of plane i, `stride[i]` is
// its row pitch in bytes. Host or device memory, as the receiving call says.
struct FrameView {
  FrameDesc desc;
  const uint8_t* data[kMaxPlanes] = {nullptr, nullptr, nullptr, nullptr};
  ptrdiff_t stride[kMaxPlanes] = {0, 0, 0, 0};
};

// The smallest frame the metric accepts (the canonical tool's limit).
constexpr int kMinSide = 8;

}  // namespace s2c

#endif  // S2C_FRAME_H_
