// SPDX-License-Identifier: BSD-3-Clause
// The metric's terms without f64 arithmetic (src/steps/soft_terms.h) against
// the reference functions compiled by the host (pixel_steps.h, ssim_steps.h),
// bit for bit: SsimRatio, EdgeTerm and the six terms of FinishTerms from the
// planes' values, FinishTerms from any prepared pair, and SSIM's SsimTerm
// from window moments. S2C_SOFT_DRAWS sets the number of random draws
// (default 4 million; the "slow" suite runs 10^8).
#include <cfloat>

#include "soft_double_check.h"
#include "soft_double_draws.h"
#include "steps/pixel_steps.h"
#include "steps/soft_terms.h"
#include "steps/ssim_steps.h"

namespace s2c {
namespace {

using test::Bits;
using test::DrawFloat;

float U(std::mt19937_64& rng, float lo, float hi) {
  return lo + (hi - lo) * static_cast<float>(rng() >> 40) * 0x1p-24f;
}
float Signed(std::mt19937_64& rng, float x) { return (rng() & 1) ? -x : x; }

// A term of FinishTerms equals the reference's bits, except that a NaN may
// differ in its sign bit alone: the host compiler folds the detail's fourth
// power (-e * -e) * (-e * -e) into (e * e) * (e * e) where it inlines
// FinishTerms (C leaves the sign of a NaN open), so the reference's NaN sign
// depends on the call site; the soft form gives the literal operations' sign.
bool SameTerm(uint64_t got, uint64_t want) {
  const uint64_t kSign = uint64_t{1} << 63;
  const bool nan = (want & ~kSign) > (uint64_t{0x7FF} << 52);
  return got == want || (nan && (got ^ want) == kSign);
}

// ---- From the planes ------------------------------------------------------------

enum PlaneKind {
  kRealistic,           // positive XYB values, local means, variances and covariances
  kIdentical,           // identical windows: every term exactly zero
  kNegativeCovariance,  // s12 far below mu1 * mu2: the ratio negative, d above one
  kNearOne,             // the ratio a few f32 steps from one, either side (d tiny or clamped)
  kEdgeCancel,          // |img - mu| equal or nearly equal on both sides: e zero or tiny
  kEdgeTies,            // |img2 - mu2| = odd * 2^-53: 1.0 + a2 ties, or next to a tie
  kBinades,             // every input +-2^-60..2^0
  kZeroDenominator,     // denom_s exactly zero, the numerator of either sign or zero
  kExtremes,            // the largest finite floats, infinities, NaN, zeros among realistic values
  kSubnormalFloats,     // subnormal inputs
  kAnyFloatBits,
  kPlaneKinds
};
constexpr const char* kPlaneKindNames[] = {"realistic",  "identical",        "negative-covariance",
                                           "near-one",   "edge-cancel",      "edge-ties",
                                           "60-binades", "zero-denominator", "extremes",
                                           "subnormal",  "any-bits"};

struct Planes {
  float img1, mu1, img2, mu2, s11, s22, s12;
};

Planes DrawRealistic(std::mt19937_64& rng) {
  Planes p;
  p.img1 = U(rng, 0.0f, 1.0f);
  p.img2 = p.img1 + U(rng, -0.05f, 0.05f);
  p.mu1 = p.img1 + U(rng, -0.1f, 0.1f);
  p.mu2 = p.mu1 + U(rng, -0.02f, 0.02f);
  const float var1 = U(rng, 0.0f, 0.02f), var2 = U(rng, 0.0f, 0.02f);
  p.s11 = p.mu1 * p.mu1 + var1;
  p.s22 = p.mu2 * p.mu2 + var2;
  p.s12 = p.mu1 * p.mu2 + U(rng, -1.0f, 1.0f) * std::sqrt(var1 * var2);
  return p;
}

float Extreme(std::mt19937_64& rng) {
  constexpr float kValues[] = {FLT_MAX,  FLT_MIN, FLT_TRUE_MIN, 0x1.fffffcp-127f, 0.0f,
                               INFINITY, NAN,     1.0f,         0x1.fffffep-1f};
  return Signed(rng, kValues[rng() % std::size(kValues)]);
}

Planes DrawPlanes(std::mt19937_64& rng, PlaneKind kind) {
  Planes p = DrawRealistic(rng);
  float* v[] = {&p.img1, &p.mu1, &p.img2, &p.mu2, &p.s11, &p.s22, &p.s12};
  switch (kind) {
    case kRealistic: break;
    case kIdentical:
      p.img2 = p.img1;
      p.mu2 = p.mu1;
      p.s22 = p.s12 = p.s11;
      break;
    case kNegativeCovariance: p.s12 = p.mu1 * p.mu2 - U(rng, 0.0f, 0.5f); break;
    case kNearOne:
      p.mu2 = p.mu1;
      p.s22 = p.s11;
      p.s12 = std::nextafter(p.s11, static_cast<float>(rng() % 3) - 1.0f);
      if (rng() & 1) p.s12 = std::nextafter(p.s12, p.s11 + (p.s12 - p.s11) * 2);
      break;
    case kEdgeCancel:
      p.img2 = p.mu2 + Signed(rng, p.img1 - p.mu1);
      if (rng() & 1) p.img2 = std::nextafter(p.img2, Signed(rng, 2.0f));
      break;
    case kEdgeTies: {
      // a2 = odd * 2^-53: 1.0 + a2 is exactly half way between two doubles;
      // one time in four the next float instead (next to a tie).
      p.img2 = Signed(rng, std::ldexp(static_cast<float>((rng() >> 41) | 1), -53));
      if (rng() % 4 == 0) p.img2 = std::nextafter(p.img2, 1.0f);
      p.mu2 = 0.0f;
      if (rng() & 1) {
        p.img1 = Signed(rng, std::ldexp(static_cast<float>((rng() >> 41) | 1), -53));
        p.mu1 = 0.0f;
      }
      break;
    }
    case kBinades:
      for (float* x : v) *x = DrawFloat(rng, -60, 0);
      break;
    case kZeroDenominator:
      // (s11 - mu11) + (s22 - mu22) + kC2 = 0 + (-kC2) + kC2.
      p.mu2 = 0.0f;
      p.s22 = -0.0009f;
      p.s11 = p.mu1 * p.mu1;
      if (rng() % 4 == 0) p.s12 = (p.mu1 * p.mu2 * 2.0f - 0.0009f) / 2.0f;  // num_s near zero
      break;
    case kExtremes:
      for (float* x : v) {
        if (rng() % 3 == 0) *x = Extreme(rng);
      }
      break;
    case kSubnormalFloats:
      for (float* x : v) {
        if (rng() & 1) *x = Signed(rng, test::Float(static_cast<uint32_t>(rng() >> 41) | 1));
      }
      break;
    case kAnyFloatBits:
      for (float* x : v) *x = test::Float(static_cast<uint32_t>(rng()));
      break;
    case kPlaneKinds: break;
  }
  return p;
}

// SoftPrepareTerms against PrepareTerms, then SoftFinishTerms against
// FinishTerms on the reference's prepared pair. The ratio is compared bit for
// bit except between NaNs: where two NaN inputs meet in an f32 product, which
// one comes out is the compiler's choice of operand order, here as in the
// kernels (the f32 steps are not the soft double's); its one f64 expression
// is checked on every float by TestNumM.
void CheckPlanes(const Planes& p, uint64_t* zero_terms, uint64_t* edge_ties) {
  const PreparedTerms want = PrepareTerms(p.img1, p.mu1, p.img2, p.mu2, p.s11, p.s22, p.s12);
  const SoftPreparedTerms got = SoftPrepareTerms(p.img1, p.mu1, p.img2, p.mu2, p.s11, p.s22, p.s12);
  const PixelTerms want_terms = FinishTerms(want);
  const SoftPixelTerms got_terms = SoftFinishTerms({want.ratio, Bits(want.edge)});
#define S2C_PLANES "img1=%a mu1=%a img2=%a mu2=%a s11=%a s22=%a s12=%a"
#define S2C_PLANE_VALUES p.img1, p.mu1, p.img2, p.mu2, p.s11, p.s22, p.s12
  const bool both_nan = std::isnan(got.ratio) && std::isnan(want.ratio);
  if (!both_nan) S2C_CHECK_SAME(got.ratio, want.ratio, "SsimRatio: " S2C_PLANES, S2C_PLANE_VALUES);
  S2C_CHECK_SAME(got.edge, Bits(want.edge), "EdgeTerm: " S2C_PLANES, S2C_PLANE_VALUES);
  const char* const names[6] = {"MapTerms d",          "MapTerms d^4",    "MapTerms artifact",
                                "MapTerms artifact^4", "MapTerms detail", "MapTerms detail^4"};
  bool all_zero = true;  // +0.0, or -0.0 for the detail of e = +0.0
  for (int k = 0; k < 6; ++k) {
    S2C_CHECK(SameTerm(got_terms.t[k], Bits(want_terms.t[k])),
              "%s: got 0x%016" PRIx64 ", want 0x%016" PRIx64 "; " S2C_PLANES, names[k],
              got_terms.t[k], Bits(want_terms.t[k]), S2C_PLANE_VALUES);
    all_zero = all_zero && (SoftFinishTerms(got).t[k] << 1) == 0;
  }
#undef S2C_PLANE_VALUES
#undef S2C_PLANES
  *zero_terms += all_zero;
  const double a2 = std::fabs(static_cast<double>(p.img2 - p.mu2));
  const double one_a2 = 1.0 + a2;
  *edge_ties += test::IsTie(one_a2, test::AddError(1.0, a2, one_a2));
}

void TestFromPlanes(uint64_t draws) {
  std::atomic<uint64_t> zeros[kPlaneKinds] = {}, ties[kPlaneKinds] = {};
  for (int kind = 0; kind < kPlaneKinds; ++kind) {
    auto block = [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
      uint64_t z = 0, t = 0;
      for (uint64_t i = 0; i < n; ++i) {
        CheckPlanes(DrawPlanes(rng, static_cast<PlaneKind>(kind)), &z, &t);
      }
      zeros[kind] += z;
      ties[kind] += t;
    };
    test::ParallelDraws(100 + kind, draws / kPlaneKinds, block);
  }
  const uint64_t per_kind = draws / kPlaneKinds;
  std::printf("from the planes: %" PRIu64 " draws of each of %d kinds:", per_kind, kPlaneKinds);
  for (const char* name : kPlaneKindNames) std::printf(" %s", name);
  std::printf("; identical windows with six zero terms: %" PRIu64 "; 1.0 + a2 ties: %" PRIu64 "\n",
              zeros[kIdentical].load(), ties[kEdgeTies].load());
  S2C_CHECK(zeros[kIdentical] == per_kind, "identical windows give six zero terms");
  S2C_CHECK(ties[kEdgeTies] >= per_kind / 4, "the edge-ties draws give ties");
}

// SoftSsimNumM, SsimRatio's f64 expression (float)(1.0 - (double)x) in f32,
// on every float where `all_floats`, else on random bit patterns and the
// floats next to zero and one.
void TestNumM(uint64_t draws, bool all_floats) {
  auto check = [](uint32_t b) {
    const float x = test::Float(b);
    S2C_CHECK_SAME(SoftSsimNumM(x), test::HwToFloat(test::HwSub(1.0, test::HwFromFloat(x))),
                   "num_m: x=%a", x);
  };
  const uint64_t n = all_floats ? uint64_t{1} << 32 : draws;
  test::ParallelDraws(50, n, [&](std::mt19937_64& rng, uint64_t first, uint64_t count) {
    for (uint64_t i = first; i < first + count; ++i) {
      check(all_floats ? static_cast<uint32_t>(i) : static_cast<uint32_t>(rng()));
    }
  });
  for (uint32_t near : {0x00000000u, 0x3F800000u}) {  // 0.0f and 1.0f, both signs
    for (uint32_t k = 0; k < 1u << 16; ++k) {
      check(near + k);
      check(near - k);
      check((near + k) ^ 0x80000000u);
    }
  }
  std::printf("num_m in f32: %s\n",
              all_floats ? "every float" : "random floats, and next to 0 and 1");
}

// The direct steps of EdgeTerm and FinishTerms: SoftOnePlus against 1.0 +
// (double)a and SoftOneMinus against 1.0 - (double)r (both signs) for every
// float exponent (the direct range and both sides of it) with significands
// at its ends and random ones;
// SoftMinusOne against q - 1.0 for q from 2^-3 to 2^3, the ends of [0.5, 2)
// and random doubles.
void TestEdgeSteps(uint64_t draws) {
  auto check_plus = [](uint32_t b) {
    const float a = test::Float(b & 0x7FFFFFFFu);  // fabsf's results
    const uint64_t got = SoftToBits(SoftOnePlus(a));
    const uint64_t want = Bits(test::HwAdd(1.0, test::HwFromFloat(a)));
    S2C_CHECK(got == want,
              "1.0 + a: got 0x%016" PRIx64 ", want 0x%016" PRIx64 "; a=%a", got, want,
              a);
  };
  auto check_one_minus = [](uint32_t b) {
    const float r = test::Float(b);
    const uint64_t got = SoftToBits(SoftOneMinus(r));
    const uint64_t want = Bits(test::HwSub(1.0, test::HwFromFloat(r)));
    S2C_CHECK(got == want,
              "1.0 - r: got 0x%016" PRIx64 ", want 0x%016" PRIx64 "; r=%a", got, want,
              r);
  };
  auto check_minus = [](double q) {
    const uint64_t got = SoftToBits(SoftMinusOne(SoftFromBits(Bits(q))));
    const uint64_t want = Bits(test::HwSub(q, 1.0));
    S2C_CHECK(got == want,
              "q - 1.0: got 0x%016" PRIx64 ", want 0x%016" PRIx64 "; q=%a", got, want,
              q);
  };
  test::ParallelDraws(60, draws, [&](std::mt19937_64& rng, uint64_t, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) {
      const uint32_t b = static_cast<uint32_t>(rng());
      check_plus(b);
      check_one_minus(b);
      check_one_minus(b | 0x80000000u);
      check_minus(std::ldexp(1.0 + static_cast<double>(rng() >> 12) / 4503599627370496.0,
                             static_cast<int>(rng() % 7) - 3));
      check_minus(test::Double(rng()));
    }
  });
  for (uint32_t e = 0; e < 256; ++e) {
    for (uint32_t f : {0u, 1u, 0x400000u, 0x7FFFFEu, 0x7FFFFFu}) {
      check_plus((e << 23) | f);
      check_one_minus((e << 23) | f);
      check_one_minus(0x80000000u | (e << 23) | f);
    }
  }
  for (double q : {0.5, 1.0, 2.0, 0x1.fffffffffffffp-1, 0x1.fffffffffffffp+0, 0x1.0000000000001p+0,
                   0x1.0000000000001p-1, 0x1.fffffffffffffp-2, 0.0, -0.5}) {
    check_minus(q);
  }
  std::printf("1.0 + a, 1.0 - r and q - 1.0: %" PRIu64
              " random values, every float exponent, q near [0.5, 2)\n", draws);
}

// ---- From any prepared pair ----------------------------------------------------------

// FinishTerms on the prepared pairs the sums' passes read: the ratio one or a
// few f32 steps from one, above one (clamped), negative, any bits; the edge
// term realistic, tiny, huge (a fourth power past the largest double from
// 2^256), zero, any bits.
void TestFinish(uint64_t draws) {
  test::ParallelDraws(200, draws, [](std::mt19937_64& rng, uint64_t, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      float ratio;
      switch (rng() % 5) {
        case 0: {
          ratio = 1.0f;
          const int steps = 1 + static_cast<int>(rng() % 4);
          const float toward = (rng() & 1) ? 2.0f : 0.0f;
          for (int s = 0; s < steps; ++s) ratio = std::nextafter(ratio, toward);
          break;
        }
        case 1: ratio = U(rng, 0.8f, 1.05f); break;
        case 2: ratio = U(rng, -2.0f, 0.0f); break;
        case 3: ratio = Extreme(rng); break;
        default: ratio = test::Float(static_cast<uint32_t>(rng())); break;
      }
      double edge;
      switch (rng() % 6) {
        case 0:
          edge = static_cast<double>(U(rng, 0.5f, 1.5f)) / static_cast<double>(U(rng, 0.5f, 1.5f)) -
                 1.0;
          break;
        case 1: edge = test::DrawDouble(rng, -60, -1); break;
        case 2: edge = test::DrawDouble(rng, 200, 300); break;
        case 3: edge = (rng() & 1) ? 0.0 : -0.0; break;
        case 4:
          edge = test::Double(test::kSpecialDoubles[rng() % std::size(test::kSpecialDoubles)]);
          break;
        default: edge = test::Double(rng()); break;
      }
      const PixelTerms want = FinishTerms({ratio, edge});
      const SoftPixelTerms got = SoftFinishTerms({ratio, Bits(edge)});
      for (int k = 0; k < 6; ++k) {
        S2C_CHECK(SameTerm(got.t[k], Bits(want.t[k])),
                  "FinishTerms term %d: got 0x%016" PRIx64 ", want 0x%016" PRIx64
                  "; ratio=%a edge=0x%016" PRIx64,
                  k, got.t[k], Bits(want.t[k]), ratio, Bits(edge));
        // One term alone (the walk's) is the same bits as all six at once.
        const uint64_t one = SoftFinishTerm({ratio, Bits(edge)}, k);
        S2C_CHECK(one == got.t[k],
                  "SoftFinishTerm term %d: got 0x%016" PRIx64 ", want 0x%016" PRIx64
                  "; ratio=%a edge=0x%016" PRIx64,
                  k, one, got.t[k], ratio, Bits(edge));
      }
    }
  });
  std::printf("FinishTerms: %" PRIu64 " prepared pairs\n", draws);
}

// ---- SSIM's term ----------------------------------------------------------------------

// A window of `taps` positive integer weights summing to at most 2^8.
std::vector<int64_t> DrawWindow(std::mt19937_64& rng) {
  const int taps = 1 + static_cast<int>(rng() % 7);
  std::vector<int64_t> w(taps);
  int64_t left = 1 << kSsimKernelShift;
  for (int k = 0; k < taps; ++k) {
    w[k] = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(left - (taps - k) + 1));
    left -= w[k];
  }
  return w;
}

uint64_t UpTo(std::mt19937_64& rng, int64_t n) {  // in [0, n], n < 2^63
  return rng() % (static_cast<uint64_t>(n) + 1);
}

// Samples of `bits` bits: independent, correlated, anti-correlated,
// identical, or flat windows.
void DrawSamples(std::mt19937_64& rng, int64_t samplemax, int pattern, int64_t* s, int64_t* d) {
  const int64_t x = static_cast<int64_t>(UpTo(rng, samplemax));
  const int64_t noise = static_cast<int64_t>(rng() % 9) - 4;
  auto clamp = [&](int64_t v) { return v < 0 ? 0 : v > samplemax ? samplemax : v; };
  *s = x;
  switch (pattern) {
    case 0: *d = static_cast<int64_t>(UpTo(rng, samplemax)); break;
    case 1: *d = clamp(x + noise); break;
    case 2: *d = samplemax - x; break;
    case 3: *d = x; break;
    default: *s = *d = samplemax / 3; break;
  }
}

SsimMoments DrawMoments(std::mt19937_64& rng, int kind, int64_t* samplemax) {
  const int depths[] = {8, 10, 12, 16};
  *samplemax = (int64_t{1} << depths[rng() % 4]) - 1;
  SsimMoments m;
  switch (kind) {
    case 0: {  // real windows of samples
      const std::vector<int64_t> hw = DrawWindow(rng), vw = DrawWindow(rng);
      const int pattern = static_cast<int>(rng() % 5);
      for (int64_t v : vw) {
        SsimMoments row;
        for (int64_t h : hw) {
          int64_t s, d;
          DrawSamples(rng, *samplemax, pattern, &s, &d);
          SsimAccumulate(&row, h, s, d);
        }
        SsimAccumulate(&m, v, row);
      }
      break;
    }
    case 1: {  // anywhere in the pipeline's range: w up to 2^16, consistent x2 and y2
      const int64_t max = *samplemax;
      m.w = 1 + static_cast<int64_t>(rng() % 65536);
      m.mux = static_cast<int64_t>(UpTo(rng, m.w * max));
      m.muy = static_cast<int64_t>(UpTo(rng, m.w * max));
      // x2 >= mux^2 / w (a variance is never negative), all below w * max^2 < 2^48.
      const int64_t top = m.w * max * max;
      const int64_t x2_min =
          static_cast<int64_t>(static_cast<unsigned __int128>(m.mux) * m.mux / m.w);
      const int64_t y2_min =
          static_cast<int64_t>(static_cast<unsigned __int128>(m.muy) * m.muy / m.w);
      m.x2 = x2_min + static_cast<int64_t>(UpTo(rng, top - x2_min));
      m.y2 = y2_min + static_cast<int64_t>(UpTo(rng, top - y2_min));
      m.xy = static_cast<int64_t>(UpTo(rng, top));
      break;
    }
    case 2: {  // the largest windows: w = 2^16, every sample one value (the maximum, flat, zero)
      const int64_t s = (rng() % 3 == 0) ? *samplemax
                        : (rng() & 1)    ? 0
                                         : static_cast<int64_t>(UpTo(rng, *samplemax));
      const int64_t d = (rng() & 1) ? s : *samplemax - s;
      m.w = 65536;
      m.mux = m.w * s;
      m.muy = m.w * d;
      m.x2 = m.w * s * s;
      m.xy = m.w * s * d;
      m.y2 = m.w * d * d;
      break;
    }
    default: {  // any moments: int64 of every length and sign, samplemax up to 2^31
      int64_t* v[] = {&m.mux, &m.muy, &m.x2, &m.xy, &m.y2, &m.w};
      for (int64_t* x : v) {
        const int bits = 1 + static_cast<int>(rng() % 63);
        *x = static_cast<int64_t>(rng() >> (64 - bits)) * ((rng() & 1) ? -1 : 1);
      }
      *samplemax = static_cast<int64_t>(rng() % (uint64_t{1} << 31));
      break;
    }
  }
  return m;
}

void TestSsimTerm(uint64_t draws) {
  S2C_CHECK(kSoftSsimK1Bits == Bits(kSsimK1) && kSoftSsimK2Bits == Bits(kSsimK2),
            "the soft constants are kSsimK1's and kSsimK2's bits");
  constexpr int kKinds = 4;
  for (int kind = 0; kind < kKinds; ++kind) {
    auto block = [&](std::mt19937_64& rng, uint64_t, uint64_t n) {
      for (uint64_t i = 0; i < n; ++i) {
        int64_t samplemax;
        const SsimMoments m = DrawMoments(rng, kind, &samplemax);
        S2C_CHECK_SAME(SoftSsimTerm(m, samplemax), Bits(SsimTerm(m, samplemax)),
                       "mux=%" PRId64 " muy=%" PRId64 " x2=%" PRId64 " xy=%" PRId64 " y2=%" PRId64
                       " w=%" PRId64 " samplemax=%" PRId64,
                       m.mux, m.muy, m.x2, m.xy, m.y2, m.w, samplemax);
      }
    };
    test::ParallelDraws(300 + kind, draws / kKinds, block);
  }
  std::printf("SsimTerm: %" PRIu64 " moments of each of %d kinds: windows of samples, the "
              "pipeline's range, the largest windows, any int64\n",
              draws / kKinds, kKinds);
}

}  // namespace
}  // namespace s2c

int main() {
  const uint64_t draws = s2c::test::DrawsFromEnv(4000000);
  s2c::TestNumM(draws / 4, draws >= 100000000);
  s2c::TestEdgeSteps(draws / 4);
  s2c::TestFromPlanes(draws / 2);
  s2c::TestFinish(draws / 4);
  s2c::TestSsimTerm(draws / 4);
  return s2c::test::Finish();
}
