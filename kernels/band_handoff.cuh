// SPDX-License-Identifier: BSD-3-Clause
// How the banded blur (blur_bands.cu) hands the vertical pass's state down
// the image: the block of band b, once its vertical steps of tile t are
// done, leaves each column's filter state (the three poles' last two
// outputs) for band b + 1, which continues the columns from there, so that
// every column is filtered in the CPU's order, top to bottom, as if in one
// piece.
//
// Blocks take their band from a ticket (an atomic counter), so a band
// starts only after every band before it has started, and a block only ever
// waits for bands that started before it: the first unfinished band waits
// for nothing, whatever the GPU keeps resident, and the grid cannot
// deadlock. Band b writes its states into slot b % kSlots, the one band b -
// kSlots wrote, and waits, tile by tile, until band b - kSlots + 1 has read
// that tile's states. The slots take kSlots boundaries of the image, not
// all of them, so that they stay in L2.
//
// Each warp of a block runs one blurred plane's columns, so the handoff is
// per plane: each (slot, tile, plane) has a sequence word, 2b + 1 once band
// b's warp has written the plane's states of the tile, 2b + 2 once band b +
// 1's warp has read them, and only the warp of that plane waits for it; no
// block barrier lies between a warp's vertical steps and its handoff. The
// words only grow; they and the ticket are zeroed before each launch.
#ifndef S2C_KERNELS_BAND_HANDOFF_CUH_
#define S2C_KERNELS_BAND_HANDOFF_CUH_

#include <cstddef>
#include <cstdint>

#include "ssimulacra2_launch.h"
#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {

struct BandHandoff {
  static constexpr int kSlots = 4;
  static constexpr int kColumns = 32;                   // per tile
  static constexpr int kStateFloats = 6;                // per column and plane
  // Per tile and channel: [kStateFloats][kNumBlurKinds][kColumns], so that a
  // warp (one plane, a column per lane) loads and stores each float of its
  // states as one coalesced 128-byte row.
  static constexpr int kTileFloats = kStateFloats * kNumBlurKinds * kColumns;

  unsigned* ticket = nullptr;  // [1]
  unsigned* seq = nullptr;     // [3][kSlots][tiles][kNumBlurKinds]
  float* state = nullptr;      // [3][kSlots][tiles][kTileFloats]
  int tiles = 0;

  // The parts that are zeroed before each launch (the ticket and the
  // sequence words) come first: FlagBytes from the start.
  static size_t FlagBytes(int tiles) {
    return Align(sizeof(unsigned) * (1 + 3 * kSlots * static_cast<size_t>(tiles) * kNumBlurKinds));
  }
  static size_t Bytes(int tiles) {
    return FlagBytes(tiles) + sizeof(float) * 3 * kSlots * static_cast<size_t>(tiles) * kTileFloats;
  }
  BandHandoff() = default;
  BandHandoff(void* workspace, int tiles_)
      : ticket(static_cast<unsigned*>(workspace)),
        seq(ticket + 1),
        state(reinterpret_cast<float*>(static_cast<uint8_t*>(workspace) + FlagBytes(tiles_))),
        tiles(tiles_) {}

  __device__ unsigned* Seq(int c, int band, int t, int kind) const {
    return seq + ((static_cast<size_t>(c) * kSlots + band % kSlots) * tiles + t) * kNumBlurKinds +
           kind;
  }
  // Float j of the state of column `lane` of plane `kind`, tile t, as band
  // `band` of channel c leaves it.
  __device__ float* State(int c, int band, int t, int j, int kind, int lane) const {
    const size_t tile = (static_cast<size_t>(c) * kSlots + band % kSlots) * tiles + t;
    return state + tile * kTileFloats + (j * kNumBlurKinds + kind) * kColumns + lane;
  }

  // One lane of the plane's warp, before the vertical steps of tile t of
  // `band`: waits until band - 1 has left its states of the tile, and
  // until band - kSlots + 1 has read the ones band's own would overwrite.
  // The warp synchronises after it, before its lanes load.
  __device__ void WaitBefore(int c, int band, int t, int kind, bool last) const {
    if (band > 0) WaitAtLeast(Seq(c, band - 1, t, kind), 2u * (band - 1) + 1u);
    if (!last && band >= kSlots) {
      WaitAtLeast(Seq(c, band, t, kind), 2u * (band - kSlots) + 2u);
    }
  }
  // One lane, after a warp synchronisation that follows every lane's loads
  // and stores of the tile's states: tells band - 1 that its slot is read
  // and band + 1 that its states are there.
  __device__ void PublishAfter(int c, int band, int t, int kind, bool last) const {
    __threadfence();
    if (band > 0) StoreRelease(Seq(c, band - 1, t, kind), 2u * (band - 1) + 2u);
    if (!last) StoreRelease(Seq(c, band, t, kind), 2u * band + 1u);
  }

  __device__ VerticalState Load(int c, int band, int t, int kind, int lane) const {
    VerticalState s;
    if (band == 0) return s;  // the columns start at rest above the image
    for (int k = 0; k < 3; ++k) {
      s.y1[k][0] = __ldcg(State(c, band - 1, t, 2 * k, kind, lane));
      s.y2[k][0] = __ldcg(State(c, band - 1, t, 2 * k + 1, kind, lane));
    }
    return s;
  }
  __device__ void Store(int c, int band, int t, int kind, int lane, const VerticalState& s) const {
    for (int k = 0; k < 3; ++k) {
      __stcg(State(c, band, t, 2 * k, kind, lane), s.y1[k][0]);
      __stcg(State(c, band, t, 2 * k + 1, kind, lane), s.y2[k][0]);
    }
  }

 private:
  static size_t Align(size_t v) { return (v + 255) / 256 * 256; }
  __device__ static unsigned LoadAcquire(const unsigned* p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
    return v;
  }
  __device__ static void StoreRelease(unsigned* p, unsigned v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
  }
  __device__ static void WaitAtLeast(const unsigned* p, unsigned v) {
    while (LoadAcquire(p) < v) {
    }
  }
};

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_BAND_HANDOFF_CUH_
