// SPDX-License-Identifier: BSD-3-Clause
// Host tests of the exact ordered sum (src/ordered_sum.h): the one-term rule
// against the real double add, the fast rule against the exact one, and the
// whole pipeline in the kernels' layout (chunks of 256 lanes x 4 terms,
// ordered lane tree, runs of chunks, the checked walk) against the plain loop
// under good and deliberately wrong plans. Every comparison is on bits. ordered_sum_mutations.sh checks that
// faults injected into the header make this test fail.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <vector>

#include "ordered_sum.h"
#include "ordered_sum_fixtures.h"

namespace s2c {
namespace {

using test::FromBits;
using test::ToBits;

int g_failures = 0;

void Fail(const char* what, const char* detail, double got, double want) {
  if (++g_failures <= 20) {
    std::fprintf(stderr, "FAIL %s (%s): got %.17g (0x%016" PRIx64 "), want %.17g (0x%016" PRIx64 ")\n",
                 what, detail, got, ToBits(got), want, ToBits(want));
  }
}

// ---- The one-term rule -----------------------------------------------------

// A term near the sum's last place; odd draws are forced to an exact tie.
double DrawTerm(std::mt19937_64& rng, double s, bool tie) {
  const int key = BinadeKey(ToBits(s));
  const double ulp = std::ldexp(1.0, key - 1075);  // last place of s's binade
  switch (tie ? 7 : rng() % 8) {
    case 0: return FromBits(rng() & ((uint64_t{1} << 52) - 1));  // subnormal or zero
    case 1: return (rng() % 3 == 0) ? 0.0 : std::ldexp(1.0, static_cast<int>(rng() % 40) - 20) * s;
    default: break;
  }
  // q + 1/2 units (tie) or q + a random fraction, q spread over 2^0..2^54.
  const int bits = static_cast<int>(rng() % 55);
  const uint64_t q = bits ? rng() >> (64 - bits) : 0;
  if (tie) return (static_cast<double>(q) + 0.5) * ulp;  // exact: q < 2^52 mostly
  const double frac = static_cast<double>(rng() >> 11) / 9007199254740992.0;
  return (static_cast<double>(q) + frac) * ulp;
}

double DrawSum(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return FromBits(rng() & ((uint64_t{1} << 52) - 1));  // subnormal
    case 1: return 0.0;
    case 2: return 1.0 + static_cast<double>(rng() >> 12) / 4503599627370496.0;  // [1, 2)
    case 3: return std::nextafter(std::ldexp(1.0, static_cast<int>(rng() % 40)), 0.0);  // edge
    default: {
      const int e = static_cast<int>(rng() % 2000) - 1000;
      return std::ldexp(1.0 + static_cast<double>(rng() >> 12) / 4503599627370496.0, e);
    }
  }
}

void TestOneTermRule() {
  std::mt19937_64 rng(20261129);
  constexpr int kDraws = 2500000;
  int ties = 0, accepted = 0;
  for (int i = 0; i < kDraws; ++i) {
    const double s = DrawSum(rng);
    const double x = DrawTerm(rng, s, i % 2 == 1);
    const uint64_t sb = ToBits(s);
    const int key = BinadeKey(sb);
    const SumIncrement r = TermIncrement(x, key);
    const uint64_t m = sb - (static_cast<uint64_t>(key - 1) << 52);
    const uint64_t step = (m & 1) ? r.odd : r.even;
    const double want = s + x;
    const uint64_t wb = ToBits(want);
    // Sound: an accepted step is the add. Complete: a result strictly inside
    // the binade is accepted (one that lands on the binade's end through
    // rounding in the next binade may be refused).
    const bool fits = m + step <= kSumMaxStep;
    const bool inside = wb - sb < kSumMaxStep - m;
    if (r.even != r.odd) ++ties;
    if (fits) {
      ++accepted;
      if (sb + step != wb) Fail("one-term rule", "in binade", FromBits(sb + step), want);
    } else if (inside) {
      Fail("one-term rule", "refused inside binade", FromBits(sb + step), want);
    }
    uint64_t t = sb;
    if (TryAdvance(&t, key, r) != fits || (fits && t != wb)) {
      Fail("TryAdvance on one term", "", FromBits(t), want);
    }
  }
  // NaN, inf and negative terms are never taken from an increment.
  const double odd_terms[] = {NAN, INFINITY, -INFINITY, -1.0, -1e-300};
  for (double x : odd_terms) {
    uint64_t t = ToBits(1.0);
    if (TryAdvance(&t, BinadeKey(t), TermIncrement(x, BinadeKey(t)))) {
      Fail("odd term taken from increment", "", FromBits(t), 1.0);
    }
  }
  std::printf("one-term rule: %d draws, %d in binade, %d ties\n", kDraws, accepted, ties);
  if (ties < kDraws / 4) Fail("one-term rule", "too few ties drawn", ties, kDraws / 4);
}

// ---- The fast rule ----------------------------------------------------------

// Terms for runs: mostly near the plan's last place (a tie one time in
// sixteen), some far above it (whole units near 2^53, so that totals pass
// it), and the odd ones: +-0, negative, inf, NaN, subnormal.
double DrawRunTerm(std::mt19937_64& rng, double s) {
  switch (rng() % 32) {
    case 0: return -0.0;
    case 1: return -std::ldexp(1.0, static_cast<int>(rng() % 100) - 50) * s;
    case 2: return (rng() % 2) ? INFINITY : NAN;
    case 3: return FromBits(rng() & ((uint64_t{1} << 52) - 1));  // subnormal or zero
    case 4: case 5: case 6: {
      const int key = BinadeKey(ToBits(s));
      const double ulp = std::ldexp(1.0, key - 1075);
      return static_cast<double>((uint64_t{1} << 52) + (rng() >> 13)) * ulp;
    }
    default: return DrawTerm(rng, s, rng() % 16 == 0);
  }
}

// RunIncrement (the fast rule, falling back to the exact one) against the
// exact rule, bits equal, on runs of 1 to 16 terms under plans of every
// binade, and under the plans without one.
void TestFastRule() {
  std::mt19937_64 rng(20261130);
  constexpr int kRuns = 1000000;
  int fast = 0, fast_ties = 0, fast_near_bound = 0, fast_unfit = 0;
  double x[16];
  for (int i = 0; i < kRuns; ++i) {
    const double s = DrawSum(rng);
    int plan = BinadeKey(ToBits(s));
    if (i % 97 == 0) plan = (i % 2) ? kPlanZero : kPlanTermByTerm;
    const int n = 1 + static_cast<int>(rng() % 16);
    for (int j = 0; j < n; ++j) x[j] = DrawRunTerm(rng, s);
    const SumIncrement want = ExactRunIncrement(x, n, plan);
    const SumIncrement got = RunIncrement(x, n, plan);
    const double scale = FastRuleScale(plan);
    double units = 0.0, lowest = 0.0;
    uint32_t tie = 0;
    for (int j = 0; j < n; ++j) units = FastRuleAdd(units, x[j], scale, 1, tie, lowest);
    if (FastRuleTaken(units, tie != 0, lowest)) {
      ++fast;
      if (want.even > kSumMaxStep / 2) ++fast_near_bound;
    } else if (want.even == kSumUnfit) {
      ++fast_unfit;
    } else if (want.even != want.odd) {
      ++fast_ties;
    }
    if (got.even != want.even || got.odd != want.odd) {
      char detail[96];
      std::snprintf(detail, sizeof detail, "plan %d, %d terms, even", plan, n);
      Fail("fast rule == exact rule", detail, static_cast<double>(got.even),
           static_cast<double>(want.even));
      std::snprintf(detail, sizeof detail, "plan %d, %d terms, odd", plan, n);
      Fail("fast rule == exact rule", detail, static_cast<double>(got.odd),
           static_cast<double>(want.odd));
    }
  }
  std::printf("fast rule: %d runs, %d taken whole (%d above 2^52), %d unfit, %d ties left to the "
              "exact rule\n", kRuns, fast, fast_near_bound, fast_unfit, fast_ties);
  // The draws must reach both sides of every check.
  if (fast < kRuns / 10) Fail("fast rule", "too few runs taken whole", fast, kRuns / 10);
  if (fast_near_bound < 1000) Fail("fast rule", "too few totals near 2^53", fast_near_bound, 1000);
  if (fast_ties < 1000) Fail("fast rule", "too few ties", fast_ties, 1000);
  if (fast_unfit < 1000) Fail("fast rule", "too few unfit runs", fast_unfit, 1000);
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
      if (!SameFromEitherParity(a)) Fail("plain total", "equal pair", 0, 0);
      chain = Then(chain, a);
      total += r;
    }
    const SumIncrement plain = PlainTotal(total);
    unfit += chain.even == kSumUnfit;
    if (plain.even != chain.even || plain.odd != chain.odd) {
      Fail("plain total == ordered composition", "", static_cast<double>(plain.even),
           static_cast<double>(chain.even));
    }
  }
  if (unfit < 1000 || unfit > 199000) Fail("plain total", "unfit draws", unfit, 1000);
}

// ---- The pipeline in the kernels' layout -----------------------------------

enum class PlanKind { kFromChunkSums, kOneBinadeHigh, kAllZero, kFixedBinade };
constexpr PlanKind kAllPlanKinds[] = {PlanKind::kFromChunkSums, PlanKind::kOneBinadeHigh,
                                      PlanKind::kAllZero, PlanKind::kFixedBinade};

const char* PlanKindName(PlanKind p) {
  switch (p) {
    case PlanKind::kFromChunkSums: return "plan from chunk sums";
    case PlanKind::kOneBinadeHigh: return "plan one binade too high";
    case PlanKind::kAllZero: return "plan all zero";
    case PlanKind::kFixedBinade: return "plan one fixed binade";
  }
  return "?";
}

// The chunk's terms, zero beyond n (as the kernels pad).
void ChunkTerms(const std::vector<double>& x, uint64_t c, double* out) {
  for (int i = 0; i < kSumChunkTerms; ++i) {
    const uint64_t k = c * kSumChunkTerms + i;
    out[i] = k < x.size() ? x[k] : 0.0;
  }
}

// The increments kernel's shape: threads of kSumThreadTerms consecutive
// terms (RunIncrement), warps of 32 threads composed by the shuffle-down tree (lane
// i takes lane i + step) or, where no thread met a tie, by a plain total,
// then the 4 warps in order. A term-by-term plan's increment is not formed
// (the walk never uses it).
SumIncrement ChunkIncrement(const double* terms, int key) {
  constexpr int kThreads = kSumChunkTerms / kSumThreadTerms;
  if (key == kPlanTermByTerm) return kSumUnfitPair;
  SumIncrement chunk = kSumNothing;
  for (int warp = 0; warp < kThreads / 32; ++warp) {
    SumIncrement v[32];
    bool plain = true;
    for (int l = 0; l < 32; ++l) {
      v[l] = RunIncrement(terms + (warp * 32 + l) * kSumThreadTerms, kSumThreadTerms, key);
      plain = plain && SameFromEitherParity(v[l]);
    }
    if (plain) {
      uint64_t total = 0;
      for (int l = 0; l < 32; ++l) total += v[l].even;
      v[0] = PlainTotal(total);
    } else {
      for (int step = 1; step < 32; step *= 2) {
        for (int l = 0; l + step < 32; l += 2 * step) v[l] = Then(v[l], v[l + step]);
      }
    }
    chunk = Then(chunk, v[0]);
  }
  return chunk;
}

int32_t WrongPlan(PlanKind kind, int32_t good) {
  switch (kind) {
    case PlanKind::kFromChunkSums: return good;
    case PlanKind::kOneBinadeHigh: return good >= 0 ? std::min(good + 1, 2046) : good;
    case PlanKind::kAllZero: return kPlanZero;
    case PlanKind::kFixedBinade: return 1023;  // the binade of 1.0
  }
  return good;
}

// A chunk the runs could not take, in rounds as the walk kernel does them,
// its rest term by term where RestTermByTerm says so.
uint64_t ModelChunk(uint64_t s, const double* terms, int nterms) {
  SumIncrement prefix[kSumChunkLanes];
  const bool finite = TermsFinite(terms, kSumChunkTerms);
  int from = 0, passed = kSumChunkLanes;
  for (int round = 0; from < kSumChunkLanes; ++round) {
    const int key = BinadeKey(s);
    if (key < 0 || round == kSumMaxChunkRounds || RestTermByTerm(from, passed)) {
      s = AddRest(s, terms, nterms, from * kSumLaneTerms, finite);
      break;
    }
    // As the walk kernel: lanes composed by plain totals where none met a
    // tie, else by the ordered scan.
    SumIncrement lane[kSumChunkLanes];
    bool plain = true;
    for (int l = from; l < kSumChunkLanes; ++l) {
      lane[l] = LaneIncrement(terms + l * kSumLaneTerms, key);
      plain = plain && SameFromEitherParity(lane[l]);
    }
    int fitting = 0;
    uint64_t total = 0;
    for (int l = from; l < kSumChunkLanes; ++l) {
      total += lane[l].even;
      prefix[l] = plain ? PlainTotal(total) : l > from ? Then(prefix[l - 1], lane[l]) : lane[l];
      uint64_t t = s;
      fitting += TryAdvance(&t, key, prefix[l]);
    }
    const int before = from;
    s = ChunkRound(s, terms, nterms, prefix, fitting, &from);
    passed = from - before;
  }
  return s;
}

// Host model of the device pipeline: advice, plan, increments, runs, walk.
double ModelSum(const std::vector<double>& x, PlanKind plan_kind, int* term_by_term) {
  const uint64_t count = (x.size() + kSumChunkTerms - 1) / kSumChunkTerms;
  std::vector<int32_t> key(count);
  std::vector<SumIncrement> inc(count), suffix(count);
  std::vector<uint32_t> run_end(count);
  std::vector<double> terms(kSumChunkTerms);
  double before = 0.0;
  for (uint64_t c = 0; c < count; ++c) {
    ChunkTerms(x, c, terms.data());
    // Any approximation will do for the plan; a pairwise tree here.
    for (int step = 1; step < kSumChunkTerms; step *= 2) {
      for (int i = 0; i + step < kSumChunkTerms; i += 2 * step) terms[i] += terms[i + step];
    }
    const double advice = terms[0];
    key[c] = WrongPlan(plan_kind, PlanChunk(before, before + advice));
    before += advice;
    ChunkTerms(x, c, terms.data());
    inc[c] = ChunkIncrement(terms.data(), key[c]);
  }
  for (uint64_t c = count; c-- > 0;) {
    if (EndsRun(key.data(), c, count)) {
      suffix[c] = inc[c];
      run_end[c] = static_cast<uint32_t>(c + 1);
    } else {
      suffix[c] = Then(inc[c], suffix[c + 1]);
      run_end[c] = run_end[c + 1];
    }
  }
  uint64_t s = ToBits(0.0);
  uint64_t pos = 0;
  // Windows of a few chunks, as the device stages windows in shared memory.
  constexpr uint64_t kWindow = 5;
  while (pos < count) {
    const uint64_t base = pos, stop = std::min(count, pos + kWindow);
    pos = WalkRuns(&s, pos, stop, base, key.data() + base, inc.data() + base,
                   suffix.data() + base, run_end.data() + base);
    if (pos >= stop) continue;
    ++*term_by_term;
    ChunkTerms(x, pos, terms.data());
    const uint64_t left = x.size() - pos * kSumChunkTerms;
    s = ModelChunk(s, terms.data(), static_cast<int>(std::min<uint64_t>(kSumChunkTerms, left)));
    ++pos;
  }
  return FromBits(s);
}

double PairwiseSum(const double* x, size_t n) {
  if (n == 0) return 0.0;
  if (n == 1) return x[0];
  return PairwiseSum(x, n / 2) + PairwiseSum(x + n / 2, n - n / 2);
}

void TestPipeline() {
  int runs = 0, tbt_good = 0, chunks_good = 0;
  std::vector<size_t> lengths(std::begin(test::kFixtureLengths), std::end(test::kFixtureLengths));
  lengths.push_back(1100 * 1024 + 5);  // more than one tile of runs
  for (test::TermKind kind : test::kAllTermKinds) {
    for (size_t n : lengths) {
      const std::vector<double> x = test::MakeTerms(kind, n, 1);
      const double want = test::LoopSum(x.data(), n);
      for (PlanKind p : kAllPlanKinds) {
        // The long fixture is for the runs, planned well; wrong plans on it
        // only cost time.
        if (n > 100000 && p != PlanKind::kFromChunkSums) continue;
        int tbt = 0;
        const double got = ModelSum(x, p, &tbt);
        ++runs;
        if (p == PlanKind::kFromChunkSums) {
          tbt_good += tbt;
          chunks_good += static_cast<int>((n + kSumChunkTerms - 1) / kSumChunkTerms);
        }
        if (ToBits(got) != ToBits(want)) {
          char detail[160];
          std::snprintf(detail, sizeof detail, "%s, n=%zu, %s", test::TermKindName(kind), n,
                        PlanKindName(p));
          Fail("pipeline == loop", detail, got, want);
        }
      }
    }
  }
  std::printf("pipeline: %d runs; with chunk-sum plans %d of %d chunks term by term\n", runs,
              tbt_good, chunks_good);
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
    if (ToBits(loop) == ToBits(tree)) Fail("fixture sees order", test::TermKindName(kind), tree, loop);
  }
}

// LoopAdd is the loop's add, NaN and inf included: x86-64's addsd with the
// sum as the first operand (C++ leaves NaN payloads to the compiler, which
// may swap the operands of a lone `a + b`; the loop keeps s in the
// destination register).
void TestLoopAdd() {
#if defined(__x86_64__)
  const double vals[] = {0.0, -0.0, 1.0, -2.5, INFINITY, -INFINITY, NAN,
                         FromBits(0x7FF0000000000123ull), FromBits(0xFFF8000000000456ull),
                         4.9e-324, 1e308};
  for (double a : vals) {
    for (double b : vals) {
      double want = a;
      asm("addsd %1, %0" : "+x"(want) : "x"(b));
      const double got = LoopAdd(a, b);
      if (ToBits(got) != ToBits(want)) Fail("LoopAdd == addsd", "", got, want);
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
  s2c::TestPlainTotal();
  s2c::TestLoopAdd();
  s2c::TestFixturesSeeOrder();
  s2c::TestPipeline();
  if (s2c::g_failures) {
    std::fprintf(stderr, "%d failures\n", s2c::g_failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
