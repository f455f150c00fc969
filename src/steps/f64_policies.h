// SPDX-License-Identifier: BSD-3-Clause
// The two ways the CUDA kernels evaluate the metric's f64 steps, given to
// them as a template parameter (docs/soft-double.md, "In the kernels"):
// NativeF64, the reference functions in the device's f64 arithmetic, and
// IntegerF64, the same bits from the integer soft double (soft_terms.h) for
// GPUs whose f64 units run at a small fraction of their f32 rate. A path
// gives a pixel's prepared values (the f32 SSIM ratio and the edge term's
// bits, which the vertical pass stores), the six finished terms (or one), the
// approximate terms the ordered sum's advice is made of, and SSIM's term;
// its Term is what the ordered sum adds: doubles, or their bit patterns
// (ordered_sum.h, TermsAsDoubles; ordered_sum_bits.h, TermsAsBits). Every
// function is S2C_HD, so the host tests run the kernels' code on the CPU.
#ifndef S2C_F64_POLICIES_H_
#define S2C_F64_POLICIES_H_

#include <cmath>
#include <cstdint>

#include "steps/decided_increments.h"
#include "steps/hd.h"
#include "steps/ordered_sum.h"
#include "steps/ordered_sum_bits.h"
#include "steps/pixel_steps.h"
#include "steps/soft_terms.h"
#include "steps/ssim_steps.h"

namespace s2c {

constexpr int kPixelTerms = 6;  // per pixel and channel (FinishTerms)

// The prepared values of both paths: the f32 ratio and the edge term's bits.
using PreparedBits = SoftPreparedTerms;

struct NativeF64 {
  using Term = double;
  using Advice = double;
  S2C_HD static PreparedBits Prepare(float img1, float mu1, float img2, float mu2, float s11,
                                     float s22, float s12) {
    const PreparedTerms p = PrepareTerms(img1, mu1, img2, mu2, s11, s22, s12);
    return {p.ratio, SumBits(p.edge)};
  }
  S2C_HD static void Finish(PreparedBits p, double (&t)[kPixelTerms]) {
    const PixelTerms f = FinishTerms({p.ratio, SumDouble(p.edge)});
    for (int k = 0; k < kPixelTerms; ++k) t[k] = f.t[k];
  }
  // Term k alone (the walk's): all six in f64 cost little; picked by
  // selects, so that the terms stay in registers.
  S2C_HD static double FinishOne(PreparedBits p, int k) {
    const PixelTerms f = FinishTerms({p.ratio, SumDouble(p.edge)});
    double v = f.t[0];
    for (int i = 1; i < kPixelTerms; ++i) v = i == k ? f.t[i] : v;
    return v;
  }
  // The advice is the finished terms themselves.
  S2C_HD static void PixelAdvice(PreparedBits p, double (&a)[kPixelTerms]) { Finish(p, a); }
  S2C_HD static double Ssim(const SsimMoments& m, int64_t samplemax) {
    return SsimTerm(m, samplemax);
  }
  // The increments pass forms runs by the fast rule in f64 (ordered_sum.h).
  static constexpr bool kDecidesIncrements = false;
};

struct IntegerF64 {
  using Term = uint64_t;
  using Advice = float;  // times 2^kFloatAdviceExp (ordered_sum.h)
  S2C_HD static PreparedBits Prepare(float img1, float mu1, float img2, float mu2, float s11,
                                     float s22, float s12) {
    return SoftPrepareTerms(img1, mu1, img2, mu2, s11, s22, s12);
  }
  S2C_HD static void Finish(PreparedBits p, uint64_t (&t)[kPixelTerms]) {
    const SoftPixelTerms f = SoftFinishTerms(p);
    for (int k = 0; k < kPixelTerms; ++k) t[k] = f.t[k];
  }
  // Term k alone, without the soft operations of the other five.
  S2C_HD static uint64_t FinishOne(PreparedBits p, int k) { return SoftFinishTerm(p, k); }
  // The terms approximated in f32, scaled by 2^kFloatAdviceExp (2^16 on
  // each factor of a fourth power): no soft double is needed for advice.
  S2C_HD static void PixelAdvice(PreparedBits p, float (&a)[kPixelTerms]) {
    static_assert(kFloatAdviceExp == 64, "the scale below is 2^16 a factor");
    constexpr float k2p16 = 65536.0f, k2p48 = 281474976710656.0f;
    const float d = fmaxf(1.0f - p.ratio, 0.0f) * k2p16;  // fmaxf drops a NaN
    const float e = FloatAdviceOfBits(p.edge, 16);
    const float artifact = fmaxf(e, 0.0f), detail = fmaxf(-e, 0.0f);
    a[0] = d * k2p48;
    a[1] = (d * d) * (d * d);
    a[2] = artifact * k2p48;
    a[3] = (artifact * artifact) * (artifact * artifact);
    a[4] = detail * k2p48;
    a[5] = (detail * detail) * (detail * detail);
  }
  S2C_HD static uint64_t Ssim(const SsimMoments& m, int64_t samplemax) {
    return SoftSsimTerm(m, samplemax);
  }
  // The increments pass decides a pixel's increments in f32 where that is
  // certain, without finishing its terms (decided_increments.h): adds to
  // run[k] the increment of Finish(p)'s term k under key[k] (scale[k] =
  // UnitScale(key[k]), not 0), exactly TermIncrementBits' where decided,
  // and marks the run undecided elsewhere.
  static constexpr bool kDecidesIncrements = true;
  S2C_HD static void DecideIncrements(PreparedBits p, const int32_t (&key)[kPixelTerms],
                                      const float (&scale)[kPixelTerms],
                                      DecidedRun (&run)[kPixelTerms]) {
    DecideRatioTerms(p.ratio, scale[0], scale[1], run[0], run[1]);
    DecideEdgeTerms(p.edge, key, scale, run);
  }
  // Term k's alone (into run), for the runs the pass could not decide
  // whole: their other terms are decided again, one by one, and only the
  // undecided ones finished.
  S2C_HD static void DecideIncrement(PreparedBits p, int k, int32_t key, float scale,
                                     DecidedRun& run) {
    if (k < 2) {
      DecidedRun value, quartic;
      DecideRatioTerms(p.ratio, scale, scale, value, quartic);
      run = k == 0 ? value : quartic;
      return;
    }
    const uint64_t mag = p.edge & ~(uint64_t{1} << 63);
    if (mag >= kEdgeSpecial) {
      run.undecided = true;
      return;
    }
    if (mag == 0 || (p.edge >> 63) != (k >= 4)) return;  // the term is zero
    DecidedRun value, quartic;
    DecideEdgeMagnitude(mag, key, scale, value, quartic);
    run = k % 2 ? quartic : value;
  }

 private:
  static constexpr uint64_t kEdgeSpecial = uint64_t{0x7FF} << 52;  // |e| inf or NaN
  // 1 - ratio clamped at zero, and its fourth power. Below zero (ratio >= 1,
  // +inf) both terms are zero; a NaN ratio is left undecided. For |ratio| in
  // [2^-29, 2^24) and zero the reference's 1.0 - (double)ratio is exact, and
  // so is TwoSum's pair; a smaller ratio may round there, so it is left
  // undecided.
  S2C_HD static void DecideRatioTerms(float r, float scale0, float scale1, DecidedRun& run0,
                                      DecidedRun& run1) {
    if (r >= 1.0f) return;
    const bool in_range = fabsf(r) >= 0x1p-29f;  // mutation-point: ratiodomain
    if (!(r == 0.0f || (in_range && r > -0x1p24f))) {  // NaN too
      run0.undecided = run1.undecided = true;
      return;
    }
    const FloatPair d = TwoSumFloat(1.0f, -r);
    AddDecided(run0, d, scale0, 0.0f);
    AddDecidedQuartic(run1, d, scale1, kQuarticOfExactError);
  }
  // The edge term e: the artifact max(e, 0) and the detail lost max(-e, 0),
  // of which one is |e| and the other zero (both zero for e = +-0), and
  // their fourth powers. The side is chosen by selects around one
  // evaluation: a warp's pixels have edge terms of both signs, and a branch
  // per side ran both sides' decisions one after the other, each for part
  // of the warp (a third of the increments kernel's instructions). (The runs
  // and keys are indexed by constants only, so that the kernel keeps them in
  // registers.)
  S2C_HD static void DecideEdgeTerms(uint64_t edge, const int32_t (&key)[kPixelTerms],
                                     const float (&scale)[kPixelTerms],
                                     DecidedRun (&run)[kPixelTerms]) {
    const uint64_t mag = edge & ~(uint64_t{1} << 63);
    if (mag == 0) return;
    if (mag >= kEdgeSpecial) {  // inf, NaN: both sides' terms left undecided
      run[2].undecided = run[3].undecided = run[4].undecided = run[5].undecided = true;
      return;
    }
    const bool detail = (edge >> 63) != 0;  // mutation-point: edgeside
    DecidedRun value, quartic;
    DecideEdgeMagnitude(mag, detail ? key[4] : key[2], detail ? scale[5] : scale[3], value,
                        quartic);
    const DecidedRun none;
    run[2] += detail ? none : value;
    run[3] += detail ? none : quartic;
    run[4] += detail ? value : none;
    run[5] += detail ? quartic : none;
  }
  // |e| > 0 and finite (bits mag) under value_key, and its fourth power
  // under quartic_scale: the increment from the bits, the fourth power from
  // PairOfBits.
  S2C_HD static void DecideEdgeMagnitude(uint64_t mag, int32_t value_key, float quartic_scale,
                                         DecidedRun& value, DecidedRun& quartic) {
    const SumIncrement inc = TermIncrementBits(mag, value_key);
    value.undecided = inc.even != inc.odd;  // a tie
    value.units = inc.even;  // unfit (2^53 + 1) makes the run's total too large
    const int biased = static_cast<int>(mag >> 52);
    if (biased < 1023 - 20) {
      AddDecidedTinyQuartic(quartic, quartic_scale);
    } else if (biased >= 1023 + 24) {
      quartic.undecided = true;
    } else {
      AddDecidedQuartic(quartic, PairOfBits(mag), quartic_scale, kQuarticOfBitsError);
    }
  }
};

}  // namespace s2c

#endif  // S2C_F64_POLICIES_H_
