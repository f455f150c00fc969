// SPDX-License-Identifier: BSD-3-Clause
// Host model of the ordered-sum kernels (kernels/ordered_sum.cuh) in their
// layout: advice, plan, increments (threads of kSumThreadTerms terms, warps
// by the shuffle-down tree or plain totals, then the warps), runs of chunks,
// and the checked walk with its rounds; for either rule (non-negative or
// signed terms), under good and deliberately wrong plans. Shared by the
// host tests of both rules.
#ifndef S2C_TESTS_ORDERED_SUM_MODEL_H_
#define S2C_TESTS_ORDERED_SUM_MODEL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <iterator>
#include <vector>

// The harness by a path relative to this file: mutations.sh
// compiles the ordered-sum tests with -I of this directory only.
#include "../common/check.h"
#include "ordered_sum_fixtures.h"
#include "steps/ordered_sum.h"

namespace s2c {
namespace test {

enum class PlanKind { kFromChunkSums, kOneBinadeHigh, kAllZero, kFixedBinade, kSignFlipped };
constexpr PlanKind kAllPlanKinds[] = {PlanKind::kFromChunkSums, PlanKind::kOneBinadeHigh,
                                      PlanKind::kAllZero, PlanKind::kFixedBinade,
                                      PlanKind::kSignFlipped};

inline const char* PlanKindName(PlanKind p) {
  switch (p) {
    case PlanKind::kFromChunkSums: return "plan from chunk sums";
    case PlanKind::kOneBinadeHigh: return "plan one binade too high";
    case PlanKind::kAllZero: return "plan all zero";
    case PlanKind::kFixedBinade: return "plan one fixed binade";
    case PlanKind::kSignFlipped: return "plan of the other sign";
  }
  return "?";
}

// The chunk's terms, zero beyond n (as the kernels pad).
inline void ChunkTerms(const std::vector<double>& x, uint64_t c, double* out) {
  for (int i = 0; i < kSumChunkTerms; ++i) {
    const uint64_t k = c * kSumChunkTerms + i;
    out[i] = k < x.size() ? x[k] : 0.0;
  }
}

// The increments kernel's shape: threads of kSumThreadTerms consecutive
// terms (RunIncrement), warps of 32 threads composed by the shuffle-down
// tree (lane i takes lane i + step) or, where the rule allows it and no
// thread met a tie, by a plain total, then the 4 warps in order. A
// term-by-term plan's increment is not formed (the walk never uses it).
template <class Rule>
typename Rule::Increment ChunkIncrement(const double* terms, int key) {
  using Increment = typename Rule::Increment;
  constexpr int kThreads = kSumChunkTerms / kSumThreadTerms;
  if (key == kPlanTermByTerm) return Rule::kUnfitPair;
  Increment chunk = Rule::kNothing;
  for (int warp = 0; warp < kThreads / 32; ++warp) {
    Increment v[32];
    bool plain = Rule::kPlainTotals;
    for (int l = 0; l < 32; ++l) {
      v[l] = RunIncrement<Rule>(terms + (warp * 32 + l) * kSumThreadTerms, kSumThreadTerms, key);
      if constexpr (Rule::kPlainTotals) plain = plain && SameFromEitherParity(v[l]);
    }
    if constexpr (Rule::kPlainTotals) {
      if (plain) {
        uint64_t total = 0;
        for (int l = 0; l < 32; ++l) total += v[l].even;
        v[0] = PlainTotal(total);
      }
    }
    if (!plain) {
      for (int step = 1; step < 32; step *= 2) {
        for (int l = 0; l + step < 32; l += 2 * step) v[l] = Rule::Compose(v[l], v[l + step]);
      }
    }
    chunk = Rule::Compose(chunk, v[0]);
  }
  return chunk;
}

inline int32_t WrongPlan(PlanKind kind, int32_t good) {
  const bool keyed = good != kPlanTermByTerm && good != kPlanZero;
  switch (kind) {
    case PlanKind::kFromChunkSums: return good;
    case PlanKind::kOneBinadeHigh:
      if (!keyed) return good;
      return good > 0 ? std::min(good + 1, 2046) : std::max(good - 1, -2046);
    case PlanKind::kAllZero: return kPlanZero;
    case PlanKind::kFixedBinade: return 1023;  // the binade of 1.0
    case PlanKind::kSignFlipped: return keyed ? -good : good;
  }
  return good;
}

// A chunk the runs could not take, in rounds as the walk kernel does them,
// terms one by one where TermByTermEnd says so for an arithmetic that climbs
// or not (Arith::kClimbs).
template <class Rule>
uint64_t ModelChunk(uint64_t s, const double* terms, int nterms, bool climbs) {
  using Increment = typename Rule::Increment;
  Increment prefix[kSumChunkLanes];
  const bool finite = TermsFinite(terms, kSumChunkTerms);
  int from = 0, passed = PassedBeforeFirstRound(s, climbs);
  for (int round = 0; from < kSumChunkLanes; ++round) {
    const int key = Rule::Key(s);
    const int end = key == kPlanTermByTerm || round == kSumMaxChunkRounds
                        ? nterms
                        : TermByTermEnd(from, passed, nterms, climbs);
    if (end > from * kSumLaneTerms || end >= nterms) {
      const int stop = std::min(end, nterms);
      s = AddRest(s, terms, stop, from * kSumLaneTerms, finite);
      if (stop == nterms) break;
      from = end / kSumLaneTerms;
      passed = kSumChunkLanes;
      continue;
    }
    // As the walk kernel: lanes composed by plain totals where the rule
    // allows it and none met a tie, else by the ordered scan.
    Increment lane[kSumChunkLanes];
    bool plain = Rule::kPlainTotals;
    for (int l = from; l < kSumChunkLanes; ++l) {
      lane[l] = LaneIncrement<Rule>(terms + l * kSumLaneTerms, key);
      if constexpr (Rule::kPlainTotals) plain = plain && SameFromEitherParity(lane[l]);
    }
    int fitting = 0;
    uint64_t total = 0;
    for (int l = from; l < kSumChunkLanes; ++l) {
      if constexpr (Rule::kPlainTotals) {
        total += lane[l].even;
        if (plain) prefix[l] = PlainTotal(total);
      }
      if (!plain) prefix[l] = l > from ? Rule::Compose(prefix[l - 1], lane[l]) : lane[l];
      uint64_t t = s;
      fitting += Rule::Advance(&t, key, prefix[l]);
    }
    const int before = from;
    s = ChunkRound<Rule>(s, terms, nterms, prefix, fitting, &from);
    passed = from - before;
  }
  return s;
}

// Host model of the device pipeline: advice, plan, increments, runs, walk.
template <class Rule>
double ModelSum(const std::vector<double>& x, PlanKind plan_kind, bool climbs,
                int* term_by_term) {
  using Increment = typename Rule::Increment;
  const uint64_t count = (x.size() + kSumChunkTerms - 1) / kSumChunkTerms;
  std::vector<int32_t> key(count);
  std::vector<Increment> inc(count), suffix(count);
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
    key[c] = WrongPlan(plan_kind, Rule::Plan(before, before + advice));
    before += advice;
    ChunkTerms(x, c, terms.data());
    inc[c] = ChunkIncrement<Rule>(terms.data(), key[c]);
  }
  for (uint64_t c = count; c-- > 0;) {
    if (EndsRun(key.data(), c, count)) {
      suffix[c] = inc[c];
      run_end[c] = static_cast<uint32_t>(c + 1);
    } else {
      suffix[c] = Rule::Compose(inc[c], suffix[c + 1]);
      run_end[c] = run_end[c + 1];
    }
  }
  uint64_t s = Bits(0.0);
  uint64_t pos = 0;
  // Windows of a few chunks, as the device stages windows in shared memory.
  constexpr uint64_t kWindow = 5;
  while (pos < count) {
    const uint64_t base = pos, stop = std::min(count, pos + kWindow);
    pos = WalkRuns<Rule>(&s, pos, stop, base, key.data() + base, inc.data() + base,
                         suffix.data() + base, run_end.data() + base);
    if (pos >= stop) continue;
    ++*term_by_term;
    ChunkTerms(x, pos, terms.data());
    const uint64_t left = x.size() - pos * kSumChunkTerms;
    s = ModelChunk<Rule>(s, terms.data(),
                         static_cast<int>(std::min<uint64_t>(kSumChunkTerms, left)), climbs);
    ++pos;
  }
  return Double(s);
}

// ---- Draws for the rule tests --------------------------------------------

// A term near the sum's last place; odd draws are forced to an exact tie.
inline double DrawTerm(std::mt19937_64& rng, double s, bool tie) {
  const int key = BinadeKey(Bits(s));
  const double ulp = std::ldexp(1.0, key - 1075);  // last place of s's binade
  switch (tie ? 7 : rng() % 8) {
    case 0: return Double(rng() & ((uint64_t{1} << 52) - 1));  // subnormal or zero
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

inline double DrawSum(std::mt19937_64& rng) {
  switch (rng() % 7) {
    case 0: return Double(rng() & ((uint64_t{1} << 52) - 1));  // subnormal
    case 1: return 0.0;
    case 2: return 1.0 + static_cast<double>(rng() >> 12) / 4503599627370496.0;  // [1, 2)
    case 3: return std::nextafter(std::ldexp(1.0, static_cast<int>(rng() % 40)), 0.0);  // edge
    case 4: return std::ldexp(1.0, static_cast<int>(rng() % 200) - 100);  // a binade's first value
    default: {
      const int e = static_cast<int>(rng() % 2000) - 1000;
      return std::ldexp(1.0 + static_cast<double>(rng() >> 12) / 4503599627370496.0, e);
    }
  }
}

// Terms for runs: mostly near the plan's last place (a tie one time in
// sixteen), some far above it (whole units near 2^53, so that totals pass
// it), and the odd ones: +-0, negative, inf, NaN, subnormal.
inline double DrawRunTerm(std::mt19937_64& rng, double s) {
  switch (rng() % 32) {
    case 0: return -0.0;
    case 1: return -std::ldexp(1.0, static_cast<int>(rng() % 100) - 50) * s;
    case 2: return (rng() % 2) ? INFINITY : NAN;
    case 3: return Double(rng() & ((uint64_t{1} << 52) - 1));  // subnormal or zero
    case 4: case 5: case 6: {
      const int key = BinadeKey(Bits(s));
      const double ulp = std::ldexp(1.0, key - 1075);
      return static_cast<double>((uint64_t{1} << 52) + (rng() >> 13)) * ulp;
    }
    default: return DrawTerm(rng, s, rng() % 16 == 0);
  }
}

// ---- The model against the loop ------------------------------------------

// The model against the loop, bits equal, on `kinds` of fixtures at every
// fixture length and one longer than a tile of runs, under every kind of
// plan (the long one planned well only: wrong plans on it only cost time),
// each sum a check named `name`. Returns the number of sums checked;
// *tbt_chunks and *chunks count the chunks the walk had to add in rounds,
// and all chunks, under good plans.
template <class Rule>
int CheckPipeline(const char* name, const TermKind* kinds, size_t nkinds, int* tbt_chunks,
                  int* chunks) {
  int runs = 0;
  std::vector<size_t> lengths(std::begin(kFixtureLengths), std::end(kFixtureLengths));
  lengths.push_back(1100 * 1024 + 5);  // more than one tile of runs
  for (size_t k = 0; k < nkinds; ++k) {
    for (size_t n : lengths) {
      const std::vector<double> x = MakeTerms(kinds[k], n, 1);
      const double want = LoopSum(x.data(), n);
      for (PlanKind p : kAllPlanKinds) {
        if (n > 100000 && p != PlanKind::kFromChunkSums) continue;
        // Both ways a walk may add a climbing sum's terms (Arith::kClimbs).
        for (bool climbs : {false, true}) {
          int tbt = 0;
          const double got = ModelSum<Rule>(x, p, climbs, &tbt);
          ++runs;
          if (p == PlanKind::kFromChunkSums && !climbs) {
            *tbt_chunks += tbt;
            *chunks += static_cast<int>((n + kSumChunkTerms - 1) / kSumChunkTerms);
          }
          S2C_CHECK_SAME(got, want, "%s (%s, n=%zu, %s, %s)", name, TermKindName(kinds[k]), n,
                         PlanKindName(p), climbs ? "climbing" : "rest term by term");
        }
      }
    }
  }
  return runs;
}

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_ORDERED_SUM_MODEL_H_
