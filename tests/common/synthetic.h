// SPDX-License-Identifier: BSD-3-Clause
// Generated test images: a deterministic "scene" (smooth gradients, hard
// edges, fine texture and noise) and plausible degradations of it (blur,
// noise, shifted blocks, quantisation), as RGB samples of 8 or 16 bits. The
// same seed gives the same image on every machine: only integer arithmetic
// and a fixed PRNG are involved.
#ifndef S2C_TESTS_SYNTHETIC_H_
#define S2C_TESTS_SYNTHETIC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "image_io.h"

namespace s2c {
namespace test {

// Interleaved RGB samples in [0, max_value], row after row.
struct SampleImage {
  int width = 0;
  int height = 0;
  int max_value = 255;  // 255 or 65535
  std::vector<uint16_t> rgb;

  uint16_t& At(int x, int y, int c) {
    return rgb[(static_cast<size_t>(y) * width + x) * 3 + c];
  }
  uint16_t At(int x, int y, int c) const {
    return rgb[(static_cast<size_t>(y) * width + x) * 3 + c];
  }
};

enum class Degradation { kBlur, kNoise, kBlockShift, kQuantise };
const char* DegradationName(Degradation d);

SampleImage MakeScene(int width, int height, int max_value, uint64_t seed);
SampleImage Degrade(const SampleImage& in, Degradation d, uint64_t seed);

// As a frame: 8-bit samples become RGB, 16-bit ones RGBA64_LE (alpha opaque).
HostImage ToHostImage(const SampleImage& img);

// Binary PPM (P6), 16-bit samples big endian as the format says.
bool WritePpm(const SampleImage& img, const std::string& path);

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_SYNTHETIC_H_
