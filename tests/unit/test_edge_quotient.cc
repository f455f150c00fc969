// SPDX-License-Identifier: BSD-3-Clause
// The edge term's quotient from f32 arithmetic (src/steps/edge_quotient.h)
// against the x86-64 division: wherever EdgeQuotientInFloats decides, its
// double must be (1.0 + (double)a2) / (1.0 + (double)a1) as the hardware
// rounds it, bit for bit; outside its operands' range it must not decide;
// and on realistic operands it must decide nearly always, or the integer
// path would gain nothing. The kinds of operands: realistic |img - mu|,
// operands across the whole range (2^-29 to 2^24), quotients next to one on
// either side (the binade below one), equal operands, zeros, operands
// around the range's ends, and specials. About one draw in 3000 lies within
// the margin of a rounding boundary and is left undecided; the mutation
// test (soft_double.mutants) removes the margin, the third part, the range
// check and the binade below one, and each must fail here.
// A draw costs a few tens of nanoseconds, so the test takes 8 times
// S2C_SOFT_DRAWS (default 4 million): a margin too small shows on a few of
// 32 million draws.
#include <cmath>

#include "soft_double_check.h"
#include "steps/edge_quotient.h"

namespace s2c {
namespace {

using test::Bits;

enum Kind { kRealistic, kWholeRange, kNearOne, kSmallOperands, kKinds };
constexpr const char* kKindNames[] = {"realistic", "whole-range", "near-one", "small-operands"};

struct Tally {
  std::atomic<uint64_t> draws[kKinds] = {}, decided[kKinds] = {};
};

double Uniform(std::mt19937_64& rng) { return (rng() >> 11) * 0x1p-53; }
float LogUniform(std::mt19937_64& rng, int lo, int hi) {
  return static_cast<float>(std::exp2(lo + Uniform(rng) * (hi - lo)));
}

// The reference's quotient, by the hardware's add and divide.
uint64_t Reference(float a1, float a2) {
  return Bits(test::HwDiv(test::HwAdd(1.0, test::HwFromFloat(a2)),
                          test::HwAdd(1.0, test::HwFromFloat(a1))));
}

// Checks one pair; returns whether it was decided.
bool Check(float a1, float a2) {
  SoftDouble q;
  if (!EdgeQuotientInFloats(a1, a2, &q)) return false;
  const uint64_t got = SoftToBits(q), want = Reference(a1, a2);
  S2C_CHECK(got == want, "a1 %a, a2 %a: got 0x%016" PRIx64 ", want 0x%016" PRIx64, a1, a2, got,
            want);
  return true;
}

void Draw(std::mt19937_64& rng, Kind kind, float* a1, float* a2) {
  switch (kind) {
    case kRealistic:  // as EdgeTerm sees them: mostly small, often equal
      *a1 = static_cast<float>(std::pow(Uniform(rng), 2.0) * 0.3);
      *a2 = rng() % 8 == 0 ? *a1 : static_cast<float>(std::pow(Uniform(rng), 2.0) * 0.3);
      break;
    case kWholeRange:
      *a1 = LogUniform(rng, -29, 24);
      *a2 = LogUniform(rng, -29, 24);
      break;
    case kNearOne: {  // a few f32 steps apart, either way: q just above or below one
      *a1 = LogUniform(rng, -29, 24);
      *a2 = *a1;
      const int steps = 1 + static_cast<int>(rng() % 4);
      for (int i = 0; i < steps; ++i) *a2 = std::nextafter(*a2, (rng() & 1) ? 0.0f : 1e30f);
      if (*a2 < 0x1p-29f) *a2 = *a1;  // stays in range
      break;
    }
    default:  // one operand around and below 2^-29, where 1 + a stops being exact
      *a1 = LogUniform(rng, -29, 2);
      *a2 = LogUniform(rng, -40, -20);
      if (rng() & 1) std::swap(*a1, *a2);
      break;
  }
}

void TestDraws(uint64_t draws) {
  Tally tally;
  test::ParallelDraws(91, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) {
      const Kind kind = static_cast<Kind>(i % kKinds);
      float a1, a2;
      Draw(rng, kind, &a1, &a2);
      const bool in_range = EdgeOperandInRange(a1) && EdgeOperandInRange(a2);
      const bool decided = Check(a1, a2);
      S2C_CHECK(in_range || !decided, "decided out of range: a1 %a, a2 %a", a1, a2);
      if (kind == kSmallOperands && !in_range) continue;
      ++tally.draws[kind];
      tally.decided[kind] += decided;
    }
  });
  for (int k = 0; k < kKinds; ++k) {
    const double share = static_cast<double>(tally.decided[k]) / tally.draws[k];
    std::printf("%-15s %10" PRIu64 " draws, %.4f %% decided\n", kKindNames[k],
                static_cast<uint64_t>(tally.draws[k]), 100.0 * share);
    // The margin leaves about 2^-11.4 of the quotients undecided.
    S2C_CHECK(share > 0.999 && share < 1.0, "%s: %.6f of the draws decided", kKindNames[k],
              share);
  }
}

// The ends of the range and the values outside it.
void TestRange() {
  const float in[] = {0.0f, 0x1p-29f, 0x1.fffffep-29f, 0x1.000002p-29f, 0.5f, 1.0f,
                      0x1.fffffep23f};
  const float out[] = {0x1.fffffep-30f, 0x1p-126f, 0x1p-149f, 0x1p24f, 0x1p100f, INFINITY, NAN};
  for (float a : in) S2C_CHECK(EdgeOperandInRange(a), "%a is in range", a);
  for (float a : out) {
    S2C_CHECK(!EdgeOperandInRange(a), "%a is out of range", a);
    SoftDouble q;
    S2C_CHECK(!EdgeQuotientInFloats(a, 0.25f, &q) && !EdgeQuotientInFloats(0.25f, a, &q),
              "%a decided", a);
  }
  // Every pair of the in-range ends, zeros and equal operands among them.
  for (float a1 : in) {
    for (float a2 : in) S2C_CHECK(Check(a1, a2), "a1 %a, a2 %a undecided", a1, a2);
  }
}

}  // namespace
}  // namespace s2c

int main() {
  const uint64_t draws = 8 * s2c::test::DrawsFromEnv(4000000);
  s2c::TestRange();
  s2c::TestDraws(draws);
  return s2c::test::Finish();
}
