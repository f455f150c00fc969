// SPDX-License-Identifier: BSD-3-Clause
// Layer 1 of the exactness contract on generated pairs: for every size class
// (the 8x8 minimum, odd sizes, 112x200 with five scales and so the weight
// quirk, 1080p) and for 8- and 16-bit samples (also mixed in one pair), the CPU reference's score and
// all 18 * num_scales sub-scores have the same bits as those of the scalar
// oracle, ../shared/reference/ssimu2_oracle.cc. The oracle is compiled into
// this file unchanged (its main renamed), reads the pairs through its own
// ReadPPM and runs the stages its main runs. Without ../shared this test
// reports "skipped".
#include <cstdio>

#include "check.h"

#ifndef S2C_ORACLE_SOURCE

int main() {
  return s2c::test::Skip("the oracle, ../shared/reference/ssimu2_oracle.cc, was not there at "
                         "configure time");
}

#else

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#define main ssimu2_oracle_main
#include S2C_ORACLE_SOURCE
#undef main
#pragma GCC diagnostic pop

#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "cpu/cpu_reference.h"
#include "synthetic.h"

namespace {

using s2c::test::Degradation;
using s2c::test::SampleImage;

// The oracle's main from reading the files to the score, stage for stage.
bool OracleCompare(const std::string& a_path, const std::string& b_path,
                   std::vector<ScaleRes>* res, double* score) {
  Img3 a, b;
  if (!ReadPPM(a_path.c_str(), &a) || !ReadPPM(b_path.c_str(), &b)) return false;
  const RG rg = MakeRG(1.5);
  for (int c = 0; c < 3; ++c) {
    for (auto* im : {&a, &b}) {
      for (auto& v : im->p[c].v) v = SrgbToLinear(v);
    }
  }
  res->clear();
  for (int scale = 0; scale < 6; ++scale) {
    if (a.w() < 8 || a.h() < 8) break;
    if (scale) {
      a = Downsample2(a);
      b = Downsample2(b);
    }
    Img3 x1 = LinearToPositiveXYB(a), x2 = LinearToPositiveXYB(b);
    Img3 s11 = Blur3(rg, Mul3(x1, x1));
    Img3 s22 = Blur3(rg, Mul3(x2, x2));
    Img3 s12 = Blur3(rg, Mul3(x1, x2));
    Img3 mu1 = Blur3(rg, x1), mu2 = Blur3(rg, x2);
    ScaleRes r;
    SSIMMap(mu1, mu2, s11, s22, s12, r.ssim);
    EdgeDiffMap(x1, mu1, x2, mu2, r.edge);
    res->push_back(r);
  }
  *score = Score(*res);
  return true;
}

struct Case {
  int width, height, max_value;
  uint64_t seed;
  Degradation degradation;
};

void CheckPair(const SampleImage& ref, const SampleImage& dist, const char* what,
               const std::string& dir, s2c::CpuReference& cpu) {
  const std::string a = dir + "/ref.ppm", b = dir + "/dist.ppm";
  S2C_CHECK(s2c::test::WritePpm(ref, a) && s2c::test::WritePpm(dist, b),
            "%s: cannot write PPMs to %s", what, dir.c_str());
  std::vector<ScaleRes> expected;
  double expected_score = 0.0;
  const bool oracle_ok = OracleCompare(a, b, &expected, &expected_score);
  unlink(a.c_str());
  unlink(b.c_str());
  S2C_CHECK(oracle_ok, "%s: the oracle could not read the pair", what);
  if (!oracle_ok) return;

  const s2c::test::HostImage ref_frame = s2c::test::ToHostImage(ref);
  const s2c::test::HostImage dist_frame = s2c::test::ToHostImage(dist);
  s2c::Result got;
  const s2c::Status st = cpu.Compare(ref_frame.View(), dist_frame.View(), &got);
  S2C_CHECK(st.ok(), "%s: %s", what, st.message().c_str());
  if (!st.ok()) return;

  const int scales = static_cast<int>(expected.size());
  S2C_CHECK(got.subscores.num_scales == scales, "%s: %d scales, oracle %d", what,
            got.subscores.num_scales, scales);
  if (got.subscores.num_scales != scales) return;
  char name[192];
  for (int s = 0; s < scales; ++s) {
    for (int i = 0; i < 6; ++i) {
      std::snprintf(name, sizeof(name), "%s scale %d ssim[%d]", what, s, i);
      S2C_CHECK_SAME(got.subscores.scale[s].ssim[i], expected[s].ssim[i], "%s", name);
    }
    for (int i = 0; i < 12; ++i) {
      std::snprintf(name, sizeof(name), "%s scale %d edge[%d]", what, s, i);
      S2C_CHECK_SAME(got.subscores.scale[s].edge[i], expected[s].edge[i], "%s", name);
    }
  }
  std::snprintf(name, sizeof(name), "%s score", what);
  S2C_CHECK_SAME(got.score, expected_score, "%s", name);
  std::printf("%-40s %d scales, score %.17g\n", what, scales, got.score);
}

void CheckCase(const Case& k, const std::string& dir, s2c::CpuReference& cpu) {
  const SampleImage ref = s2c::test::MakeScene(k.width, k.height, k.max_value, k.seed);
  const SampleImage dist = s2c::test::Degrade(ref, k.degradation, k.seed + 1000);
  char what[128];
  std::snprintf(what, sizeof(what), "%dx%d %d-bit seed %llu %s", k.width,
                k.height, k.max_value > 255 ? 16 : 8,
                static_cast<unsigned long long>(k.seed),
                s2c::test::DegradationName(k.degradation));
  CheckPair(ref, dist, what, dir, cpu);
}

// Mixed depths, like the tank pair: a 16-bit image against its rounding to
// 8 bits.
void CheckMixedDepths(int width, int height, uint64_t seed, const std::string& dir,
                      s2c::CpuReference& cpu) {
  const SampleImage ref = s2c::test::MakeScene(width, height, 65535, seed);
  SampleImage dist = ref;
  dist.max_value = 255;
  for (uint16_t& v : dist.rgb) v = static_cast<uint16_t>((v * 255u + 32767u) / 65535u);
  char what[128];
  std::snprintf(what, sizeof(what), "%dx%d 16-bit vs its 8-bit rounding", width, height);
  CheckPair(ref, dist, what, dir, cpu);
}

}  // namespace

int main() {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/s2c_oracle_XXXXXX";
  if (!S2C_CHECK(mkdtemp(&dir[0]) != nullptr, "cannot create a directory like %s", dir.c_str())) {
    return s2c::test::Finish();
  }
  constexpr int k8 = 255, k16 = 65535;
  const Case cases[] = {
      {8, 8, k8, 1, Degradation::kBlur},
      {8, 8, k8, 2, Degradation::kNoise},
      {9, 17, k8, 3, Degradation::kBlockShift},
      {33, 31, k8, 4, Degradation::kQuantise},
      {33, 31, k8, 5, Degradation::kNoise},
      {112, 200, k8, 6, Degradation::kBlur},       // five scales
      {112, 200, k8, 7, Degradation::kBlockShift},
      {113, 113, k8, 8, Degradation::kNoise},
      {113, 113, k8, 9, Degradation::kQuantise},
      {509, 331, k8, 10, Degradation::kBlockShift},
      {509, 331, k8, 11, Degradation::kBlur},
      {1920, 1080, k8, 12, Degradation::kQuantise},
      {8, 8, k16, 13, Degradation::kNoise},
      {33, 31, k16, 14, Degradation::kBlur},
      {112, 200, k16, 15, Degradation::kQuantise},
      {509, 331, k16, 16, Degradation::kNoise},
  };
  s2c::CpuReference cpu(0);
  for (const Case& k : cases) CheckCase(k, dir, cpu);
  CheckMixedDepths(33, 31, 17, dir, cpu);
  CheckMixedDepths(509, 331, 18, dir, cpu);
  rmdir(dir.c_str());
  return s2c::test::Finish();
}

#endif  // S2C_ORACLE_SOURCE
