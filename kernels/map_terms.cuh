// SPDX-License-Identifier: BSD-3-Clause
// Where a scale's terms come from on the device: the pixel position of a
// raster index, the rows of the planes a pixel's terms are read from, and
// the sums' workspace. Shared by the vertical pass, which forms each pixel's
// prepared values (pixel_steps.h, PrepareTerms), stores them and writes the
// sums' advice, and the sums' passes, which read them back
// (kernels/map_sums.cu).
#ifndef S2C_KERNELS_MAP_TERMS_CUH_
#define S2C_KERNELS_MAP_TERMS_CUH_

#include <cstdint>

#include "ordered_sum_launch.h"
#include "ssimulacra2_launch.h"
#include "steps/f64_policies.h"

namespace s2c {
namespace cuda {

constexpr int kTerms = kPixelTerms;    // per pixel and channel
constexpr int kSumTerms = 3 * kTerms;  // per pixel: [c * 6 + k]

struct MapTermsAt {
  BlurPlanes b;
  int w = 0;
  uint64_t recip = 0;  // floor((2^64 - 1) / w)
  MapTermsAt() = default;
  MapTermsAt(const BlurPlanes& blurred, int width)
      : b(blurred), w(width), recip(~uint64_t{0} / static_cast<uint64_t>(width)) {}
  // Column and row of raster index i < 2^63 without a 64-bit division (and
  // without f64 arithmetic): the quotient from the fixed-point reciprocal is
  // the true one or one less, and the remainder tells which.
  __device__ void Position(uint64_t i, int* x, int* y) const {
    uint64_t q = __umul64hi(i, recip);
    uint64_t r = i - q * static_cast<uint64_t>(w);
    if (r >= static_cast<uint64_t>(w)) {
      ++q;
      r -= w;
    }
    *x = static_cast<int>(r);
    *y = static_cast<int>(q);
  }
  // Where a pixel's prepared values are kept once the vertical pass has
  // formed them: in place of three of the blurred planes, whose rows the
  // pass has read by then (sigma12 holds the f32 ratio, sigma11 and sigma22
  // the low and high words of the f64 edge ratio's bits), so nothing more
  // is allocated.
  struct PreparedRows {
    float *ratio, *edge_lo, *edge_hi;
    // A pixel's prepared values as the three words stored (the vertical
    // pass stores four pixels' words at a time), and back (Load).
    struct Words {
      float ratio, edge_lo, edge_hi;
    };
    __device__ static Words WordsOf(PreparedBits p) {
      return {p.ratio, __uint_as_float(static_cast<uint32_t>(p.edge)),
              __uint_as_float(static_cast<uint32_t>(p.edge >> 32))};
    }
    __device__ PreparedBits Load(int x) const {
      return {ratio[x], (static_cast<uint64_t>(__float_as_uint(edge_hi[x])) << 32) |
                            __float_as_uint(edge_lo[x])};
    }
  };
  __device__ PreparedRows PreparedOf(int c, int y) const {
    return {b.p[c][kSigma12].Row(y), b.p[c][kSigma11].Row(y), b.p[c][kSigma22].Row(y)};
  }
};

// A scale's sums' workspace (MapSumsWorkspaceBytes) as the ordered sum sees
// it: the vertical pass writes its advice there (OrderedSumAdvice), the
// sums read it.
inline OrderedSumWorkspace MapSumsWorkspace(void* data, uint64_t pixels) {
  OrderedSumWorkspace ws;
  ws.data = data;
  ws.bytes = OrderedSumWorkspaceBytes(pixels, kSumTerms);
  return ws;
}

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_MAP_TERMS_CUH_
