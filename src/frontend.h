// SPDX-License-Identifier: BSD-3-Clause
// The video front end (exactness contract, layer 2), host side: what a pixel
// format looks like in memory, validation of a frame, and the per-format
// constants the per-pixel code needs, computed once on the host. The
// per-pixel arithmetic itself is in steps/frontend_steps.h, over the
// FrameLayout of steps/frame_layout.h (shared with CUDA); its
// definition is docs/frontend.md.
#ifndef S2C_FRONTEND_H_
#define S2C_FRONTEND_H_

#include <cstddef>
#include <string>

#include "status.h"
#include "steps/frame.h"
#include "steps/frame_layout.h"

namespace s2c {

// GStreamer's name of a format ("I420", "P010_10LE", "ARGB64", ...), or
// nullptr for kUnknown and out-of-range values. The element maps a
// GstVideoFormat through gst_video_format_to_string and back with
// PixelFormatFromName, so the table exists only here.
const char* PixelFormatName(PixelFormat format);
// kUnknown for nullptr and for names the front end does not support.
PixelFormat PixelFormatFromName(const char* name);

// Whether a format is YUV (Y', Cb and Cr planes, what SSIM compares); false
// for RGB, gray and kUnknown.
bool IsYuv(PixelFormat format);

// Number of planes of a format (0 for kUnknown), and for plane `plane` of a
// frame of the given width/height the bytes of one row's samples and the
// number of rows (what an upload copies; strides may be larger). 0 for a
// plane the format does not have.
int NumPlanes(PixelFormat format);
size_t PlaneRowBytes(PixelFormat format, int width, int plane);
int PlaneRows(PixelFormat format, int height, int plane);

// "WxH", as every message names a frame size.
std::string SizeText(int width, int height);

// InvalidArgument naming the size when a side is below kMinSide (the metric's
// smallest scale), else Ok. Every entry point that takes a size uses it.
Status CheckFrameSize(int width, int height);

// Checks the description alone (known format, size at least kMinSide in both
// directions, valid matrix/range values) and fills `out`. For caps time,
// when no frame exists yet.
Status DescribeFormat(const FrameDesc& desc, FrameLayout* out);

// DescribeFormat, plus: every plane the format has is non-null and its
// stride is at least its row size. Pointers are not dereferenced, so views
// of device memory are checked the same way.
Status DescribeFrame(const FrameView& view, FrameLayout* out);

// DescribeFrame of both frames (into layout[0] and layout[1]), plus: they
// have the same size. What the CPU backend checks before it accepts a pair.
Status CheckFramePair(const FrameView& ref, const FrameView& dist, FrameLayout layout[2]);

// The canonical tool's rule for alpha (frontend.md, 8): the grey
// backgrounds a pair is scored on, one full comparison each, every frame
// with alpha blended on the pass's background; the pair's result is the
// first pass's unless the second scores lower (the tool's std::min).
struct AlphaPasses {
  int count = 1;
  float background[2] = {0.5f, 0.5f};
};

// From the pair's layouts: a reference with alpha is scored on 0.1 and on
// 0.9; without, on 0.5 once (only a distorted frame with alpha is blended).
// `transparent[i]` says whether frame i may have an alpha sample below its
// maximum (HasTransparency of a host frame; has_alpha of a device frame,
// which is not read): where neither frame has one, every blend is the
// identity and a reference with alpha needs one pass, not two.
AlphaPasses PlanAlphaPasses(const FrameLayout layout[2], const bool transparent[2]);

// Whether a host frame DescribeFrame accepted has alpha and a sample of it
// below the maximum code (every blend of a maximum, 1.0f, gives the colour
// back unchanged).
bool HasTransparency(const FrameLayout& layout, const FrameView& host_frame);

// Debug hook: writes the front end's R'G'B' of a host frame, the exact
// floats layer 1 receives before sRGB-to-linear, as a colour PFM
// (little-endian, scale -1.0, rows bottom to top). Alpha is not applied: a
// frame with alpha is written as its colour samples alone.
Status WriteRgbPrimePfm(const FrameView& view, const char* path);

}  // namespace s2c

#endif  // S2C_FRONTEND_H_
