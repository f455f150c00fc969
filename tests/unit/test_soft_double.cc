// SPDX-License-Identifier: BSD-3-Clause
// The soft double (src/steps/soft_double.h) against the x86-64 instructions,
// bit for bit: add, sub, mul and div on pairs of operands from every class
// below, the conversions from float and from int64, and the bit patterns'
// round trip, negation, fabs and the comparison with zero.
// S2C_SOFT_DRAWS sets the number of random pairs (default 8 million; the
// "slow" suite runs 10^8 and every float). The mutation test (mutations.sh,
// soft_double.mutants) checks that faults injected into the header make this
// test or test_soft_terms fail.
#include <algorithm>

#include "soft_double_check.h"
#include "soft_double_draws.h"
#include "steps/soft_double.h"

namespace s2c {
namespace {

using test::AddError;
using test::Bits;
using test::Double;
using test::DrawDouble;
using test::DrawPair;
using test::IsTie;
using test::PairKind;

void CheckOps(double a, double b) {
  const SoftDouble sa = SoftFromBits(Bits(a)), sb = SoftFromBits(Bits(b));
  struct {
    const char* name;
    uint64_t got, want;
  } ops[] = {{"add", SoftToBits(sa + sb), Bits(test::HwAdd(a, b))},
             {"sub", SoftToBits(sa - sb), Bits(test::HwSub(a, b))},
             {"mul", SoftToBits(sa * sb), Bits(test::HwMul(a, b))},
             {"div", SoftToBits(sa / sb), Bits(test::HwDiv(a, b))},
             {"square", SoftToBits(SoftSquare(sa)), Bits(test::HwMul(a, a))}};
  for (const auto& op : ops) {
    S2C_CHECK_SAME(op.got, op.want, "%s: a=0x%016" PRIx64 " (%a) b=0x%016" PRIx64 " (%a)", op.name,
                   Bits(a), a, Bits(b), b);
  }
}

void TestOperations(uint64_t draws) {
  std::atomic<uint64_t> add_ties{0}, mul_ties{0}, sub_ties{0};
  for (int kind = 0; kind < test::kPairKinds; ++kind) {
    auto block = [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
      uint64_t ties[3] = {0, 0, 0};
      for (uint64_t i = 0; i < n; ++i) {
        double a = 0.0, b = 0.0;
        DrawPair(rng, static_cast<PairKind>(kind), &a, &b);
        CheckOps(a, b);
        if (kind == test::kAddTies) {
          const double s = a + b, d = a - b;
          ties[0] += IsTie(s, AddError(a, b, s));
          ties[1] += IsTie(d, AddError(a, -b, d));
        } else if (kind == test::kMulTies) {
          const double p = a * b;
          ties[2] += IsTie(p, std::fma(a, b, -p));
        }
      }
      add_ties += ties[0];
      sub_ties += ties[1];
      mul_ties += ties[2];
    };
    test::ParallelDraws(1000 + kind, draws / test::kPairKinds, block);
  }
  // Squares at the ends of SoftSquare's direct range (significand exponents
  // -563 and 458) and past them, with the extreme significands.
  for (int e : {-1100, -565, -564, -563, -562, 457, 458, 459, 460}) {
    for (uint64_t sig : {kSoftHidden, kSoftHidden + 1, 2 * kSoftHidden - 1, uint64_t{0x16A09E667F3BCD}}) {
      const double x = std::ldexp(static_cast<double>(sig), e);
      CheckOps(x, x);
      CheckOps(-x, -x);
    }
  }
  // Every special value against every other one.
  for (uint64_t x : test::kSpecialDoubles) {
    for (uint64_t y : test::kSpecialDoubles) CheckOps(Double(x), Double(y));
  }
  const uint64_t per_kind = draws / test::kPairKinds;
  std::printf("operations: %" PRIu64 " pairs of each of %d kinds", per_kind, test::kPairKinds);
  for (const char* name : test::kPairKindNames) std::printf(" %s", name);
  std::printf("; exact ties: add %" PRIu64 ", sub %" PRIu64 ", mul %" PRIu64 "\n", add_ties.load(),
              sub_ties.load(), mul_ties.load());
  // The tie classes must really hold ties (a quarter of the add-ties draws are
  // nudged off, and half of the products have 55 bits).
  S2C_CHECK(add_ties + sub_ties >= per_kind / 2, "the add-ties draws give ties");
  S2C_CHECK(mul_ties >= per_kind / 8, "the mul-ties draws give ties");
}

// ---- The division's quotient ------------------------------------------------------

// SoftDiv's quotient against the 128-bit division: the estimate never above
// floor(a * 2^62 / b) and at most 3 below it (docs/soft-double.md,
// "Division"), the corrected quotient and its remainder exact, on random significands, significands near the ends of
// [2^52, 2^53) and near each other, and every power of two's neighbours.
// Prints how far below the estimates fell, so that the correction's cost
// is seen.
void TestQuotientEstimate(uint64_t draws) {
  constexpr int kBound = 3;
  std::atomic<uint64_t> below[kBound + 2] = {};
  auto check = [&](uint64_t a, uint64_t b) {
    const unsigned __int128 n = static_cast<unsigned __int128>(a) << 62;
    const uint64_t want = static_cast<uint64_t>(n / b), want_rem = static_cast<uint64_t>(n % b);
    uint64_t rem;
    const uint64_t q = SoftQuotient(a, b, &rem);
    S2C_CHECK(q == want && rem == want_rem,
              "quotient: got 0x%016" PRIx64 " rem 0x%016" PRIx64 ", want 0x%016" PRIx64
              " rem 0x%016" PRIx64 "; a=0x%014" PRIx64 " b=0x%014" PRIx64,
              q, rem, want, want_rem, a, b);
    const uint64_t got = SoftQuotientEstimate(a, b);
    const uint64_t gap = want - got;  // wraps past the bound where got > want
    ++below[gap <= kBound ? gap : kBound + 1];
    S2C_CHECK(gap <= kBound,
              "quotient estimate: got 0x%016" PRIx64 ", want 0x%016" PRIx64 "; a=0x%014" PRIx64
              " b=0x%014" PRIx64,
              got, want, a, b);
  };
  const uint64_t lo = kSoftHidden, hi = 2 * kSoftHidden - 1;
  test::ParallelDraws(6000, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t a = lo | (rng() & kSoftFraction);
      uint64_t b = lo | (rng() & kSoftFraction);
      if (i % 4 == 1) b = a;
      if (i % 4 == 2) b = std::min(hi, std::max(lo, a + (rng() % 64) - 32));
      check(a, b);
    }
  });
  for (uint64_t a : {lo, lo + 1, lo + 2, hi - 1, hi}) {
    for (uint64_t b : {lo, lo + 1, lo + 2, hi - 1, hi}) check(a, b);
  }
  for (int k = 0; k < 53; ++k) {
    for (uint64_t b : {lo | (uint64_t{1} << k), (lo | (uint64_t{1} << k)) - 1,
                       hi - (uint64_t{1} << k) + 1}) {
      if (b >= lo && b <= hi) {
        check(lo, b);
        check(hi, b);
        check(b, b);
      }
    }
  }
  std::printf("quotient estimate: %" PRIu64 " pairs, below by 0, 1, 2, 3: %" PRIu64 " %" PRIu64
              " %" PRIu64 " %" PRIu64 "\n",
              draws, below[0].load(), below[1].load(), below[2].load(), below[3].load());
}

// ---- Conversions and sign operations --------------------------------------------

void CheckFromFloat(uint32_t fb) {
  const float f = test::Float(fb);
  S2C_CHECK_SAME(SoftToBits(SoftFromFloat(f)), Bits(test::HwFromFloat(f)), "f=0x%08" PRIx32, fb);
}

// Every float where `all_floats`, else random bit patterns and the specials.
void TestFromFloat(uint64_t draws, bool all_floats) {
  if (all_floats) {
    test::ParallelDraws(0, uint64_t{1} << 32, [](std::mt19937_64&, uint64_t first, uint64_t n) {
      for (uint64_t i = first; i < first + n; ++i) CheckFromFloat(static_cast<uint32_t>(i));
    });
    std::printf("from float: all 2^32 bit patterns\n");
    return;
  }
  test::ParallelDraws(2000, draws, [](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) CheckFromFloat(static_cast<uint32_t>(rng()));
  });
  for (uint32_t e : {0u, 1u, 0xFEu, 0xFFu}) {  // zeros, subnormals, extremes, inf and NaN
    for (uint32_t f : {0u, 1u, 2u, 0x3FFFFFu, 0x400000u, 0x400001u, 0x7FFFFFu}) {
      CheckFromFloat((e << 23) | f);
      CheckFromFloat(0x80000000u | (e << 23) | f);
    }
  }
  std::printf("from float: %" PRIu64 " random bit patterns and the specials\n", draws);
}

// int64 to double: every bit length and sign, values of 54 to 63 bits whose
// bits below the 53rd are exactly half a unit (ties) or next to it, and the
// extremes.
void TestFromInt64(uint64_t draws) {
  auto check = [](int64_t v) {
    S2C_CHECK_SAME(SoftToBits(SoftFromInt64(v)), Bits(test::HwFromInt64(v)), "v=%" PRId64, v);
  };
  test::ParallelDraws(4000, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      const int bits = 1 + static_cast<int>(rng() % 63);
      uint64_t v = rng() >> (64 - bits);
      if (i % 2 && bits >= 54) {
        const int below = bits - 53;
        v = ((v >> below) << below) | (uint64_t{1} << (below - 1));
        if (rng() % 4 == 0) v += (rng() & 1) ? 1 : -1;
      }
      check((rng() & 1) ? -static_cast<int64_t>(v) : static_cast<int64_t>(v));
    }
  });
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, INT64_MAX, INT64_MIN, INT64_MIN + 1,
                    (int64_t{1} << 53) + 1, -(int64_t{1} << 53) - 1}) {
    check(v);
  }
  std::printf("from int64: %" PRIu64 " values\n", draws);
}

// The bit patterns' round trip, -x, fabs(x) and x < 0.0 on any bits.
void TestSignAndBits(uint64_t draws) {
  auto check = [](uint64_t b) {
    const double x = Double(b);
    const SoftDouble s = SoftFromBits(b);
    S2C_CHECK_SAME(SoftToBits(s), b, "bits round trip: x=0x%016" PRIx64, b);
    S2C_CHECK_SAME(SoftToBits(-s), Bits(-x), "neg: x=0x%016" PRIx64, b);
    S2C_CHECK_SAME(SoftToBits(SoftAbs(s)), Bits(std::fabs(x)), "fabs: x=0x%016" PRIx64, b);
    S2C_CHECK(SoftBelowZero(s) == (x < 0.0), "x=0x%016" PRIx64, b);
  };
  test::ParallelDraws(5000, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) check(rng());
  });
  for (uint64_t b : test::kSpecialDoubles) check(b);
  std::printf("bits, neg, fabs, x < 0: %" PRIu64 " bit patterns and the specials\n", draws);
}

}  // namespace
}  // namespace s2c

int main() {
  const uint64_t draws = s2c::test::DrawsFromEnv(8000000);
  const bool slow = draws >= 100000000;
  s2c::TestOperations(draws);
  s2c::TestQuotientEstimate(draws / 8);
  s2c::TestFromFloat(draws / 8, slow);
  s2c::TestFromInt64(draws / 8);
  s2c::TestSignAndBits(draws / 8);
  return s2c::test::Finish();
}
