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
#include "steps/pixel_steps.h"

namespace s2c {
namespace cuda {

constexpr int kTerms = 6;              // per pixel and channel
constexpr int kSumTerms = 3 * kTerms;  // per pixel: [c * 6 + k]

struct MapTermsAt {
  BlurPlanes b;
  int w;
  double inv_w;  // 1.0 / w
  MapTermsAt(const BlurPlanes& blurred, int width) : b(blurred), w(width), inv_w(1.0 / width) {}
  // Column and row of raster index i < 2^53 without a 64-bit division: the
  // quotient from the reciprocal is off by at most one, and the remainder
  // tells which way.
  __device__ void Position(uint64_t i, int* x, int* y) const {
    long long q = static_cast<long long>(static_cast<double>(i) * inv_w);
    long long r = static_cast<long long>(i) - q * w;
    if (r < 0) {
      --q;
      r += w;
    } else if (r >= w) {
      ++q;
      r -= w;
    }
    *x = static_cast<int>(r);
    *y = static_cast<int>(q);
  }
  // Where a pixel's prepared values are kept once the vertical pass has
  // formed them: in place of three of the blurred planes, whose rows the
  // pass has read by then (sigma12 holds the f32 ratio, sigma11 and sigma22
  // the low and high words of the f64 edge ratio, bits as they are), so
  // nothing more is allocated.
  struct PreparedRows {
    float *ratio, *edge_lo, *edge_hi;
    // A pixel's prepared values as the three words stored (the vertical
    // pass stores four pixels' words at a time), and back (Load).
    struct Words {
      float ratio, edge_lo, edge_hi;
    };
    __device__ static Words WordsOf(PreparedTerms p) {
      return {p.ratio, __int_as_float(__double2loint(p.edge)),
              __int_as_float(__double2hiint(p.edge))};
    }
    __device__ PreparedTerms Load(int x) const {
      return {ratio[x], __hiloint2double(__float_as_int(edge_hi[x]), __float_as_int(edge_lo[x]))};
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
