// SPDX-License-Identifier: BSD-3-Clause
// Host tests of the ordered sum's term-by-term adds without f64 arithmetic
// (src/steps/ordered_sum_bits.h): LoopAddBits against LoopAdd (which
// test_ordered_sum checks against addsd) on (sum, term) draws of both signs,
// every second one an exact tie, and on every pair of special values; then
// the loop of LoopAddBits, AddLaneBits and AddRestBits against the plain loop
// on every fixture of the ordered-sum tests. Every comparison is on bits.
// The mutation test (mutations.sh, soft_double.mutants) checks that a fault
// in LoopAddBits fails it.
#include <cinttypes>
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
    const int key = BinadeKey(sb);
    const bool advanced = TryAdvance(&t, key, TermIncrementBits(Bits(x), key));
    by_increment += advanced;
    // The step code gives the increment's sum, and fits exactly where it does.
    if (key >= 1) {
      const uint64_t m = sb - (static_cast<uint64_t>(key - 1) << 52);
      const uint64_t step = CodeStep(TermStepCode(Bits(x), key), m);
      const bool fits = m + step <= kSumMaxStep;
      S2C_CHECK(fits == advanced && (!fits || sb + step == t),
                "step code: %.17g + %.17g: fits %d, advanced %d", s, x, fits, advanced);
    }
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

// RunIncrementBits against the exact rule's composition (ExactRunIncrement)
// on runs of 1 to 8 terms near a drawn sum's last place, a tie one time in
// sixteen and the odd ones (test::DrawRunTerm), under the sum's binade and
// the ones next to it.
void TestRunIncrementBits() {
  std::mt19937_64 rng(20261202);
  constexpr int kRuns = 400000;
  int plain = 0;
  for (int i = 0; i < kRuns; ++i) {
    const double s = test::DrawSum(rng);
    const int n = 1 + static_cast<int>(rng() % kSumThreadTerms);
    double x[kSumThreadTerms];
    uint64_t xb[kSumThreadTerms];
    bool tie = false;
    const int plan = BinadeKey(Bits(s)) + static_cast<int>(rng() % 3) - 1;
    for (int j = 0; j < n; ++j) {
      x[j] = test::DrawRunTerm(rng, s);
      xb[j] = Bits(x[j]);
      const SumIncrement r = TermIncrementBits(xb[j], plan);
      tie = tie || r.even != r.odd;
    }
    plain += !tie;
    const SumIncrement want = ExactRunIncrement<NonNegativeTerms>(x, n, plan);
    const SumIncrement got = RunIncrementBits(xb, n, plan);
    S2C_CHECK(got.even == want.even && got.odd == want.odd,
              "RunIncrementBits: %d terms under key %d: {%llu, %llu}, want {%llu, %llu}", n, plan,
              static_cast<unsigned long long>(got.even), static_cast<unsigned long long>(got.odd),
              static_cast<unsigned long long>(want.even),
              static_cast<unsigned long long>(want.odd));
  }
  std::printf("RunIncrementBits: %d runs, %d without a tie (plain totals)\n", kRuns, plain);
  S2C_CHECK(plain > kRuns / 4 && plain < kRuns - kRuns / 8,
            "RunIncrementBits: both ways exercised (%d of %d plain)", plain, kRuns);
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

// The walk's rest by step codes (AddRestByCodes, and its loop written out to
// count how often the codes are formed again) on every fixture, against the
// loop of LoopAddBits: all terms
// as one rest from zero, and chunk by chunk with each chunk's first terms
// by LoopAddBits and the rest by codes from a position that varies, so that
// rests start at any sum.
void TestRestByCodes() {
  std::vector<test::TermKind> kinds(std::begin(test::kAllTermKinds), std::end(test::kAllTermKinds));
  kinds.insert(kinds.end(), std::begin(test::kSignedTermKinds), std::end(test::kSignedTermKinds));
  int sums = 0;
  uint64_t rests = 0, recodes = 0;
  for (test::TermKind kind : kinds) {
    for (size_t n : test::kFixtureLengths) {
      const std::vector<double> x = test::MakeTerms(kind, n, 1);
      std::vector<uint64_t> xb(n), code(n);
      for (size_t i = 0; i < n; ++i) xb[i] = Bits(x[i]);
      // The loop of LoopAddBits, which TestFixtures checks against the
      // CPU's loop (the bits compared here, so that no compiler's choice of
      // operand order for a NaN + NaN enters).
      uint64_t loop = 0;
      for (size_t i = 0; i < n; ++i) loop = LoopAddBits(loop, xb[i]);
      const double want = Double(loop);
      const char* name = test::TermKindName(kind);
      const uint64_t whole = AddRestByCodes(0, xb.data(), code.data(), static_cast<int>(n), 0);
      S2C_CHECK_SAME(Double(whole), want, "AddRestByCodes: %s, %zu terms", name, n);
      uint64_t s = 0;
      for (size_t c = 0; c < n; c += kSumChunkTerms) {
        const int nterms = static_cast<int>(n - c < kSumChunkTerms ? n - c : kSumChunkTerms);
        int first = static_cast<int>((c / kSumChunkTerms * 97) % (kSumChunkTerms / 2));
        if (first > nterms) first = nterms;
        for (int i = 0; i < first; ++i) s = LoopAddBits(s, xb[c + i]);
        ++rests;
        while (first < nterms) {
          const int key = BinadeKey(s);
          if (key >= 1) {
            for (int i = first; i < nterms; ++i) code[c + i] = TermStepCode(xb[c + i], key);
          }
          s = AddRestCoded(s, &xb[c], &code[c], key, nterms, &first);
          recodes += first < nterms;
        }
      }
      S2C_CHECK_SAME(Double(s), want, "AddRestCoded by chunks: %s, %zu terms", name, n);
      ++sums;
    }
  }
  std::printf("rest by step codes: %d sums, whole and by %" PRIu64 " chunk rests, codes formed again "
              "%" PRIu64 " times\n", sums, rests, recodes);
  S2C_CHECK(recodes > 0, "the rests' codes are formed again somewhere");
}

}  // namespace
}  // namespace s2c

int main() {
  s2c::TestLoopAddBits();
  s2c::TestRunIncrementBits();
  s2c::TestFixtures();
  s2c::TestRestByCodes();
  return s2c::test::Finish();
}
