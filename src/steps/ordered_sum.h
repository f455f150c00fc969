// SPDX-License-Identifier: BSD-3-Clause
// The exact ordered sum: the bits of the CPU's loop `s = 0.0; s += t[i];`
// (raster order) formed from pieces computed in parallel (exactness contract,
// layer 3; docs/ordered-sum.md has the method). Header-only, host and device.
//
// Inside one binade of the running sum, s + x (x >= 0, rounded to nearest
// even) is an integer add on s's bit pattern: the increment is x in units of
// s's last place, rounded on the bits shifted out. On an exact tie the result
// depends on the parity of s's last bit, so a term (and a run of terms) is a
// pair of increments {from an even sum, from an odd sum}. Runs compose in order
// (Then), so a chunk's increment can be formed by a tree of adjacent lanes.
// Runs without ties, nearly all of them, take a cheaper path with the same
// result (the fast rule, in exact double arithmetic, and plain totals). A
// plan says in which binade the sum is expected to stay through each chunk;
// the walk checks it against the exact sum and, where it fails, adds the
// chunk in rounds (the lanes that fit the sum's binade at once, the lane
// where the sum leaves it term by term), so a wrong plan costs time, never
// bits.
//
// This header's rule takes terms >= 0 (and NaN, inf, which go term by term);
// src/steps/ordered_sum_signed.h is the rule for terms of either sign.
//
// Binade keys are the biased exponent of s, except that zero and subnormal
// sums share key 1 with [2^-1022, 2^-1021): all of them lie on the grid of
// 2^-1074, so s + x is the same integer add there. For every key k, the bits
// of s are ((k - 1) << 52) + m with m the integer multiple of s's last place,
// and m may grow to 2^53 (the first value of the next binade, or +inf for the
// top key), which is exactly where rounding stays on the grid.
#ifndef S2C_ORDERED_SUM_H_
#define S2C_ORDERED_SUM_H_

#include <cmath>
#include <cstdint>
#include <cstring>

#include "steps/hd.h"

namespace s2c {

// Layout shared by the kernels and the host model of them.
constexpr int kSumLaneTerms = 4;     // consecutive terms per lane
constexpr int kSumChunkLanes = 256;  // lanes per chunk
constexpr int kSumChunkTerms = kSumLaneTerms * kSumChunkLanes;
// The increments kernel's threads each compose this many consecutive terms
// (any bracketing gives the same increment; see kernels/ordered_sum.cuh).
constexpr int kSumThreadTerms = 8;
// Runs of chunks that share a planned binade are composed within tiles of
// this many chunks, so the walk steps over up to a tile at a time.
constexpr int kSumRunTile = 1024;

// The plan of a chunk: a binade key (1..2046; -1..-2046 for negative sums,
// src/steps/ordered_sum_signed.h) in which the sum is expected to stay through the
// chunk, kPlanZero (the chunk is expected to hold only zeros) or
// kPlanTermByTerm, which is also the key of a sum in no binade (inf, NaN).
constexpr int kPlanTermByTerm = -4096;
constexpr int kPlanZero = 0;

// Increments of a run of terms, in units of the last place of its binade:
// even applies when the sum before the run has an even last bit, odd when odd.
// Any value above kSumMaxStep cannot be accepted (the binade's integer m is at
// least 0 and at most 2^53) and is held as kSumUnfit.
constexpr uint64_t kSumMaxStep = uint64_t{1} << 53;
constexpr uint64_t kSumUnfit = kSumMaxStep + 1;
struct SumIncrement {
  uint64_t even;
  uint64_t odd;
};
constexpr SumIncrement kSumNothing = {0, 0};
constexpr SumIncrement kSumUnfitPair = {kSumUnfit, kSumUnfit};

S2C_HD uint64_t SumBits(double x) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint64_t>(__double_as_longlong(x));
#else
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}

S2C_HD double SumDouble(uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(b));
#else
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
#endif
}

S2C_HD bool SumBitsAreNan(uint64_t b) {
  return (b & ~(uint64_t{1} << 63)) > (uint64_t{0x7FF} << 52);
}

// The binade key of a value (1..2046), or kPlanTermByTerm for negatives
// (-0.0 included), infinities and NaN, which are in no binade of this rule.
S2C_HD int BinadeKey(uint64_t bits) {
  if (bits >> 63) return kPlanTermByTerm;
  const int e = static_cast<int>(bits >> 52);
  if (e == 0x7FF) return kPlanTermByTerm;
  return e == 0 ? 1 : e;
}

S2C_HD uint64_t SumSaturate(uint64_t v) { return v > kSumMaxStep ? kSumUnfit : v; }

// The one-term rule: the increment pair of term x (bits b) under a plan,
// from x's bits alone. Under kPlanZero only a zero term has an increment
// (nothing), so a chunk planned as zero is accepted only if all its terms are
// zero. Negative terms, infinities and NaN are unfit: the walk adds them one
// by one.
S2C_HD SumIncrement TermIncrementBits(uint64_t b, int plan) {
  if ((b << 1) == 0) return kSumNothing;  // +0.0 and -0.0 leave s as it is
  if (plan < 1 || (b >> 63) || (b >> 52) == 0x7FF) return kSumUnfitPair;
  const int e = static_cast<int>(b >> 52);
  const int key = e == 0 ? 1 : e;
  const uint64_t mant = (b & ((uint64_t{1} << 52) - 1)) | (e ? uint64_t{1} << 52 : 0);
  if (key >= plan) {
    // At or above the sum's last place: exact, no rounding, no tie.
    if (key - plan > 1) return kSumUnfitPair;
    const uint64_t r = SumSaturate(mant << (key - plan));
    return {r, r};
  }
  const int shift = plan - key;
  if (shift > 54) return kSumNothing;  // below half a unit: rounds away
  const uint64_t q = mant >> shift;
  const uint64_t rest = mant & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rest > half) return {q + 1, q + 1};
  if (rest < half) return {q, q};
  // A tie rounds to the even result: m + r must come out even.
  return {q + (q & 1), q + ((q & 1) ^ 1)};  // mutation-point: tie
}
S2C_HD SumIncrement TermIncrement(double x, int plan) { return TermIncrementBits(SumBits(x), plan); }

// The run a followed by the run b. Associative, not commutative: b's increment
// is chosen by the parity a leaves.
S2C_HD SumIncrement Then(SumIncrement a, SumIncrement b) {
  const uint64_t after_even = a.even & 1;        // parity after a, from even
  const uint64_t after_odd = (a.odd + 1) & 1;    // parity after a, from odd
  return {SumSaturate(a.even + (after_even ? b.odd : b.even)),  // mutation-point: parity
          SumSaturate(a.odd + (after_odd ? b.odd : b.even))};   // mutation-point: parity
}

// The fast rule. TermIncrement and Then cost some sixty integer operations a
// term on the device; yet almost no term is a tie under the plan, and a run
// without ties has one increment from either parity: the sum of its terms'
// rounded increments. Those are formed in double: y = x times 2^(1075 - plan)
// is x in units of the plan's last place, exactly (a power of two; where the
// product is subnormal it is below half a unit, which rounds to nothing),
// rint(y) is the nearest whole number of units, and the running total of
// whole units is exact while it stays below 2^53. A term costs four double
// operations, two comparisons and no branch: the checks are folded into
// running flags and made once per run. A tie (some |y - rint(y)| is 0.5), a
// negative term (some y < 0; -0.0 is not), or a total that is not below 2^53
// (a term two binades above the plan, inf, NaN, or a plan without a binade or
// below key 52, whose scale is NaN) sends the run back to the exact rule,
// which also tells the unfit runs from the others.
constexpr double kSumTwo53 = 9007199254740992.0;

// 2^(1075 - plan), or NaN where the fast rule does not apply.
S2C_HD double FastRuleScale(int plan) {
  if (plan < 52) return SumDouble(uint64_t{0x7FF8} << 48);
  return SumDouble(static_cast<uint64_t>(2098 - plan) << 52);  // biased exponent
}

// The fast rule's checks are made once per run, from two running flags:
// whether a term was a tie (|y - rint(y)| is 0.5), one per run, and whether a
// y was below zero, which several runs may share (the increments kernel
// keeps one for all the sums a thread forms: a negative term, which the
// metric never gives, then sends them all to the exact rule, which only
// costs time). Flags, not running values: the compiler keeps them in
// predicates, one comparison a term each, where an fmin of doubles with its
// NaN handling took eight instructions a term on sm_90 (docs/ordered-sum.md).
//
// Adds term x (scale from FastRuleScale) to a run's total of whole units and
// returns the new total. A NaN y sets no flag; the total carries it.
S2C_HD double FastRuleAdd(double units, double x, double scale, bool& tie, bool& negative) {
  const double y = x * scale;
  const double whole = rint(y);
  tie |= fabs(y - whole) == 0.5;
  negative |= y < 0.0;
  return units + whole;
}

// Whether a run's increment is its total: no tie, no negative term, and a
// total below 2^53, which a NaN or an infinite total never is.
S2C_HD bool FastRuleTaken(double units, bool tie, bool negative) {
  if (tie) return false;  // depends on the parity  // mutation-point: fasttie
  if (negative) return false;  // a negative term  // mutation-point: fastneg
  return units < kSumTwo53;  // exact below 2^53 only  // mutation-point: fastbound
}

// The increment of a run that the fast rule took whole.
S2C_HD SumIncrement FastRuleIncrement(double units) {
  const uint64_t r = static_cast<uint64_t>(units);
  return {r, r};
}

// Runs with one increment from either parity (even == odd: no tie, or
// unfit) compose by plain addition, saturated once at the end: every value
// is at most kSumUnfit, so up to 2^10 of them add without overflow, and the
// total passes kSumMaxStep exactly when a partial composition would.
S2C_HD bool SameFromEitherParity(SumIncrement a) { return a.even == a.odd; }
S2C_HD SumIncrement PlainTotal(uint64_t total) {
  const uint64_t r = SumSaturate(total);
  return {r, r};
}

// The checked step: adds run r, composed under plan, to the sum s (bits) if
// that is exact, i.e. s lies in the planned binade and the result does not
// pass the binade's end (the terms are >= 0, so the end bounds every partial
// sum). Returns false and leaves s alone otherwise.
S2C_HD bool TryAdvance(uint64_t* s, int plan, SumIncrement r) {
  if (plan == kPlanZero) return r.even == 0 && r.odd == 0;  // zeros keep any s
  if (plan < 1) return false;
  if (BinadeKey(*s) != plan) return false;  // mutation-point: binade
  const uint64_t m = *s - (static_cast<uint64_t>(plan - 1) << 52);
  const uint64_t step = (m & 1) ? r.odd : r.even;
  if (m + step > kSumMaxStep) return false;  // mutation-point: bound
  *s += step;
  return true;
}

// One add of the loop, as x86-64 SSE2 does it (the canonical tool's build):
// a NaN operand comes out quieted, the sum's own NaN first, and an invalid
// add (+inf + -inf) gives the default NaN with the sign bit set. The device's
// add would give its canonical NaN instead, hence the explicit cases.
S2C_HD double LoopAdd(double s, double x) {
  constexpr uint64_t kQuiet = uint64_t{1} << 51;
  const uint64_t sb = SumBits(s);
  if (SumBitsAreNan(sb)) return SumDouble(sb | kQuiet);
  const uint64_t xb = SumBits(x);
  if (SumBitsAreNan(xb)) return SumDouble(xb | kQuiet);
  const double r = s + x;
  if (SumBitsAreNan(SumBits(r))) return SumDouble(uint64_t{0xFFF8} << 48);
  return r;
}

// Advice, the approximate sums a plan is made from, is a double, or where
// the kernels do without f64 arithmetic (TermsAsBits, ordered_sum_bits.h)
// a float holding the value times 2^kFloatAdviceExp: the metric's terms
// reach down to about 2^-212 (a fourth power) and its sums up to about 2^40
// (SSIM's), and the scaled float covers terms from 2^-190 and sums up to
// 2^64. Advice outside that range only costs time: a chunk whose advice is
// not a normal float is planned term by term or as zero, and the walk
// checks every plan.
constexpr int kFloatAdviceExp = 64;

// The binade key of the double an advice value stands for, or
// kPlanTermByTerm where it has none (negative, inf, NaN; for a float also
// zero and subnormal, below the scaled range).
S2C_HD int AdviceKey(double a) { return BinadeKey(SumBits(a)); }
S2C_HD int AdviceKey(float a) {
  uint32_t b;
  memcpy(&b, &a, sizeof b);
  const int e = static_cast<int>(b >> 23);  // the sign bit makes e > 0xFF
  if (e == 0 || e >= 0xFF) return kPlanTermByTerm;
  return e - 127 - kFloatAdviceExp + 1023;
}

// The plan of a chunk from an approximate sum of all terms before it and up
// to its end. The margin keeps chunks near a binade edge term by term, so
// that an error of the approximation (about 1e-12 relative for tree sums of
// 2^33 terms in double, about 1e-6 for float advice) does not make a run of
// chunks fail its check.
template <class Advice>
S2C_HD int32_t PlanChunkOf(Advice before, Advice after, Advice margin) {
  if (!(after >= Advice(0))) return kPlanTermByTerm;
  if (after == Advice(0)) return kPlanZero;
  if (!(before > Advice(0))) return kPlanTermByTerm;  // the sum leaves zero
  const int key = AdviceKey(before - before * margin);
  if (key != AdviceKey(after + after * margin)) return kPlanTermByTerm;
  return key;
}
S2C_HD int32_t PlanChunk(double before, double after) {
  return PlanChunkOf(before, after, 1.0 / (1 << 30));
}
S2C_HD int32_t PlanChunk(float before, float after) {
  return PlanChunkOf(before, after, 1.0f / (1 << 16));
}

// Whether chunk c is the last of its run: runs are maximal stretches of one
// planned key (key[c]: chunk c's plan) inside a tile of kSumRunTile chunks;
// term-by-term chunks are runs of their own.
S2C_HD bool EndsRun(const int32_t* key, uint64_t c, uint64_t count) {
  return c + 1 == count || (c + 1) % kSumRunTile == 0 || key[c] == kPlanTermByTerm ||
         key[c + 1] != key[c];
}

// The rule of sums whose terms are never negative (the metric's: every
// running sum only grows). The kernels and the host model take the rule as
// a parameter, so that signed sums (src/steps/ordered_sum_signed.h) share the
// pipeline without slowing this one down.
struct NonNegativeTerms {
  using Increment = SumIncrement;
  static constexpr Increment kNothing = kSumNothing;
  static constexpr Increment kUnfitPair = kSumUnfitPair;
  // Runs whose increments are the same from either parity compose by plain
  // totals (SameFromEitherParity, PlainTotal).
  static constexpr bool kPlainTotals = true;
  // Chunks of runs the walk stages in shared memory at a time.
  static constexpr int kWalkWindow = 1024;
  // The fast rule's running values: a total and a tie flag per run, and a
  // negative-term flag shared by the runs a thread forms.
  struct Fast {
    double units = 0.0;
    bool tie = false;
  };
  struct FastShared {
    bool negative = false;
  };
  S2C_HD static int Key(uint64_t s) { return BinadeKey(s); }
  S2C_HD static Increment Term(double x, int plan) { return TermIncrement(x, plan); }
  S2C_HD static Increment TermBits(uint64_t x, int plan) { return TermIncrementBits(x, plan); }
  S2C_HD static Increment Compose(Increment a, Increment b) { return Then(a, b); }
  S2C_HD static bool Advance(uint64_t* s, int plan, Increment r) { return TryAdvance(s, plan, r); }
  S2C_HD static int32_t Plan(double before, double after) { return PlanChunk(before, after); }
  S2C_HD static int32_t Plan(float before, float after) { return PlanChunk(before, after); }
  S2C_HD static double FastScale(int plan) { return FastRuleScale(plan); }
  S2C_HD static void FastAdd(Fast& f, double x, double scale, FastShared& shared) {
    f.units = FastRuleAdd(f.units, x, scale, f.tie, shared.negative);
  }
  S2C_HD static bool FastTaken(const Fast& f, const FastShared& shared) {
    return FastRuleTaken(f.units, f.tie, shared.negative);
  }
  S2C_HD static Increment FastIncrement(const Fast& f) { return FastRuleIncrement(f.units); }
};

// The rule of terms that are never below zero by construction: each is >= 0,
// -0.0 or NaN, as the metric's are (FinishTerms clamps them, pixel_steps.h;
// tests/unit/test_ordered_sum.cc checks that it does). On such terms no y is
// ever below zero, so the fast rule's negative-term flag is never set and
// need not be kept: one comparison a term and sum fewer (docs/decisions.md,
// D19). Everything else is NonNegativeTerms'. A negative term would get a
// wrong increment from this rule, so only a functor whose terms are clamped
// may choose it (kClamped, kernels/ordered_sum.cuh).
struct ClampedTerms : NonNegativeTerms {
  struct FastShared {};
  S2C_HD static void FastAdd(Fast& f, double x, double scale, FastShared&) {
    bool negative = false;  // stays false for such terms, and is dropped
    f.units = FastRuleAdd(f.units, x, scale, f.tie, negative);
  }
  S2C_HD static bool FastTaken(const Fast& f, const FastShared&) {
    return FastRuleTaken(f.units, f.tie, false);  // mutation-point: clampedtie
  }
};

// The definition: a run's terms' increments composed in order.
template <class Rule = NonNegativeTerms>
S2C_HD typename Rule::Increment ExactRunIncrement(const double* x, int n, int plan) {
  typename Rule::Increment r = Rule::kNothing;
  for (int j = 0; j < n; ++j) r = Rule::Compose(r, Rule::Term(x[j], plan));
  return r;
}

// The composed increment of a run of terms under plan: by the fast rule
// where it takes the run whole, else by the exact rule.
template <class Rule = NonNegativeTerms>
S2C_HD typename Rule::Increment RunIncrement(const double* x, int n, int plan) {
  const double scale = Rule::FastScale(plan);
  typename Rule::Fast fast;
  typename Rule::FastShared shared;
  for (int j = 0; j < n; ++j) Rule::FastAdd(fast, x[j], scale, shared);
  if (Rule::FastTaken(fast, shared)) return Rule::FastIncrement(fast);
  return ExactRunIncrement<Rule>(x, n, plan);
}

// The composed increment of a lane's kSumLaneTerms consecutive terms.
template <class Rule = NonNegativeTerms>
S2C_HD typename Rule::Increment LaneIncrement(const double* x, int plan) {
  return RunIncrement<Rule>(x, kSumLaneTerms, plan);
}

// The walk over runs, from chunk pos up to stop: accepts the composed rest of
// a run (suffix, ending at run_end) or else one chunk (inc) wherever the check
// passes (plan_key: the chunks' plans). The arrays hold chunks base, base + 1, ... (a window of them, on the
// device). Returns the first chunk that must be added term by term, a chunk
// at or past stop, or kWalkDone once the sum is NaN (it stays as it is).
constexpr uint64_t kWalkDone = ~uint64_t{0};
template <class Rule, class Increment = typename Rule::Increment>
S2C_HD uint64_t WalkRuns(uint64_t* s, uint64_t pos, uint64_t stop, uint64_t base,
                         const int32_t* plan_key, const Increment* inc, const Increment* suffix,
                         const uint32_t* run_end) {
  while (pos < stop) {
    if (SumBitsAreNan(*s)) return kWalkDone;
    const uint64_t w = pos - base;
    const int key = plan_key[w];
    if (Rule::Advance(s, key, suffix[w])) {
      pos = run_end[w];
    } else if (run_end[w] > pos + 1 && Rule::Advance(s, key, inc[w])) {
      ++pos;
    } else {
      return pos;
    }
  }
  return pos;
}

// A chunk the runs could not take is added in rounds, at most
// kSumMaxChunkRounds, then term by term. x holds the chunk's terms (nterms of
// them count; the rest are padding).
constexpr int kSumMaxChunkRounds = 32;

// Adds lane `lane`'s terms one by one.
S2C_HD uint64_t AddLane(uint64_t s, const double* x, int nterms, int lane) {
  for (int j = 0; j < kSumLaneTerms; ++j) {
    const int i = lane * kSumLaneTerms + j;
    if (i < nterms) s = SumBits(LoopAdd(SumDouble(s), x[i]));
  }
  return s;
}

// A round costs a block-wide scan and passes the lanes that fit the sum's
// binade plus one; where that is only a few lanes (the sum still climbing
// from zero, or the binade's end a few lanes away, with little of the chunk
// left), one thread adding terms one by one costs less. With at most
// kSumRestTerms terms left, the rest of the chunk goes term by term. Where
// the last round passed fewer than kSumRoundMinLanes lanes the sum is
// climbing, and how far one thread goes depends on what an add costs
// (Arith::kClimbs): where it is one f64 add, to the chunk's end; where it
// is a soft add, only the next kSumRoundMinLanes lanes (a sum at zero counts
// as climbing), since each binade holds about as many terms as the sum has
// had and rounds, passing more lanes each as the sum grows, take the rest.
// Returns where the terms one thread adds end (they start at lane `from`'s
// first): from's first itself where a round comes next, nterms or more where
// the chunk ends with them.
constexpr int kSumRestTerms = 256;
constexpr int kSumRoundMinLanes = 16;
S2C_HD int TermByTermEnd(int from, int passed_last_round, int nterms, bool climbs) {
  if ((kSumChunkLanes - from) * kSumLaneTerms <= kSumRestTerms) return nterms;
  if (passed_last_round >= kSumRoundMinLanes) return from * kSumLaneTerms;
  if (!climbs) return nterms;
  return (from + kSumRoundMinLanes) * kSumLaneTerms;  // mutation-point: climb
}

// The lanes the walk counts as passed before a chunk's first round: none
// for a climbing arithmetic's sum at zero (TermByTermEnd), else all.
S2C_HD int PassedBeforeFirstRound(uint64_t sum_bits, bool climbs) {
  return climbs && sum_bits == 0 ? 0 : kSumChunkLanes;
}

// Adds x[first..nterms) in order. Where every term of the chunk is finite no
// NaN can arise, so the plain add is the loop's (LoopAdd's cases are NaN
// operands and inf + -inf) and the dependent chain is one add a term.
S2C_HD uint64_t AddRest(uint64_t s, const double* x, int nterms, int first, bool all_finite) {
  if (!all_finite) {
    for (int i = first; i < nterms; ++i) s = SumBits(LoopAdd(SumDouble(s), x[i]));
    return s;
  }
  double sum = SumDouble(s);
  for (int i = first; i < nterms; ++i) sum += x[i];  // mutation-point: rest
  return SumBits(sum);
}

// Whether every term of a chunk is finite (AddRest's plain add).
S2C_HD bool TermsFinite(const double* x, int n) {
  bool finite = true;
  for (int i = 0; i < n; ++i) finite = finite && (x[i] - x[i] == 0.0);
  return finite;
}

// The ordered sum's arithmetic on its terms, which the kernels and
// ChunkRound take as a parameter: here terms are doubles, added in f64 and
// turned into increments by the fast rule; TermsAsBits
// (src/steps/ordered_sum_bits.h) takes their bit patterns, for devices
// without fast f64 units, and gives the same bits.
struct TermsAsDoubles {
  using Term = double;
  using Advice = double;  // the plan's approximate sums
  static constexpr bool kFastRule = true;
  // The rest of a chunk is one thread's plain adds (AddRest), not step
  // codes (ordered_sum_bits.h, AddRestCoded).
  static constexpr bool kCodedRest = false;
  // One f64 add a term: a climbing sum's rest goes term by term
  // (TermByTermEnd).
  static constexpr bool kClimbs = false;
  S2C_HD static Advice AdviceOf(double x) { return x; }
  S2C_HD static bool Finite(const double* x, int n) { return TermsFinite(x, n); }
  S2C_HD static uint64_t AddLane(uint64_t s, const double* x, int nterms, int lane) {
    return s2c::AddLane(s, x, nterms, lane);
  }
  S2C_HD static uint64_t AddRest(uint64_t s, const double* x, int nterms, int first,
                                 bool all_finite) {
    return s2c::AddRest(s, x, nterms, first, all_finite);
  }
  template <class Rule>
  S2C_HD static typename Rule::Increment OneTerm(double x, int plan) {
    return Rule::Term(x, plan);
  }
  template <class Rule>
  S2C_HD static typename Rule::Increment Lane(const double* x, int plan) {
    return LaneIncrement<Rule>(x, plan);
  }
};

// One round from lane *from at sum s: lane_prefix[l] (l >= *from) composes
// lanes *from..l under Rule::Key(s), and `fitting` of them are accepted by
// Rule::Advance (a leading stretch: a longer prefix reaches at least as far
// from s). Adds those at once, then the next lane, where the sum leaves its
// binade, term by term. Each round passes at least one lane.
template <class Rule, class Arith = TermsAsDoubles, class Increment = typename Rule::Increment>
S2C_HD uint64_t ChunkRound(uint64_t s, const typename Arith::Term* x, int nterms,
                           const Increment* lane_prefix, int fitting, int* from) {
  int lane = *from;
  if (fitting > 0 && Rule::Advance(&s, Rule::Key(s), lane_prefix[lane + fitting - 1])) {
    lane += fitting;
  }
  if (lane < kSumChunkLanes) s = Arith::AddLane(s, x, nterms, lane++);
  *from = lane;
  return s;
}

}  // namespace s2c

#endif  // S2C_ORDERED_SUM_H_
