// SPDX-License-Identifier: BSD-3-Clause
// Host tests of the ordered sum's term-by-term adds without f64 arithmetic
// (src/steps/ordered_sum_bits.h): LoopAddBits against LoopAdd (which
// test_ordered_sum checks against addsd) on (sum, term) draws of both signs,
// every second one an exact tie, and on every pair of special values; then
// the loop of LoopAddBits, AddLaneBits and AddRestBits against the plain loop
// on every fixture of the ordered-sum tests. Every comparison is on bits.
// The mutation test (mutations.sh, soft_double.mutants) checks that a fault
// in LoopAddBits fails it.
#include <cstdio>
#include <iterator>
#include <vector>

#include "ordered_sum_fixtures.h"
#include "ordered_sum_model.h"
#include "steps/ordered_sum_bits.h"

namespace s2c {
namespace {

using test::Bits;
using test::Double;

double MaybeNegated(std::mt19937_64& rng, double x) { return rng() % 4 == 0 ? -x : x; }

void TestLoopAddBits() {
  std::mt19937_64 rng(20261201);
  constexpr int kDraws = 2500000;
  int by_increment = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double s = MaybeNegated(rng, test::DrawSum(rng));
    const double x = MaybeNegated(rng, test::DrawTerm(rng, s, i % 2 == 1));
    const uint64_t sb = Bits(s);
    const double want = LoopAdd(s, x);
    const uint64_t got = LoopAddBits(sb, Bits(x));
    if (got != Bits(want)) S2C_CHECK_SAME(Double(got), want, "LoopAddBits == LoopAdd: %.17g + %.17g", s, x);
    uint64_t t = sb;
    by_increment += TryAdvance(&t, BinadeKey(sb), TermIncrementBits(Bits(x), BinadeKey(sb)));
  }
  const double specials[] = {0.0, -0.0, 1.0, -2.5, INFINITY, -INFINITY, NAN, 4.9e-324, -4.9e-324,
                             1e308, 0x1.fffffffffffffp1023, 0x1p-1022,
                             Double(0x7FF0000000000123ull), Double(0xFFF8000000000456ull)};
  for (double a : specials) {
    for (double b : specials) {
      S2C_CHECK_SAME(Double(LoopAddBits(Bits(a), Bits(b))), LoopAdd(a, b),
                     "LoopAddBits == LoopAdd on specials %.17g + %.17g", a, b);
    }
  }
  std::printf("LoopAddBits: %d draws, %d by the increment, the rest by the soft add\n", kDraws,
              by_increment);
  // Both ways must be exercised.
  S2C_CHECK(by_increment >= kDraws / 4 && by_increment <= kDraws * 3 / 4,
            "LoopAddBits: %d of %d draws by the increment, want about half", by_increment, kDraws);
}

// Each fixture as the loop of LoopAddBits, as chunks of lanes (AddLaneBits)
// and as one rest (AddRestBits), against LoopSum.
void TestFixtures() {
  std::vector<test::TermKind> kinds(std::begin(test::kAllTermKinds), std::end(test::kAllTermKinds));
  kinds.insert(kinds.end(), std::begin(test::kSignedTermKinds), std::end(test::kSignedTermKinds));
  int sums = 0;
  for (test::TermKind kind : kinds) {
    for (size_t n : test::kFixtureLengths) {
      const std::vector<double> x = test::MakeTerms(kind, n, 1);
      std::vector<uint64_t> xb(n);
      for (size_t i = 0; i < n; ++i) xb[i] = Bits(x[i]);
      const double want = test::LoopSum(x.data(), n);
      uint64_t loop = 0;
      for (size_t i = 0; i < n; ++i) loop = LoopAddBits(loop, xb[i]);
      uint64_t lanes = 0;
      for (size_t c = 0; c < n; c += kSumChunkTerms) {
        const int nterms = static_cast<int>(n - c < kSumChunkTerms ? n - c : kSumChunkTerms);
        for (int lane = 0; lane < kSumChunkLanes; ++lane) {
          lanes = AddLaneBits(lanes, &xb[c], nterms, lane);
        }
      }
      const uint64_t rest = AddRestBits(0, xb.data(), static_cast<int>(n), 0);
      const char* name = test::TermKindName(kind);
      S2C_CHECK_SAME(Double(loop), want, "LoopAddBits loop: %s, %zu terms", name, n);
      S2C_CHECK_SAME(Double(lanes), want, "AddLaneBits: %s, %zu terms", name, n);
      S2C_CHECK_SAME(Double(rest), want, "AddRestBits: %s, %zu terms", name, n);
      ++sums;
    }
  }
  std::printf("fixtures: %d sums, each by the three adds\n", sums);
}

}  // namespace
}  // namespace s2c

int main() {
  s2c::TestLoopAddBits();
  s2c::TestFixtures();
  return s2c::test::Finish();
}
