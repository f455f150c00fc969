// SPDX-License-Identifier: BSD-3-Clause
// The CUDA kernels' integer path, run on the CPU over real frames: the
// S2C_HD functions the kernels call (src/steps/f64_policies.h, IntegerF64 and
// NativeF64) on the planes the CPU reference forms for the test images, and
// the ordered sum's integer pieces (TermsAsBits, ordered_sum_bits.h) over
// the terms. Every prepared value and term of the integer path must have
// the native path's bits, and every sum the native loop's, compared with ==
// on bits:
//  - per pixel: Prepare (the ratio, the edge term) and Finish (six terms);
//  - per sum: the walk's term-by-term add over all terms (AddRestBits), and
//    the kernels' chunks as the walk takes them: a plan per chunk from the
//    float advice (PixelAdvice, PlanChunk), each chunk's increment composed
//    from its terms' (OneTerm, Compose) and taken by the checked step where
//    it fits, else the chunk in rounds of lanes (Lane, ChunkRound).
//  - per run of 8 pixels under those plans: the increments decided in f32
//    (DecideIncrements) against the exact rule's, wherever decided.
// Most chunks must be taken from their float plans, which is what makes the
// advice worth having, and most runs decided, which is what makes the
// increments pass cheap.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "check.h"
#include "device_fp64.h"
#include "cpu/cpu_reference.h"
#include "image_io.h"
#include "ordered_sum_fixtures.h"
#include "plane_observer.h"
#include "png_reader.h"
#include "steps/f64_policies.h"

namespace s2c {
namespace {

using test::Double;
using test::Bits;

// Copies of the planes the reference hands out, by (stage, scale, image,
// channel).
class KeepPlanes : public PlaneObserver {
 public:
  struct Plane {
    int w = 0, h = 0;
    std::vector<float> v;
    float At(int x, int y) const { return v[static_cast<size_t>(y) * w + x]; }
  };
  void OnPlane(Stage stage, int scale, int image, int channel, const PlaneView& p) override {
    Plane& out = planes[{static_cast<int>(stage), scale, image, channel}];
    out.w = p.width;
    out.h = p.height;
    out.v.resize(static_cast<size_t>(p.width) * p.height);
    for (int y = 0; y < p.height; ++y) {
      for (int x = 0; x < p.width; ++x) out.v[static_cast<size_t>(y) * p.width + x] = p.Row(y)[x];
    }
  }
  const Plane& Get(Stage stage, int scale, int image, int channel) const {
    return planes.at({static_cast<int>(stage), scale, image, channel});
  }
  bool Has(int scale) const { return planes.count({static_cast<int>(Stage::kXyb), scale, 0, 0}); }
  std::map<std::tuple<int, int, int, int>, Plane> planes;
};

struct Counts {
  int64_t pixels = 0;
  int64_t sums = 0;
  int64_t chunks = 0;
  int64_t chunks_planned = 0;  // taken whole under their float plan
  int64_t runs = 0;            // runs of 8 pixels' increments under a plan
  int64_t runs_decided = 0;    // decided in f32 (DecideIncrements)
  int64_t runs_fast = 0;       // taken by the native path's fast rule in f64
};

// The increments pass's runs of kSumThreadTerms pixels under each chunk's
// plans: wherever IntegerF64::DecideIncrements decides a sum's run, its
// total must be the exact rule's composition of the terms' increments.
void CheckDecidedRuns(const std::vector<PreparedBits>& prepared,
                      const std::vector<uint64_t> (&bits)[kPixelTerms],
                      const std::vector<int32_t> (&plan)[kPixelTerms], const char* what,
                      int scale, int channel, Counts* counts) {
  const size_t n = prepared.size();
  for (size_t first = 0; first + kSumThreadTerms <= n; first += kSumThreadTerms) {
    const size_t c = first / kSumChunkTerms;
    int32_t key[kPixelTerms];
    float unit[kPixelTerms];
    for (int k = 0; k < kPixelTerms; ++k) {
      key[k] = plan[k][c];
      unit[k] = UnitScale(key[k]);
    }
    DecidedRun run[kPixelTerms];
    for (int j = 0; j < kSumThreadTerms; ++j) {
      IntegerF64::DecideIncrements(prepared[first + j], key, unit, run);
    }
    for (int k = 0; k < kPixelTerms; ++k) {
      if (key[k] == kPlanTermByTerm) continue;
      ++counts->runs;
      ClampedTerms::Fast fast;
      ClampedTerms::FastShared shared;
      for (int j = 0; j < kSumThreadTerms; ++j) {
        ClampedTerms::FastAdd(fast, Double(bits[k][first + j]), ClampedTerms::FastScale(key[k]),
                              shared);
      }
      counts->runs_fast += ClampedTerms::FastTaken(fast, shared);
      if (!DecidedTaken(run[k], unit[k])) continue;
      ++counts->runs_decided;
      SumIncrement exact = kSumNothing;
      for (int j = 0; j < kSumThreadTerms; ++j) {
        exact = Then(exact, TermIncrementBits(bits[k][first + j], key[k]));
      }
      S2C_CHECK(exact.even == run[k].units && exact.odd == run[k].units,
                "%s scale %d channel %d pixels %zu..: sum %d decided %llu, exact %llu/%llu",
                what, scale, channel, first, k, static_cast<unsigned long long>(run[k].units),
                static_cast<unsigned long long>(exact.even),
                static_cast<unsigned long long>(exact.odd));
    }
  }
}

// One sum of `terms` (bits) the way the walk adds chunks: the checked step
// with the chunk's increment under its plan, else rounds of lanes.
uint64_t ChunkedSum(const std::vector<uint64_t>& terms, const std::vector<int32_t>& plan,
                    Counts* counts) {
  using Rule = ClampedTerms;
  uint64_t s = 0;
  const int n = static_cast<int>(terms.size());
  for (int c = 0; c * kSumChunkTerms < n; ++c) {
    uint64_t x[kSumChunkTerms] = {};  // +0.0 past the end
    const int nterms = n - c * kSumChunkTerms < kSumChunkTerms ? n - c * kSumChunkTerms
                                                               : kSumChunkTerms;
    for (int i = 0; i < nterms; ++i) x[i] = terms[c * kSumChunkTerms + i];
    SumIncrement inc = Rule::kNothing;
    for (int i = 0; i < kSumChunkTerms; ++i) {
      inc = Rule::Compose(inc, TermsAsBits::OneTerm<Rule>(x[i], plan[c]));
    }
    ++counts->chunks;
    if (Rule::Advance(&s, plan[c], inc)) {
      ++counts->chunks_planned;
      continue;
    }
    int from = 0;
    while (from < kSumChunkLanes) {
      const int key = Rule::Key(s);
      SumIncrement prefix[kSumChunkLanes];
      SumIncrement p = Rule::kNothing;
      int fitting = 0;
      for (int lane = from; lane < kSumChunkLanes; ++lane) {
        p = Rule::Compose(p, TermsAsBits::Lane<Rule>(x + lane * kSumLaneTerms, key));
        prefix[lane] = p;
        uint64_t probe = s;
        if (key != kPlanTermByTerm && Rule::Advance(&probe, key, p)) fitting = lane - from + 1;
      }
      s = ChunkRound<Rule, TermsAsBits>(s, x, nterms, prefix, fitting, &from);
    }
  }
  return s;
}

// The plans of a sum from its float advice, as the plan kernel makes them.
std::vector<int32_t> FloatPlans(const std::vector<float>& advice_terms) {
  std::vector<int32_t> plan;
  float before = 0.0f;
  for (size_t c = 0; c * kSumChunkTerms < advice_terms.size(); ++c) {
    float chunk = 0.0f;
    for (size_t i = c * kSumChunkTerms; i < (c + 1) * kSumChunkTerms && i < advice_terms.size();
         ++i) {
      chunk += advice_terms[i];
    }
    plan.push_back(ClampedTerms::Plan(before, before + chunk));
    before += chunk;
  }
  return plan;
}

void CheckScale(const KeepPlanes& k, int scale, const char* what, Counts* counts) {
  for (int c = 0; c < 3; ++c) {
    const auto& img1 = k.Get(Stage::kXyb, scale, 0, c);
    const auto& img2 = k.Get(Stage::kXyb, scale, 1, c);
    const auto& mu1 = k.Get(Stage::kMu, scale, 0, c);
    const auto& mu2 = k.Get(Stage::kMu, scale, 1, c);
    const auto& s11 = k.Get(Stage::kSigmaSq, scale, 0, c);
    const auto& s22 = k.Get(Stage::kSigmaSq, scale, 1, c);
    const auto& s12 = k.Get(Stage::kSigma12, scale, 0, c);
    std::vector<uint64_t> bits[kPixelTerms];
    std::vector<float> advice[kPixelTerms];
    std::vector<PreparedBits> prepared;
    double loop[kPixelTerms] = {};
    uint64_t rest[kPixelTerms] = {};
    for (int y = 0; y < img1.h; ++y) {
      for (int x = 0; x < img1.w; ++x) {
        const float in[7] = {img1.At(x, y), mu1.At(x, y), img2.At(x, y), mu2.At(x, y),
                             s11.At(x, y),  s22.At(x, y), s12.At(x, y)};
        const PreparedBits native =
            NativeF64::Prepare(in[0], in[1], in[2], in[3], in[4], in[5], in[6]);
        const PreparedBits integer =
            IntegerF64::Prepare(in[0], in[1], in[2], in[3], in[4], in[5], in[6]);
        S2C_CHECK_SAME(integer.ratio, native.ratio, "%s scale %d channel %d (%d, %d): ratio",
                       what, scale, c, x, y);
        S2C_CHECK(integer.edge == native.edge,
                  "%s scale %d channel %d (%d, %d): edge term %016llx, native %016llx", what,
                  scale, c, x, y, static_cast<unsigned long long>(integer.edge),
                  static_cast<unsigned long long>(native.edge));
        prepared.push_back(integer);
        double t[kPixelTerms];
        uint64_t b[kPixelTerms];
        float a[kPixelTerms];
        NativeF64::Finish(native, t);
        IntegerF64::Finish(integer, b);
        IntegerF64::PixelAdvice(integer, a);
        for (int i = 0; i < kPixelTerms; ++i) {
          S2C_CHECK_SAME(Double(b[i]), t[i], "%s scale %d channel %d (%d, %d): term %d", what,
                         scale, c, x, y, i);
          loop[i] += t[i];
          rest[i] = LoopAddBits(rest[i], b[i]);
          bits[i].push_back(b[i]);
          advice[i].push_back(a[i]);
        }
        ++counts->pixels;
      }
    }
    std::vector<int32_t> plan[kPixelTerms];
    for (int i = 0; i < kPixelTerms; ++i) plan[i] = FloatPlans(advice[i]);
    CheckDecidedRuns(prepared, bits, plan, what, scale, c, counts);
    for (int i = 0; i < kPixelTerms; ++i) {
      S2C_CHECK_SAME(Double(rest[i]), loop[i], "%s scale %d channel %d: sum %d term by term",
                     what, scale, c, i);
      S2C_CHECK_SAME(Double(ChunkedSum(bits[i], plan[i], counts)), loop[i],
                     "%s scale %d channel %d: sum %d by chunks", what, scale, c, i);
      counts->sums += 2;
    }
  }
}

void CheckPair(const char* ref_name, const char* dist_name, Counts* counts) {
  const std::string dir = test::TestdataDir();
  test::HostImage ref, dist;
  std::string error;
  if (!S2C_CHECK(test::ReadPng(dir + "/" + ref_name, &ref, &error), "%s", error.c_str()) ||
      !S2C_CHECK(test::ReadPng(dir + "/" + dist_name, &dist, &error), "%s", error.c_str())) {
    return;
  }
  CpuReference cpu(0);
  KeepPlanes planes;
  Result result;
  if (!S2C_CHECK(cpu.Compare(ref.View(), dist.View(), &result, &planes).ok(), "Compare")) return;
  for (int scale = 0; planes.Has(scale); ++scale) CheckScale(planes, scale, dist_name, counts);
}

}  // namespace
}  // namespace s2c

// device-fp64's choice: native and integer as asked on every GPU; auto
// integer where f64 runs at 2 lanes per SM (T4 7.5, A10 8.6, L4 8.9, RTX 50
// 12.0) and native on the data-centre parts (P100 6.0, V100 7.0, A100 8.0,
// H100 and H200 9.0, B200 10.0), as the model of docs/performance.md
// predicts (D101).
static void CheckChoice() {
  using s2c::DeviceFp64;
  const struct {
    int major, minor;
    DeviceFp64 auto_path;
  } ccs[] = {{6, 0, DeviceFp64::kNative},  {7, 0, DeviceFp64::kNative},
             {7, 5, DeviceFp64::kInteger}, {8, 0, DeviceFp64::kNative},
             {8, 6, DeviceFp64::kInteger}, {8, 9, DeviceFp64::kInteger},
             {9, 0, DeviceFp64::kNative},  {10, 0, DeviceFp64::kNative},
             {12, 0, DeviceFp64::kInteger}};
  for (const auto& cc : ccs) {
    S2C_CHECK(s2c::ResolveDeviceFp64(DeviceFp64::kNative, cc.major, cc.minor) ==
              DeviceFp64::kNative);
    S2C_CHECK(s2c::ResolveDeviceFp64(DeviceFp64::kInteger, cc.major, cc.minor) ==
              DeviceFp64::kInteger);
    S2C_CHECK(s2c::ResolveDeviceFp64(DeviceFp64::kAuto, cc.major, cc.minor) == cc.auto_path,
              "auto on %d.%d", cc.major, cc.minor);
  }
  S2C_CHECK(s2c::Fp64LanesPerSm(9, 0) == 64 && s2c::Fp64LanesPerSm(8, 9) == 2 &&
            s2c::Fp64LanesPerSm(7, 5) == 2);
}

int main() {
  CheckChoice();
  s2c::Counts counts;
  s2c::CheckPair("flower_small.png", "flower_small_q30.png", &counts);
  s2c::CheckPair("flower_small.png", "flower_small_q90.png", &counts);
  s2c::CheckPair("flower_small.png", "flower_small.png", &counts);
  s2c::CheckPair("tank_source.png", "tank_distorted16.png", &counts);
  std::printf("%lld pixels' prepared values and terms, %lld sums; %lld of %lld chunks taken "
              "under their float plans; of %lld runs of %d increments, %lld decided in f32 "
              "(the f64 fast rule takes %lld)\n",
              static_cast<long long>(counts.pixels), static_cast<long long>(counts.sums),
              static_cast<long long>(counts.chunks_planned),
              static_cast<long long>(counts.chunks), static_cast<long long>(counts.runs),
              s2c::kSumThreadTerms, static_cast<long long>(counts.runs_decided),
              static_cast<long long>(counts.runs_fast));
  S2C_CHECK(counts.pixels > 0 && counts.chunks_planned * 10 >= counts.chunks * 7,
            "at least 70%% of the chunks taken under their float plans");
  S2C_CHECK(counts.runs_decided * 10 >= counts.runs_fast * 9,
            "the runs decided in f32 at least 90%% of those the f64 fast rule takes");
  return s2c::test::Finish();
}
