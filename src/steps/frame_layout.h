// SPDX-License-Identifier: BSD-3-Clause
// A frame's layout as the per-pixel front end sees it (docs/frontend.md):
// where each component lives and the per-format constants, computed once on
// the host by DescribeFormat (frontend.h) and passed to kernels by value.
#ifndef S2C_STEPS_FRAME_LAYOUT_H_
#define S2C_STEPS_FRAME_LAYOUT_H_

#include "steps/frame.h"

namespace s2c {

enum class ColorModel : int { kRgb, kYuv, kGray };

// Where one component (R', G', B' or Y', Cb, Cr) lives: sample (sx, sy) of
// the component's grid starts at
//   data[plane] + sy * stride[plane] + sx * step + offset
// and is `bytes` bytes (little endian), right-shifted by `shift`.
struct ComponentLayout {
  int plane;
  int offset;
  int step;
  int bytes;  // 1 or 2
  int shift;  // P010: 6, P012: 4, others 0
};

// Everything the per-pixel code knows about a frame besides its plane
// pointers. Plain data, passed to kernels by value.
struct FrameLayout {
  PixelFormat format;
  ColorModel model;
  int width;
  int height;
  int bit_depth;        // 8, 10, 12 or 16
  int num_planes;
  // [0..2] = R', G', B' for RGB; Y', Cb, Cr for YUV; gray: all three the
  // same luma component.
  ComponentLayout comp[3];
  // Packed RGB with alpha (RGBA, ARGB64, ...): where A lives, normalised as
  // R', G' and B' are (frontend.md, 8). x (padding) is not alpha.
  bool has_alpha;
  ComponentLayout alpha;
  // log2 of the chroma subsampling (YUV only; 0 otherwise).
  int chroma_shift_x;
  int chroma_shift_y;
  int chroma_width;     // (width + (1 << shift_x) - 1) >> shift_x
  int chroma_height;
  bool h_cosited;
  bool v_cosited;
  // Normalisation, value = ((float)v - offset) * scale (frontend.md, 2).
  // RGB and gray: offset 0, scale (float)(1.0 / (2^b - 1)).
  float luma_offset;
  float luma_scale;
  float chroma_offset;
  float chroma_scale;
  // YUV to R'G'B' (frontend.md, 4), from Kr and Kb in double, rounded once.
  float cr_r;
  float cb_g;
  float cr_g;
  float cb_b;
  // BT.2020 primaries (frontend.md, 9): the R'G'B' is taken to linear
  // light, mixed to BT.709's primaries by the rows of `primaries` and
  // encoded again. False for BT.709 and for gray.
  bool convert_primaries;
  float primaries[9];
};

}  // namespace s2c

#endif  // S2C_STEPS_FRAME_LAYOUT_H_
