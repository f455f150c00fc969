// SPDX-License-Identifier: BSD-3-Clause
// Term fixtures for the ordered-sum tests, shared by the host test and the
// device test so that both check the same inputs: kinds of terms that stress
// the one-term rule (ties, binade crossings, zeros, subnormals, NaN, inf) and
// the reference, the plain loop.
#ifndef S2C_TESTS_ORDERED_SUM_FIXTURES_H_
#define S2C_TESTS_ORDERED_SUM_FIXTURES_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "../common/check.h"

namespace s2c {
namespace test {

enum class TermKind {
  kUniform,       // U[0, 1)
  kTies,          // multiples of 2^-53, the sum crossing [1, 2): every odd one ties
  kSsimLike,      // 1 - q clamped at 0, q in [0.8, 1.05): multiples of 2^-53
  kAllZero,
  kZeroIslands,   // uniform with long stretches of +0.0 and -0.0, one leading
  kWideRange,     // 2^-300 .. 2^300
  kQuartic,       // fourth powers of small values, many exactly zero
  kSubnormal,     // subnormal bit patterns with a few tiny normals
  kNanInMiddle,   // a signalling NaN in the middle, a second NaN later
  kInf,           // +inf a third of the way
  // Terms of either sign (the signed rule, src/steps/ordered_sum_signed.h):
  kCancelToZero,  // pairs u, -u, then integers whose sum returns to exactly 0
  kCrossingZero,  // U[0, 1) shifted: the sum rises, falls below zero, rises again
  kBinadeDrops,   // a climb to about n * 200, then a fall through every binade
  kSignedTies,    // multiples of 2^-53 of either sign, the sum up to 1.5 and back: ties under subtraction
  kSsimTerms,     // w * ssim as dump_ssim's pixels give them: w up to 2^16, some negative
  kSignedNoise,   // U[-1, 1): a random walk around zero
};

constexpr TermKind kAllTermKinds[] = {
    TermKind::kUniform,    TermKind::kTies,    TermKind::kSsimLike,  TermKind::kAllZero,
    TermKind::kZeroIslands, TermKind::kWideRange, TermKind::kQuartic, TermKind::kSubnormal,
    TermKind::kNanInMiddle, TermKind::kInf};
constexpr TermKind kSignedTermKinds[] = {TermKind::kCancelToZero, TermKind::kCrossingZero,
                                         TermKind::kBinadeDrops,  TermKind::kSignedTies,
                                         TermKind::kSsimTerms,    TermKind::kSignedNoise};

inline const char* TermKindName(TermKind k) {
  switch (k) {
    case TermKind::kUniform: return "uniform";
    case TermKind::kTies: return "ties";
    case TermKind::kSsimLike: return "ssim-like";
    case TermKind::kAllZero: return "all-zero";
    case TermKind::kZeroIslands: return "zero-islands";
    case TermKind::kWideRange: return "2^-300..2^300";
    case TermKind::kQuartic: return "quartic";
    case TermKind::kSubnormal: return "subnormal";
    case TermKind::kNanInMiddle: return "nan-in-middle";
    case TermKind::kInf: return "inf";
    case TermKind::kCancelToZero: return "cancel-to-zero";
    case TermKind::kCrossingZero: return "crossing-zero";
    case TermKind::kBinadeDrops: return "binade-drops";
    case TermKind::kSignedTies: return "signed-ties";
    case TermKind::kSsimTerms: return "ssim-terms";
    case TermKind::kSignedNoise: return "signed-noise";
  }
  return "?";
}

constexpr size_t kFixtureLengths[] = {0, 1, 7, 1023, 1024, 1025, 5 * 1024 + 333};

inline std::vector<double> MakeTerms(TermKind kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed * 1000003u + static_cast<uint64_t>(kind) * 7919u + n);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::vector<double> x(n, 0.0);
  const double two53 = 9007199254740992.0;
  for (size_t i = 0; i < n; ++i) {
    switch (kind) {
      case TermKind::kUniform: x[i] = u01(rng); break;
      case TermKind::kTies: {
        // Mean term 1.5 / n, so the sum ends in [1, 2) whatever n is.
        const double scale = n ? std::ceil(3.0 * two53 / static_cast<double>(n)) : 1.0;
        const uint64_t num = rng() % static_cast<uint64_t>(scale);
        x[i] = static_cast<double>(num) / two53;
        break;
      }
      case TermKind::kSsimLike: {
        const double q = 0.8 + 0.25 * u01(rng);
        const double d = 1.0 - q;
        x[i] = d > 0.0 ? d : 0.0;
        break;
      }
      case TermKind::kAllZero: x[i] = 0.0; break;
      case TermKind::kZeroIslands: {
        const size_t block = (i / 700) % 3;
        if (i < 1500 || block == 1) {
          x[i] = (rng() & 1) ? 0.0 : -0.0;
        } else {
          x[i] = u01(rng);
        }
        break;
      }
      case TermKind::kWideRange: {
        const int e = static_cast<int>(rng() % 601) - 300;
        x[i] = std::ldexp(1.0 + u01(rng), e);
        break;
      }
      case TermKind::kQuartic: {
        const double d = std::max(u01(rng) - 0.3, 0.0) * 0.01;
        x[i] = (d * d) * (d * d);
        break;
      }
      case TermKind::kSubnormal: {
        const uint64_t r = rng();
        x[i] = (r % 97 == 0) ? std::ldexp(1.0 + u01(rng), -1020)
                             : Double(r & ((uint64_t{1} << 52) - 1));
        break;
      }
      case TermKind::kNanInMiddle:
      case TermKind::kInf: x[i] = u01(rng); break;
      case TermKind::kCancelToZero:
        if (i < n / 2) {
          x[i] = (i % 2) ? -x[i - 1] : u01(rng);
        } else {
          // Integers, exact in any order; every 3000th term brings the sum
          // back to zero.
          if ((i - n / 2) % 3000 == 2999 || i + 1 == n) {
            double s = 0.0;
            for (size_t j = i - (i - n / 2) % 3000; j < i; ++j) s += x[j];
            x[i] = -s;
          } else {
            x[i] = static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000);
          }
        }
        break;
      case TermKind::kCrossingZero: {
        const double shift = i < n / 3 ? 0.2 : i < 2 * n / 3 ? 0.9 : 0.1;
        x[i] = u01(rng) - shift;
        break;
      }
      case TermKind::kBinadeDrops:
        x[i] = i < 2 * n / 5 ? u01(rng) * 1024 : -u01(rng) * 700;
        break;
      case TermKind::kSignedTies: {
        const double scale = n ? std::ceil(3.0 * two53 / static_cast<double>(n)) : 1.0;
        // Mean 3 / n up to the middle (the sum climbs to 1.5, where the
        // last place is 2^-52), then -2.55 / n (it falls back to about 0.2).
        const int64_t num = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * scale)) -
                            static_cast<int64_t>(scale * (i < n / 2 ? 0.0 : 1.85));
        x[i] = static_cast<double>(num) / two53;
        break;
      }
      case TermKind::kSsimTerms: {
        const double w = (rng() % 8) ? 65536.0 : static_cast<double>(1 + rng() % 65536);
        const double ssim = (rng() % 10) ? 1.0 - 0.5 * u01(rng) * u01(rng) : -0.3 * u01(rng);
        x[i] = w * ssim;
        break;
      }
      case TermKind::kSignedNoise: x[i] = 2.0 * u01(rng) - 1.0; break;
    }
  }
  if (kind == TermKind::kNanInMiddle && n > 0) {
    x[n / 2] = Double(0x7FF0000000000123ull);  // signalling: comes out quieted
    x[n - 1 - (n - 1) / 4] = Double(0xFFF8000000000456ull);
  }
  if (kind == TermKind::kInf && n > 0) x[n / 3] = INFINITY;
  return x;
}

// The reference: the CPU's loop.
inline double LoopSum(const double* x, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i) s += x[i];
  return s;
}

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_ORDERED_SUM_FIXTURES_H_
