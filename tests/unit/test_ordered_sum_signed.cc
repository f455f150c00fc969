// SPDX-License-Identifier: BSD-3-Clause
// Host tests of the exact ordered sum of terms of either sign
// (src/steps/ordered_sum_signed.h): the one-term rule against the real double add
// on sums and terms of both signs, composed runs against the loop (sums that
// fall out of their binade and come back must be refused), the fast rule
// against the exact one, and the whole pipeline in the kernels' layout
// against the plain loop on mixed-sign fixtures (cancellation to exactly
// zero, sums crossing zero, binade drops, ties under subtraction) under good
// and deliberately wrong plans. Every comparison is on bits.
// The mutation test (mutations.sh, ordered_sum.mutants) checks that faults
// injected into the headers make this test or test_ordered_sum fail.
#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <vector>

#include "ordered_sum_fixtures.h"
#include "ordered_sum_model.h"
#include "steps/ordered_sum_signed.h"

namespace s2c {
namespace {

using test::Bits;
using test::Double;

double Negated(std::mt19937_64& rng, double x) { return (rng() & 1) ? -x : x; }

// The magnitude of s in units of its binade's last place, and that binade's
// first value in the same units.
uint64_t Units(uint64_t bits, int key) {
  return (bits & ~kSumSignBit) - (static_cast<uint64_t>(key - 1) << 52);
}
uint64_t FirstUnits(int key) { return key > 1 ? kSumMaxStep / 2 : 0; }

// Sound: an accepted step is the add. Complete: a step whose result keeps
// the sum's sign and binade, more than one unit above its first value and
// below its end, is accepted.
void TestOneTermRule() {
  std::mt19937_64 rng(20261201);
  constexpr int kDraws = 2500000;
  int accepted = 0, toward_zero = 0, ties = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double s = Negated(rng, test::DrawSum(rng));
    const double x = Negated(rng, test::DrawTerm(rng, s, i % 2 == 1));
    const uint64_t sb = Bits(s);
    const int key = SignedKey(sb);
    if (key == kPlanTermByTerm) continue;  // -0.0
    const SignedIncrement r = SignedTermIncrement(x, key);
    const double want = s + x;
    const uint64_t wb = Bits(want);
    uint64_t t = sb;
    const bool taken = TryAdvance(&t, key, r);
    if (taken) {
      ++accepted;
      toward_zero += r.lo != kSumNoReach;
      ties += r.even != r.odd;
      S2C_CHECK_SAME(Double(t), want, "signed one-term rule: %.17g + %.17g taken", s, x);
    } else if (SignedKey(wb) == key) {
      const int k = key < 0 ? -key : key;
      const uint64_t m = Units(wb, k);
      S2C_CHECK(!(m > FirstUnits(k) + 1 && m < kSumMaxStep),
                "signed one-term rule: %.17g + %.17g = %.17g refused inside the binade", s, x,
                want);
    }
  }
  std::printf("signed one-term rule: %d draws, %d taken (%d toward zero, %d ties)\n", kDraws,
              accepted, toward_zero, ties);
  S2C_CHECK(toward_zero >= kDraws / 10, "signed one-term rule: %d steps toward zero, want %d",
            toward_zero, kDraws / 10);
  S2C_CHECK(ties >= kDraws / 10, "signed one-term rule: %d ties, want %d", ties, kDraws / 10);
  // inf and NaN terms are never taken; zeros keep any sum; -0.0 is in no
  // binade.
  const double odd_terms[] = {NAN, INFINITY, -INFINITY};
  for (double x : odd_terms) {
    for (double s : {1.0, -1.0}) {
      uint64_t t = Bits(s);
      S2C_CHECK(!TryAdvance(&t, SignedKey(t), SignedTermIncrement(x, SignedKey(t))),
                "the term %.17g was taken from a signed increment (sum %.17g)", x, s);
    }
  }
  for (double x : {0.0, -0.0}) {
    uint64_t t = Bits(-3.0);
    const bool taken = TryAdvance(&t, SignedKey(t), SignedTermIncrement(x, SignedKey(t)));
    S2C_CHECK(taken && t == Bits(-3.0), "the term %g on -3.0: %s, sum %.17g", x,
              taken ? "taken" : "refused", Double(t));
  }
  S2C_CHECK(SignedKey(Bits(-0.0)) == kPlanTermByTerm, "-0.0 has the key %d",
            SignedKey(Bits(-0.0)));
}

// A composed run is taken only if it is the loop: runs of 1 to 24 terms of
// either sign near the sum's last place, some large enough to leave the
// binade and come back (which the bounds must refuse: the steps outside it
// round on another grid).
void TestComposedRuns() {
  std::mt19937_64 rng(20261202);
  constexpr int kRuns = 400000;
  int taken = 0, left_and_back = 0;
  double x[24];
  for (int i = 0; i < kRuns; ++i) {
    const double s = Negated(rng, test::DrawSum(rng));
    const uint64_t sb = Bits(s);
    const int key = SignedKey(sb);
    if (key == kPlanTermByTerm) continue;
    const int n = 1 + static_cast<int>(rng() % 24);
    const double magnitude = std::fabs(s);
    for (int j = 0; j < n; ++j) {
      // Mostly near the last place; one run in four with terms about a
      // quarter of the sum, so that partial sums cross the binade's edges.
      x[j] = (i % 4 == 0) ? Negated(rng, magnitude * 0.25 * (1 + (rng() % 1000) / 1000.0))
                          : Negated(rng, test::DrawTerm(rng, s, rng() % 8 == 0));
    }
    double loop = s;
    bool stays = true;
    for (int j = 0; j < n; ++j) {
      loop += x[j];
      stays = stays && SignedKey(Bits(loop)) == key;
    }
    const SignedIncrement r = ExactRunIncrement<SignedTerms>(x, n, key);
    uint64_t t = sb;
    if (TryAdvance(&t, key, r)) {
      ++taken;
      S2C_CHECK_SAME(Double(t), loop, "composed signed run of %d terms on %.17g, taken", n, s);
    } else if (!stays && SignedKey(Bits(loop)) == key) {
      ++left_and_back;
    }
  }
  std::printf("composed signed runs: %d runs, %d taken, %d left the binade and came back\n",
              kRuns, taken, left_and_back);
  S2C_CHECK(taken >= kRuns / 4, "composed signed runs: %d taken, want %d", taken, kRuns / 4);
  S2C_CHECK(left_and_back >= 1000, "composed signed runs: %d left and came back, want 1000",
            left_and_back);
}

// RunIncrement<SignedTerms> (the fast rule, falling back to the exact one)
// against the exact rule, all four fields equal.
void TestFastRule() {
  std::mt19937_64 rng(20261203);
  constexpr int kRuns = 1000000;
  int fast = 0, ties = 0, unfit = 0, mixed = 0;
  double x[16];
  for (int i = 0; i < kRuns; ++i) {
    const double s = Negated(rng, test::DrawSum(rng));
    int plan = SignedKey(Bits(s));
    if (i % 97 == 0) plan = (i % 2) ? kPlanZero : kPlanTermByTerm;
    const int n = 1 + static_cast<int>(rng() % 16);
    for (int j = 0; j < n; ++j) x[j] = Negated(rng, test::DrawRunTerm(rng, s));
    const SignedIncrement want = ExactRunIncrement<SignedTerms>(x, n, plan);
    const SignedIncrement got = RunIncrement<SignedTerms>(x, n, plan);
    SignedTerms::Fast f;
    SignedTerms::FastShared shared;
    const double scale = SignedTerms::FastScale(plan);
    for (int j = 0; j < n; ++j) SignedTerms::FastAdd(f, x[j], scale, shared);
    if (SignedTerms::FastTaken(f, shared)) {
      ++fast;
      mixed += want.hi != -kSumNoReach && want.lo != kSumNoReach;
    } else if (want.hi == kSumNoReach) {
      ++unfit;
    } else if (want.even != want.odd) {
      ++ties;
    }
    S2C_CHECK(got.even == want.even && got.odd == want.odd && got.hi == want.hi &&
                  got.lo == want.lo,
              "signed fast rule == exact rule, plan %d, %d terms: even %" PRId64 "/%" PRId64
              ", odd %" PRId64 "/%" PRId64 ", hi %" PRId64 "/%" PRId64 ", lo %" PRId64
              "/%" PRId64 " (got/want)",
              plan, n, got.even, want.even, got.odd, want.odd, got.hi, want.hi, got.lo, want.lo);
  }
  std::printf("signed fast rule: %d runs, %d taken whole (%d of both signs), %d unfit, %d ties\n",
              kRuns, fast, mixed, unfit, ties);
  S2C_CHECK(mixed >= kRuns / 20, "signed fast rule: %d runs of both signs taken, want %d", mixed,
            kRuns / 20);
  S2C_CHECK(ties >= 1000, "signed fast rule: %d ties, want 1000", ties);
  S2C_CHECK(unfit >= 1000, "signed fast rule: %d unfit runs, want 1000", unfit);
}

void TestPipeline() {
  std::vector<test::TermKind> kinds(std::begin(test::kAllTermKinds), std::end(test::kAllTermKinds));
  kinds.insert(kinds.end(), std::begin(test::kSignedTermKinds), std::end(test::kSignedTermKinds));
  int tbt = 0, chunks = 0;
  const int runs = test::CheckPipeline<SignedTerms>("signed pipeline == loop", kinds.data(),
                                                    kinds.size(), &tbt, &chunks);
  std::printf("signed pipeline: %d runs; with chunk-sum plans %d of %d chunks term by term\n",
              runs, tbt, chunks);
}

// The signed fixtures must be able to see an ordering mistake (a reversed
// loop differs), except cancel-to-zero, whose sum is exactly zero either way.
void TestFixturesSeeOrder() {
  for (test::TermKind kind : test::kSignedTermKinds) {
    if (kind == test::TermKind::kCancelToZero) continue;
    const size_t n = 5 * 1024 + 333;
    const std::vector<double> x = test::MakeTerms(kind, n, 1);
    const double loop = test::LoopSum(x.data(), n);
    double reversed = 0.0;
    for (size_t i = n; i-- > 0;) reversed += x[i];
    S2C_CHECK(Bits(loop) != Bits(reversed),
              "signed fixture %s cannot see order: reversed and loop give %.17g",
              test::TermKindName(kind), loop);
  }
  const std::vector<double> c = test::MakeTerms(test::TermKind::kCancelToZero, 5 * 1024 + 333, 1);
  S2C_CHECK_SAME(test::LoopSum(c.data(), c.size()), 0.0, "the cancel-to-zero fixture's sum");
}

}  // namespace
}  // namespace s2c

int main() {
  s2c::TestOneTermRule();
  s2c::TestComposedRuns();
  s2c::TestFastRule();
  s2c::TestFixturesSeeOrder();
  s2c::TestPipeline();
  return s2c::test::Finish();
}
