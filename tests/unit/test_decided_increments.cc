// SPDX-License-Identifier: BSD-3-Clause
// The increments decided in f32 (src/steps/decided_increments.h,
// IntegerF64::DecideIncrements and DecideIncrement in f64_policies.h) against
// the exact rule: for a pixel's prepared values and six sums' keys, the
// reference's six terms (FinishTerms, in f64) and each one's increment by
// TermIncrementBits, composed in order over runs of 8 pixels as the
// increments pass forms them. Wherever a run is decided (DecidedTaken), its
// total must be the exact composition's, from either parity; so a tie is
// never decided. The draws: realistic pixels under keys that put the
// increments anywhere from 2^0 to 2^50 units; keys that make the scaled
// terms exact ties or one of their neighbours; ratios and edge terms at and
// beyond the ends of each range (tiny, huge, subnormal, zero of either sign,
// inf, NaN); keys with no binade, and keys at the ends of the f32 scale's
// range. The realistic draws must be mostly decided, or the pass would gain
// nothing. The mutation test (soft_double.mutants) checks that a fault of
// the pair arithmetic or of the margin fails this test.
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <random>

#include "soft_double_check.h"
#include "steps/f64_policies.h"

namespace s2c {
namespace {

using test::Bits;
using test::Double;

constexpr int kRun = 8;  // pixels per run, as the increments pass takes them

struct Draw {
  SoftPreparedTerms p[kRun];
  int32_t key[6];
};

struct Tally {
  std::atomic<long> runs{0}, decided{0}, terms{0}, terms_decided{0}, ties{0};
};

// The reference's terms of prepared values: FinishTerms in f64.
void ReferenceTerms(SoftPreparedTerms p, uint64_t (&t)[6]) {
  const PixelTerms f = FinishTerms({p.ratio, Double(p.edge)});
  for (int k = 0; k < 6; ++k) t[k] = Bits(f.t[k]);
}

// Checks one draw: the run of n pixels (n = 1 also counts the single terms).
void CheckRun(const Draw& d, int n, const char* what, Tally* tally) {
  float scale[6];
  for (int k = 0; k < 6; ++k) scale[k] = UnitScale(d.key[k]);
  DecidedRun run[6];
  SumIncrement exact[6];
  uint64_t first_terms[6];  // the first pixel's, for the messages
  for (int k = 0; k < 6; ++k) exact[k] = kSumNothing;
  for (int j = 0; j < n; ++j) {
    IntegerF64::DecideIncrements(d.p[j], d.key, scale, run);
    uint64_t t[6];
    ReferenceTerms(d.p[j], t);
    for (int k = 0; k < 6; ++k) {
      exact[k] = Then(exact[k], TermIncrementBits(t[k], d.key[k]));
      if (j == 0) first_terms[k] = t[k];
    }
  }
  for (int k = 0; k < 6; ++k) {
    if (n == 1) {
      // The one-term form gives the same.
      DecidedRun one;
      IntegerF64::DecideIncrement(d.p[0], k, d.key[k], scale[k], one);
      S2C_CHECK(one.undecided == run[k].undecided && (one.undecided || one.units == run[k].units),
                "%s: DecideIncrement of term %d", what, k);
    }
    const bool taken = DecidedTaken(run[k], scale[k]);
    if (n == 1) {
      ++tally->terms;
      tally->terms_decided += taken;
    } else {
      ++tally->runs;
      tally->decided += taken;
    }
    tally->ties += exact[k].even != exact[k].odd;
    if (!taken) continue;
    S2C_CHECK(exact[k].even == run[k].units && exact[k].odd == run[k].units,
              "%s: sum %d key %d, %d pixel(s) from ratio %a edge %016" PRIx64
              " (term %016" PRIx64 "): decided %" PRIu64 ", exact {%" PRIu64 ", %" PRIu64 "}",
              what, k, d.key[k], n, static_cast<double>(d.p[0].ratio), d.p[0].edge, first_terms[k],
              run[k].units, exact[k].even, exact[k].odd);
  }
}

void Check(const Draw& d, const char* what, Tally* tally) {
  CheckRun(d, 1, what, tally);
  CheckRun(d, kRun, what, tally);
}

double Uniform(std::mt19937_64& rng) { return (rng() >> 11) * 0x1p-53; }

// A realistic pixel: the SSIM ratio 1 - d with d mostly small, sometimes
// above one (negative covariance) or zero; the edge term of two absolute
// differences, as EdgeTerm forms it.
SoftPreparedTerms RealisticPixel(std::mt19937_64& rng) {
  const double u = Uniform(rng);
  float ratio;
  if (u < 0.05) {
    ratio = 1.0f + static_cast<float>(Uniform(rng) * 0.01);  // d clamped
  } else if (u < 0.1) {
    ratio = -static_cast<float>(Uniform(rng) * 4.0);
  } else {
    ratio = 1.0f - static_cast<float>(std::pow(Uniform(rng), 3.0) * 0.8);
  }
  const float a1 = static_cast<float>(std::pow(Uniform(rng), 2.0) * 0.3);
  const float a2 = rng() % 8 == 0 ? a1 : static_cast<float>(std::pow(Uniform(rng), 2.0) * 0.3);
  return {ratio, Bits(EdgeTerm(a1, 0.0f, a2, 0.0f))};
}

// A key that puts term t (bits) about 2^shift units of the sum's last place
// (the binade's key is t's exponent less shift plus 52), or a sum about
// 2^40 for a zero term.
int32_t KeyFor(uint64_t t, int shift) {
  const int e = static_cast<int>((t >> 52) & 0x7FF);
  if (e == 0 || e == 0x7FF) return 1023 + 40;
  const int key = e + 52 - shift;
  return key < 1 ? 1 : key > 2046 ? 2046 : key;
}

// Keys under which each of the first pixel's terms lands at its lowest set
// bit plus `above` (1: an exact tie where that bit is the half unit, 2 and 3
// its neighbours a quarter or an eighth away).
void TieKeys(Draw* d, int above) {
  uint64_t t[6];
  ReferenceTerms(d->p[0], t);
  for (int k = 0; k < 6; ++k) {
    const uint64_t b = t[k];
    const int e = static_cast<int>((b >> 52) & 0x7FF);
    if ((b << 1) == 0 || e == 0 || e == 0x7FF) continue;
    const uint64_t mant = (b & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
    int tz = 0;
    while (!((mant >> tz) & 1)) ++tz;
    // The lowest set bit is 2^(e - 1075 + tz); the unit 2^(key - 1075).
    d->key[k] = e + tz + above;
  }
}

void RealisticDraws(uint64_t draws, Tally* tally) {
  test::ParallelDraws(20261202, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      Draw d;
      for (auto& p : d.p) p = RealisticPixel(rng);
      uint64_t t[6];
      ReferenceTerms(d.p[rng() % kRun], t);
      const int shift = static_cast<int>(rng() % 51);
      for (int k = 0; k < 6; ++k) d.key[k] = KeyFor(t[k], shift);
      Check(d, "realistic", tally);
    }
  });
}

void TieDraws(uint64_t draws, Tally* tally) {
  test::ParallelDraws(20261203, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      Draw d;
      for (auto& p : d.p) p = RealisticPixel(rng);
      for (int k = 0; k < 6; ++k) d.key[k] = 1040;
      TieKeys(&d, 1 + static_cast<int>(rng() % 3));
      Check(d, "ties", tally);
    }
  });
}

// Values at the ends of each range, against one another and under keys at
// the ends of the scale's range.
void SpecialDraws() {
  const float ratios[] = {1.0f, 1.0f + 0x1p-23f, 1.0f - 0x1p-24f, 0.0f, -0.0f, 0x1p-29f,
                          0x1.fffffep-30f, -0x1p-29f, 0x1p-149f, 0x1p-126f, 0.5f, -1.0f,
                          -0x1.fffffep23f, -0x1p24f, -0x1p60f, 0x1p20f, INFINITY, -INFINITY,
                          NAN, 1.0f - 0x1p-20f, 0.999f};
  const double edges[] = {0.0, -0.0, 0x1p-20, 0x1.fffffffffffffp-21, -0x1p-20, 0x1p-60,
                          -0x1p-1074, 0x1p-1022, 0.25, -0.25, 0x1.fffffffffffffp23, 0x1p24,
                          -0x1p24, 1e300, INFINITY, -INFINITY, NAN, -NAN, 0x1.0000000000001p-3,
                          -0x1.fffffffffffffp-2};
  const int32_t keys[] = {kPlanTermByTerm, kPlanZero, 1, 52, 947, 948, 949, 990, 997, 998,
                          1013, 1040, 1080, 1200, 1201, 1202, 2046};
  Tally tally;
  std::mt19937_64 rng(20261204);
  for (float r : ratios) {
    for (double e : edges) {
      for (int32_t key : keys) {
        Draw d;
        for (auto& p : d.p) p = {r, Bits(e)};
        for (int k = 0; k < 6; ++k) d.key[k] = key;
        Check(d, "special", &tally);
        // The same among realistic neighbours.
        for (int j = 1; j < kRun; ++j) d.p[j] = RealisticPixel(rng);
        Check(d, "special among realistic", &tally);
      }
      Draw d;
      for (auto& p : d.p) p = {r, Bits(e)};
      for (int above = 1; above <= 3; ++above) {
        TieKeys(&d, above);
        Check(d, "special ties", &tally);
      }
    }
  }
}

// Ratios of either sign near zero, where 1.0 - (double)ratio stops being
// exact (|ratio| below 2^-29 for negative ratios, 2^-30 for positive ones),
// under keys whose units are 2^-52 to 1, where its rounding shows.
void TinyRatioDraws(uint64_t draws) {
  Tally tally;
  test::ParallelDraws(20261206, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      Draw d;
      for (auto& p : d.p) {
        const float m = static_cast<float>(1.0 + Uniform(rng));
        const float r = std::ldexp(m, -24 - static_cast<int>(rng() % 30));
        p = {rng() % 2 ? -r : r, Bits(0.0)};
      }
      for (int k = 0; k < 6; ++k) d.key[k] = 1024 + static_cast<int>(rng() % 52);
      Check(d, "tiny ratios", &tally);
    }
  });
}

// The pair arithmetic's stated bounds, directly: PairOfBits within 2^-47 and
// normalised, SquarePair within 4 u^2 of the square of a normalised pair,
// measured against long double products.
void PairBounds(uint64_t draws) {
  std::mt19937_64 rng(20261205);
  long double worst_square = 0, worst_bits = 0;
  for (uint64_t i = 0; i < draws; ++i) {
    const double v = std::ldexp(1.0 + Uniform(rng), static_cast<int>(rng() % 44) - 20);
    const uint64_t b = Bits(v);
    const FloatPair x = PairOfBits(b);
    const long double pair = static_cast<long double>(x.hi) + x.lo;
    const long double rel_bits = std::fabs(pair - v) / v;
    worst_bits = rel_bits > worst_bits ? rel_bits : worst_bits;
    S2C_CHECK(std::fabs(x.lo) <= std::ldexp(1.0f, std::ilogb(x.hi) - 24),
              "PairOfBits(%a) normalised", v);
    const FloatPair s = SquarePair(x);
    const long double in = pair;
    const long double rel_sq =
        std::fabs(static_cast<long double>(s.hi) + s.lo - in * in) / (in * in);
    worst_square = rel_sq > worst_square ? rel_sq : worst_square;
  }
  S2C_CHECK(worst_bits <= 0x1p-47L, "PairOfBits within 2^-47: %Lg", worst_bits);
  S2C_CHECK(worst_square <= 4 * 0x1p-48L * (1 + 0x1p-20L), "SquarePair within 4 u^2: %Lg",
            worst_square);
}

}  // namespace
}  // namespace s2c

int main() {
  // A draw is a run of 8 pixels, each also checked alone.
  const uint64_t draws = s2c::test::DrawsFromEnv(4000000) / 8;
  s2c::Tally realistic;
  s2c::RealisticDraws(draws, &realistic);
  s2c::Tally ties;
  s2c::TieDraws(draws / 2, &ties);
  s2c::SpecialDraws();
  s2c::TinyRatioDraws(draws / 4);
  s2c::PairBounds(draws);
  std::printf("realistic: %ld of %ld terms and %ld of %ld runs of 8 decided\n",
              realistic.terms_decided.load(), realistic.terms.load(), realistic.decided.load(),
              realistic.runs.load());
  std::printf("ties and neighbours: %ld of %ld terms decided, %ld exact ties among them\n",
              ties.terms_decided.load(), ties.terms.load(), ties.ties.load());
  S2C_CHECK(ties.ties.load() * 10 >= ties.terms.load(), "the tie draws hold ties");
  // Under keys that put the terms up to 2^50 units, most must still be
  // decided: only near-ties within the fourth powers' error (2^-42 of up to
  // 2^50 units) and the values out of range may not be.
  S2C_CHECK(realistic.terms_decided * 10 >= realistic.terms * 8,
            "at least 80%% of the realistic terms decided");
  return s2c::test::Finish();
}
