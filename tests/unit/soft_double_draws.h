// SPDX-License-Identifier: BSD-3-Clause
// Operands for the soft double's tests, shared by the host tests and the
// device test (tests/gpu/test_soft_double_gpu.cu) so that both check the same
// kinds of input: doubles and floats of chosen binades, special values, and
// pairs of operands whose sum, product or quotient ties, cancels, or lands
// next to the ends of the range.
#ifndef S2C_TESTS_SOFT_DOUBLE_DRAWS_H_
#define S2C_TESTS_SOFT_DOUBLE_DRAWS_H_

#include <cmath>
#include <cstdint>
#include <iterator>
#include <random>

#include "soft_double_check.h"

namespace s2c {
namespace test {

// A double (-1)^sign * 1.f * 2^e with a random fraction of `bits` significant
// bits after the leading one (the rest zero), e in [lo, hi], random sign. An
// e below -1022 gives a subnormal (ldexp rounds the fraction to its grid).
inline double DrawDouble(std::mt19937_64& rng, int lo, int hi, int bits = 52) {
  const int e = lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  const uint64_t fraction = bits == 0 ? 0 : (rng() >> (64 - bits)) << (52 - bits);
  const double x = std::ldexp(1.0 + std::ldexp(static_cast<double>(fraction), -52), e);
  return (rng() & 1) ? -x : x;
}

// A float with a random fraction and a binary exponent in [lo, hi], random sign.
inline float DrawFloat(std::mt19937_64& rng, int lo, int hi) {
  const int e = lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  const float x = std::ldexp(1.0f + std::ldexp(static_cast<float>(rng() >> 41), -23), e);
  return (rng() & 1) ? -x : x;
}

// Special and boundary doubles: zeros, infinities, quiet and signalling NaNs
// of both signs with payloads, the subnormal and normal extremes, and values
// next to one.
constexpr uint64_t kSpecialDoubles[] = {
    0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
    0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF4000000000123,
    0x7FFFFFFFFFFFFFFF, 0x7FF80000DEADBEEF, 0x0000000000000001, 0x8000000000000001,
    0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF, 0x0010000000000000, 0x8010000000000000,
    0x0010000000000001, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FE0000000000000,
    0x3FF0000000000000, 0xBFF0000000000000, 0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF,
    0x3FE0000000000000, 0x4000000000000000, 0x4008000000000000, 0x3CA0000000000000,
    0x3C90000000000000, 0x0008000000000000, 0x0000000000000003, 0x4330000000000000};

enum PairKind {
  kAnyBits,     // every bit pattern: NaNs with payloads, subnormals, infinities
  kSpecialMix,  // zeros, infinities, NaNs, extremes against each other and random values
  kPipeline,    // the terms' values: 2^-60..2^60, either sign, some with f32 significands
  kAddTies,     // b's bits below a's last place exactly half a unit, or next to it
  kMulTies,     // products of 54 significant bits (ties) or 55 (next to one)
  kSubnormal,   // results on the subnormal grid, ties among them
  kCancel,      // operands a few units apart: differences cancel most bits
  kWide,        // exponents over the whole range
  kBoundary,    // results next to the largest finite value and the smallest normal one
  kPairKinds
};
constexpr const char* kPairKindNames[] = {"any-bits", "special-mix", "pipeline",
                                          "add-ties", "mul-ties",    "subnormal",
                                          "cancel",   "wide",        "boundary"};

// An odd number of exactly `bits` significant bits.
inline uint64_t OddOfLength(std::mt19937_64& rng, int bits) {
  if (bits == 1) return 1;
  return (uint64_t{1} << (bits - 1)) | (rng() & ((uint64_t{1} << (bits - 1)) - 1)) | 1;
}

inline double Signed(std::mt19937_64& rng, double x) { return (rng() & 1) ? -x : x; }

inline void DrawPair(std::mt19937_64& rng, PairKind kind, double* a, double* b) {
  switch (kind) {
    case kAnyBits:
      *a = Double(rng());
      *b = Double(rng());
      return;
    case kSpecialMix: {
      auto one = [&] {
        switch (rng() % 3) {
          case 0: return Double(kSpecialDoubles[rng() % std::size(kSpecialDoubles)]);
          case 1: return DrawDouble(rng, -60, 60);
          default: return Double(rng());
        }
      };
      *a = one();
      *b = one();
      return;
    }
    case kPipeline: {
      const int bits_a = (rng() & 1) ? 23 : 52, bits_b = (rng() & 1) ? 23 : 52;
      *a = DrawDouble(rng, -60, 60, bits_a);
      *b = DrawDouble(rng, -60, 60, bits_b);
      return;
    }
    case kAddTies: {
      // a = sa * 2^ea; b's significand has its low d bits set to 10...0, so
      // that what lies below a's last place is exactly half of it, then
      // perhaps nudged by one unit of b (next to a tie).
      *a = DrawDouble(rng, -60, 60);
      const int d = 1 + static_cast<int>(rng() % 53);
      uint64_t sb = (uint64_t{1} << 52) | (rng() & ((uint64_t{1} << 52) - 1));
      sb = ((sb >> d) << d) | (uint64_t{1} << (d - 1));
      if (rng() % 4 == 0) sb += (rng() & 1) ? 1 : -1;
      const int ea = std::ilogb(*a);
      *b = Signed(rng, std::ldexp(static_cast<double>(sb), ea - 52 - d));
      return;
    }
    case kMulTies: {
      const int k = 2 + static_cast<int>(rng() % 52);  // 2..53
      const int m = (rng() & 1) ? 55 - k : 56 - k;     // products of 54 or 55 bits
      if (m < 1 || m > 53) {
        *a = DrawDouble(rng, -60, 60);
        *b = DrawDouble(rng, -60, 60);
        return;
      }
      const int ea = static_cast<int>(rng() % 121) - 60, eb = static_cast<int>(rng() % 121) - 60;
      *a = Signed(rng, std::ldexp(static_cast<double>(OddOfLength(rng, k)), ea - k));
      *b = Signed(rng, std::ldexp(static_cast<double>(OddOfLength(rng, m)), eb - m));
      return;
    }
    case kSubnormal: {
      // a = n * 2^(e - 1075 - t) for odd n: a / 2^e and a * 2^-e are
      // n * 2^(-1075 - t), on the subnormal grid a tie for t = 0, next to one
      // otherwise.
      const uint64_t n = OddOfLength(rng, 1 + static_cast<int>(rng() % 53));
      const int t = static_cast<int>(rng() % 4);
      const int e = 1 + t + static_cast<int>(rng() % (1023 - t));
      *a = Signed(rng, std::ldexp(static_cast<double>(n), e - 1075 - t));
      *b = Signed(rng, std::ldexp(1.0, (rng() & 1) ? e : -e));
      return;
    }
    case kCancel: {
      *a = DrawDouble(rng, -60, 60);
      const int64_t delta = static_cast<int64_t>(rng() % 64) - 32;
      *b = Signed(rng, std::fabs(Double(Bits(*a) + static_cast<uint64_t>(delta))));
      return;
    }
    case kWide:
      *a = DrawDouble(rng, -1074, 1023);
      *b = DrawDouble(rng, -1074, 1023);
      return;
    case kBoundary: {
      // Products and quotients near 2^1024 and 2^-1022, sums near 2^1024.
      const int ea = 1000 + static_cast<int>(rng() % 24);
      const int eb = static_cast<int>(rng() % 48) - 24;
      *a = DrawDouble(rng, ea, ea);
      *b = DrawDouble(rng, eb, eb);
      if (rng() & 1) *a = 1.0 / *a;  // 2^-1024..2^-1000: products underflow
      if (rng() % 4 == 0) *b = DrawDouble(rng, 1020, 1023);
      return;
    }
    case kPairKinds: break;
  }
}

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_SOFT_DOUBLE_DRAWS_H_
