// SPDX-License-Identifier: BSD-3-Clause
// Host tests of the exact ordered sum's rule for non-negative terms
// (src/steps/ordered_sum.h): the one-term rule against the real double add, the
// fast rule against the exact one, and the whole pipeline in the kernels'
// layout (ordered_sum_model.h: chunks of 256 lanes x 4 terms, ordered lane
// tree, runs of chunks, the checked walk) against the plain loop under good
// and deliberately wrong plans. Every comparison is on bits. The same for
// terms clamped at zero (ClampedTerms, no negative-term check), with its
// guard: the metric's terms (FinishTerms) are never below zero.
// test_ordered_sum_signed.cc does the same for terms of either sign, and
// the mutation test (mutations.sh, ordered_sum.mutants) checks that faults
// injected into the headers make one of the two fail.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <vector>

#include "ordered_sum_fixtures.h"
#include "ordered_sum_model.h"
#include "steps/ordered_sum.h"
#include "steps/pixel_steps.h"

namespace s2c {
namespace {

using test::Bits;
using test::Double;
using test::DrawRunTerm;
using test::DrawSum;
using test::DrawTerm;

// ---- The one-term rule -----------------------------------------------------

void TestOneTermRule() {
  std::mt19937_64 rng(20261129);
  constexpr int kDraws = 2500000;
  int ties = 0, accepted = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double s = DrawSum(rng);
    const double x = DrawTerm(rng, s, i % 2 == 1);
    const uint64_t sb = Bits(s);
    const int key = BinadeKey(sb);
    const SumIncrement r = TermIncrement(x, key);
    const uint64_t m = sb - (static_cast<uint64_t>(key - 1) << 52);
    const uint64_t step = (m & 1) ? r.odd : r.even;
    const double want = s + x;
    const uint64_t wb = Bits(want);
    // Sound: an accepted step is the add. Complete: a result strictly inside
    // the binade is accepted (one that lands on the binade's end through
    // rounding in the next binade may be refused).
    const bool fits = m + step <= kSumMaxStep;
    const bool inside = wb - sb < kSumMaxStep - m;
    if (r.even != r.odd) ++ties;
    if (fits) {
      ++accepted;
      S2C_CHECK_SAME(Double(sb + step), want, "one-term rule: %.17g + %.17g in the binade", s,
                     x);
    } else {
      S2C_CHECK(!inside, "one-term rule: %.17g + %.17g = %.17g refused inside the binade", s, x,
                want);
    }
    uint64_t t = sb;
    const bool advanced = TryAdvance(&t, key, r);
    S2C_CHECK(advanced == fits && (!fits || t == wb),
              "TryAdvance on %.17g + %.17g: %s, got %.17g, want %.17g", s, x,
              advanced ? "advanced" : "refused", Double(t), want);
  }
  // NaN, inf and negative terms are never taken from an increment.
  const double odd_terms[] = {NAN, INFINITY, -INFINITY, -1.0, -1e-300};
  for (double x : odd_terms) {
    uint64_t t = Bits(1.0);
    S2C_CHECK(!TryAdvance(&t, BinadeKey(t), TermIncrement(x, BinadeKey(t))),
              "the term %.17g was taken from an increment (sum %.17g)", x, Double(t));
  }
  std::printf("one-term rule: %d draws, %d in binade, %d ties\n", kDraws, accepted, ties);
  S2C_CHECK(ties >= kDraws / 4, "one-term rule: %d ties drawn, want at least %d", ties,
            kDraws / 4);
}

// ---- The fast rule ----------------------------------------------------------

// RunIncrement<Rule> (the fast rule, falling back to the exact one) against
// the exact rule, bits equal, on runs of 1 to 16 terms under plans of every
// binade, and under the plans without one. `clamped`: every negative term
// drawn becomes its magnitude or -0.0, the terms ClampedTerms is for.
template <class Rule>
void CheckFastRule(const char* name, uint64_t seed, bool clamped) {
  std::mt19937_64 rng(seed);
  constexpr int kRuns = 1000000;
  int fast = 0, fast_ties = 0, fast_near_bound = 0, fast_unfit = 0;
  double x[16];
  for (int i = 0; i < kRuns; ++i) {
    const double s = DrawSum(rng);
    int plan = BinadeKey(Bits(s));
    if (i % 97 == 0) plan = (i % 2) ? kPlanZero : kPlanTermByTerm;
    const int n = 1 + static_cast<int>(rng() % 16);
    for (int j = 0; j < n; ++j) {
      x[j] = DrawRunTerm(rng, s);
      if (clamped && x[j] < 0.0) x[j] = (rng() % 2) ? -x[j] : -0.0;
    }
    const SumIncrement want = ExactRunIncrement(x, n, plan);
    const SumIncrement got = RunIncrement<Rule>(x, n, plan);
    const double scale = Rule::FastScale(plan);
    typename Rule::Fast f;
    typename Rule::FastShared shared;
    for (int j = 0; j < n; ++j) Rule::FastAdd(f, x[j], scale, shared);
    if (Rule::FastTaken(f, shared)) {
      ++fast;
      if (want.even > kSumMaxStep / 2) ++fast_near_bound;
    } else if (want.even == kSumUnfit) {
      ++fast_unfit;
    } else if (want.even != want.odd) {
      ++fast_ties;
    }
    S2C_CHECK(got.even == want.even && got.odd == want.odd,
              "%s == exact rule, plan %d, %d terms: got {%" PRIu64 ", %" PRIu64
              "}, want {%" PRIu64 ", %" PRIu64 "}",
              name, plan, n, got.even, got.odd, want.even, want.odd);
  }
  std::printf("%s: %d runs, %d taken whole (%d above 2^52), %d unfit, %d ties left to the "
              "exact rule\n", name, kRuns, fast, fast_near_bound, fast_unfit, fast_ties);
  // The draws must reach both sides of every check.
  S2C_CHECK(fast >= kRuns / 10, "%s: %d runs taken whole, want %d", name, fast, kRuns / 10);
  S2C_CHECK(fast_near_bound >= 1000, "%s: %d totals near 2^53, want 1000", name,
            fast_near_bound);
  S2C_CHECK(fast_ties >= 1000, "%s: %d ties, want 1000", name, fast_ties);
  S2C_CHECK(fast_unfit >= 1000, "%s: %d unfit runs, want 1000", name, fast_unfit);
}

void TestFastRule() {
  CheckFastRule<NonNegativeTerms>("fast rule", 20261130, false);
  CheckFastRule<ClampedTerms>("fast rule, terms clamped at zero", 20261201, true);
}

// ---- Terms clamped at zero ----------------------------------------------------

// The guard of ClampedTerms, which the CUDA backend's sums use: the metric's
// terms (FinishTerms, pixel_steps.h) are never below zero, whatever the
// prepared values. Ratios and edge values of every class (any bits, zeros of
// both signs, infinities, NaN, values around the clamps), drawn so that each
// clamp is reached many times.
void TestMetricTermsClamped() {
  std::mt19937_64 rng(20261202);
  const double kSpecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 4.9e-324, -4.9e-324};
  auto draw = [&](double near) {
    switch (rng() % 4) {
      case 0: return Double(rng());
      case 1: return kSpecial[rng() % std::size(kSpecial)];
      default: {  // near +- up to 1, at every scale down to 2^-40
        const double offset =
            std::ldexp(static_cast<double>(rng() >> 11), -53 - static_cast<int>(rng() % 40));
        return near + ((rng() % 2) ? offset : -offset);
      }
    }
  };
  int ssim_clamped = 0, artifact_clamped = 0, detail_clamped = 0;
  for (int i = 0; i < 1000000; ++i) {
    const float ratio = static_cast<float>(draw(1.0));  // 1 - ratio below zero above 1
    const double edge = draw(0.0);
    const PixelTerms t = FinishTerms({ratio, edge});
    for (int k = 0; k < 6; ++k) {
      S2C_CHECK(!(t.t[k] < 0.0), "FinishTerms({%.9g, %.17g}): term %d is %.17g, below zero",
                static_cast<double>(ratio), edge, k, t.t[k]);
    }
    ssim_clamped += 1.0 - static_cast<double>(ratio) < 0.0;
    artifact_clamped += edge < 0.0;
    detail_clamped += edge > 0.0;
  }
  std::printf("metric terms: 1000000 draws, clamps reached: ssim %d, artifact %d, detail %d\n",
              ssim_clamped, artifact_clamped, detail_clamped);
  S2C_CHECK(ssim_clamped >= 1000 && artifact_clamped >= 1000 && detail_clamped >= 1000,
            "metric terms: each clamp must be reached 1000 times");
}

// Runs with one increment from either parity compose by a plain sum,
// saturated at the end (the increments kernel's warps, 32 runs, and the
// walk's rounds, up to 256 lanes, do this).
void TestPlainTotal() {
  std::mt19937_64 rng(20261131);
  int unfit = 0;
  for (int i = 0; i < 200000; ++i) {
    const int n = 1 + static_cast<int>(rng() % (i % 2 ? 32 : kSumChunkLanes));
    SumIncrement chain = kSumNothing;
    uint64_t total = 0;
    for (int j = 0; j < n; ++j) {
      // Up to 2^(bits) units, unfit now and then.
      const int bits = static_cast<int>(rng() % 54);
      uint64_t r = rng() >> (64 - bits - 1) >> 1;
      if (rng() % 64 == 0) r = kSumUnfit;
      const SumIncrement a = {r, r};
      S2C_CHECK(SameFromEitherParity(a), "plain total: the pair {%" PRIu64 ", %" PRIu64
                "} is not the same from either parity", r, r);
      chain = Then(chain, a);
      total += r;
    }
    const SumIncrement plain = PlainTotal(total);
    unfit += chain.even == kSumUnfit;
    S2C_CHECK(plain.even == chain.even && plain.odd == chain.odd,
              "plain total of %d runs: {%" PRIu64 ", %" PRIu64 "}, ordered composition {%" PRIu64
              ", %" PRIu64 "}",
              n, plain.even, plain.odd, chain.even, chain.odd);
  }
  S2C_CHECK(unfit >= 1000 && unfit <= 199000, "plain total: %d unfit draws, want 1000 to 199000",
            unfit);
}

// ---- The pipeline in the kernels' layout -----------------------------------

double PairwiseSum(const double* x, size_t n) {
  if (n == 0) return 0.0;
  if (n == 1) return x[0];
  return PairwiseSum(x, n / 2) + PairwiseSum(x + n / 2, n - n / 2);
}

// The fixtures hold no negative term, so both rules take them all.
template <class Rule>
void CheckPipeline(const char* name) {
  int tbt = 0, chunks = 0;
  const int runs = test::CheckPipeline<Rule>(name, test::kAllTermKinds,
                                             std::size(test::kAllTermKinds), &tbt, &chunks);
  std::printf("%s: %d runs; with chunk-sum plans %d of %d chunks term by term\n", name, runs, tbt,
              chunks);
}

void TestPipeline() {
  CheckPipeline<NonNegativeTerms>("pipeline == loop");
  CheckPipeline<ClampedTerms>("pipeline == loop, terms clamped at zero");
}

// The fixtures must be able to see an ordering mistake: a pairwise tree
// differs from the loop on them.
void TestFixturesSeeOrder() {
  const test::TermKind kinds[] = {test::TermKind::kUniform, test::TermKind::kTies,
                                  test::TermKind::kSsimLike, test::TermKind::kWideRange,
                                  test::TermKind::kQuartic};
  for (test::TermKind kind : kinds) {
    const size_t n = 5 * 1024 + 333;
    const std::vector<double> x = test::MakeTerms(kind, n, 1);
    const double loop = test::LoopSum(x.data(), n);
    const double tree = PairwiseSum(x.data(), n);
    S2C_CHECK(Bits(loop) != Bits(tree), "fixture %s cannot see order: tree and loop give %.17g",
              test::TermKindName(kind), loop);
  }
}

// LoopAdd is the loop's add, NaN and inf included: x86-64's addsd with the
// sum as the first operand (C++ leaves NaN payloads to the compiler, which
// may swap the operands of a lone `a + b`; the loop keeps s in the
// destination register).
void TestLoopAdd() {
#if defined(__x86_64__)
  const double vals[] = {0.0, -0.0, 1.0, -2.5, INFINITY, -INFINITY, NAN,
                         Double(0x7FF0000000000123ull), Double(0xFFF8000000000456ull),
                         4.9e-324, 1e308};
  for (double a : vals) {
    for (double b : vals) {
      double want = a;
      asm("addsd %1, %0" : "+x"(want) : "x"(b));
      const double got = LoopAdd(a, b);
      S2C_CHECK_SAME(got, want, "LoopAdd(%.17g, %.17g) == addsd", a, b);
    }
  }
#else
  std::printf("LoopAdd against addsd: skipped (not x86-64)\n");
#endif
}

}  // namespace
}  // namespace s2c

int main() {
  s2c::TestOneTermRule();
  s2c::TestFastRule();
  s2c::TestMetricTermsClamped();
  s2c::TestPlainTotal();
  s2c::TestLoopAdd();
  s2c::TestFixturesSeeOrder();
  s2c::TestPipeline();
  return s2c::test::Finish();
}
