// SPDX-License-Identifier: BSD-3-Clause
// How the banded blur (blur_bands.cu) hands the vertical pass down the
// image: once band b's vertical steps of tile t are done, it leaves, for
// each column of each blurred plane, the filter's state (the three poles'
// last two outputs) and the horizontal outputs of its last 2N lines, which
// are the upper taps of band b + 1's first 2N steps. Band b + 1 continues
// the columns from there, so every column is filtered in the CPU's order,
// top to bottom, as if in one piece, and no line is blurred twice.
//
// Blocks take their band from a ticket (an atomic counter), so a band
// starts only after every band before it has started, and a block only ever
// waits for bands that started before it: the first unfinished band waits
// for nothing, whatever the GPU keeps resident, and the grid cannot
// deadlock. Each (channel, tile, plane) has a word, b + 1 once band b has
// left that tile's handoff of the plane; only the warp of that plane waits
// for it. Band b writes slot b % 2: band b - 2's handoff there is read, as
// band b - 1 read it before it left its own, which band b has waited for.
// The words only grow; they and the ticket are zeroed before each launch.
#ifndef S2C_KERNELS_BAND_HANDOFF_CUH_
#define S2C_KERNELS_BAND_HANDOFF_CUH_

#include <cstddef>
#include <cstdint>

#include "ssimulacra2_launch.h"
#include "steps/blur_steps.h"

namespace s2c {
namespace cuda {

struct BandHandoff {
  static constexpr int kSlots = 2;
  static constexpr int kColumns = 32;  // per tile
  static constexpr int kStateFloats = 6;
  static constexpr int kUpperRows = 2 * kBlurRadius;
  static constexpr int kColumnFloats = kStateFloats + kUpperRows;  // per column and plane
  // Per tile and channel: [kColumnFloats][kNumBlurKinds][kColumns], so that
  // a warp (one plane, a column per lane) loads and stores each float as one
  // coalesced 128-byte row.
  static constexpr int kTileFloats = kColumnFloats * kNumBlurKinds * kColumns;

  unsigned* ticket = nullptr;  // [1]
  unsigned* left = nullptr;    // [3][tiles][kNumBlurKinds]: bands that have left theirs
  float* data = nullptr;       // [3][kSlots][tiles][kTileFloats]
  int tiles = 0;

  // The parts that are zeroed before each launch (the ticket and the words)
  // come first: FlagBytes from the start.
  static size_t FlagBytes(int tiles) {
    return Align(sizeof(unsigned) * (1 + 3 * static_cast<size_t>(tiles) * kNumBlurKinds));
  }
  static size_t Bytes(int tiles) {
    return FlagBytes(tiles) + sizeof(float) * 3 * kSlots * static_cast<size_t>(tiles) * kTileFloats;
  }
  BandHandoff() = default;
  BandHandoff(void* workspace, int tiles_)
      : ticket(static_cast<unsigned*>(workspace)),
        left(ticket + 1),
        data(reinterpret_cast<float*>(static_cast<uint8_t*>(workspace) + FlagBytes(tiles_))),
        tiles(tiles_) {}

  // One lane of the plane's warp, before the vertical steps of tile t of
  // `band`: waits until band - 1 has left its handoff of the tile. The warp
  // synchronises after it, before its lanes load.
  __device__ void WaitBefore(int c, int band, int t, int kind) const {
    if (band > 0) WaitAtLeast(Left(c, t, kind), static_cast<unsigned>(band));
  }
  // One lane, after a warp synchronisation that follows every lane's stores
  // of the tile's handoff: tells band + 1 that it is there.
  // The release orders the other lanes' stores too: the warp
  // synchronisation puts them before it, and a release carries what
  // precedes it in causality order (PTX memory model), as a block barrier
  // and a release by one thread do in CUTLASS's semaphores.
  __device__ void PublishAfter(int c, int band, int t, int kind) const {
    StoreRelease(Left(c, t, kind), static_cast<unsigned>(band) + 1u);
  }

  // The state and the upper taps band - 1 left for column `lane` of plane
  // `kind`, tile t; the columns start at rest, with zero rows above the
  // image, at band 0.
  __device__ void Load(int c, int band, int t, int kind, int lane, VerticalState& s,
                       float (&upper)[kUpperRows]) const {
    if (band == 0) {
      for (int j = 0; j < kUpperRows; ++j) upper[j] = 0.0f;
      return;
    }
    const float* from = Slot(c, band - 1, t, kind, lane);
    for (int k = 0; k < 3; ++k) {
      s.y1[k][0] = __ldcg(from + (2 * k) * kRowFloats);
      s.y2[k][0] = __ldcg(from + (2 * k + 1) * kRowFloats);
    }
#pragma unroll
    for (int j = 0; j < kUpperRows; ++j) upper[j] = __ldcg(from + (kStateFloats + j) * kRowFloats);
  }
  // Band `band`'s state of the column and its horizontal outputs of its
  // last 2N lines, line j of them at lines[j * pitch].
  __device__ void Store(int c, int band, int t, int kind, int lane, const VerticalState& s,
                        const float* lines, int pitch) const {
    float* to = Slot(c, band, t, kind, lane);
    for (int k = 0; k < 3; ++k) {
      __stcg(to + (2 * k) * kRowFloats, s.y1[k][0]);
      __stcg(to + (2 * k + 1) * kRowFloats, s.y2[k][0]);
    }
#pragma unroll
    for (int j = 0; j < kUpperRows; ++j) __stcg(to + (kStateFloats + j) * kRowFloats, lines[j * pitch]);
  }

 private:
  static constexpr int kRowFloats = kNumBlurKinds * kColumns;
  static size_t Align(size_t v) { return (v + 255) / 256 * 256; }
  __device__ unsigned* Left(int c, int t, int kind) const {
    return left + (static_cast<size_t>(c) * tiles + t) * kNumBlurKinds + kind;
  }
  __device__ float* Slot(int c, int band, int t, int kind, int lane) const {
    const size_t tile = (static_cast<size_t>(c) * kSlots + band % kSlots) * tiles + t;
    return data + tile * kTileFloats + kind * kColumns + lane;
  }
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
