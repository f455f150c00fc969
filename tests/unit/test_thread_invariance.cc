// SPDX-License-Identifier: BSD-3-Clause
// The thread count never changes a result: at 1, 2, 4 and 7 threads, odd
// sizes give the same bits in every float plane the CPU reference produces
// (seen through its PlaneObserver), in all sub-scores and in the score.
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "check.h"
#include "cpu/cpu_reference.h"
#include "synthetic.h"

namespace {

using s2c::test::Degradation;

// FNV-1a over the bits of every plane, keyed by (stage, scale, image, channel).
class PlaneHashes : public s2c::PlaneObserver {
 public:
  using Key = std::tuple<int, int, int, int>;
  void OnPlane(s2c::Stage stage, int scale, int image, int channel,
               const s2c::PlaneView& plane) override {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int y = 0; y < plane.height; ++y) {
      for (int x = 0; x < plane.width; ++x) {
        h = (h ^ s2c::test::Bits(plane.Row(y)[x])) * 0x100000001b3ull;
      }
    }
    hashes[Key(static_cast<int>(stage), scale, image, channel)] = h;
  }
  std::map<Key, uint64_t> hashes;
};

struct Run {
  s2c::Result result;
  PlaneHashes planes;
};

void CheckSame(const Run& a, const Run& b, const char* what, int threads) {
  char name[160];
  std::snprintf(name, sizeof(name), "%s, %d threads: score", what, threads);
  S2C_CHECK_SAME(b.result.score, a.result.score, "%s", name);
  double va[s2c::kNumWeights], vb[s2c::kNumWeights];
  const int na = a.result.subscores.InWeightOrder(va);
  const int nb = b.result.subscores.InWeightOrder(vb);
  S2C_CHECK(na == nb, "%s, %d threads: %d sub-scores, 1 thread %d", what, threads, nb, na);
  for (int i = 0; i < na && i < nb; ++i) {
    std::snprintf(name, sizeof(name), "%s, %d threads: sub-score %d", what, threads, i);
    S2C_CHECK_SAME(vb[i], va[i], "%s", name);
  }
  S2C_CHECK(a.planes.hashes == b.planes.hashes && !a.planes.hashes.empty(),
            "%s, %d threads: the planes differ from those of 1 thread", what, threads);
}

}  // namespace

int main() {
  struct Case {
    int width, height, max_value;
    Degradation degradation;
  };
  const Case cases[] = {
      {9, 17, 255, Degradation::kNoise},
      {33, 31, 65535, Degradation::kBlur},
      {113, 113, 255, Degradation::kBlockShift},
      {509, 331, 255, Degradation::kQuantise},
      {1001, 777, 65535, Degradation::kNoise},
  };
  const int kThreads[] = {1, 2, 4, 7};
  std::vector<std::unique_ptr<s2c::CpuReference>> cpus;
  for (int threads : kThreads) cpus.emplace_back(new s2c::CpuReference(threads));
  uint64_t seed = 100;
  for (const Case& k : cases) {
    const auto ref = s2c::test::MakeScene(k.width, k.height, k.max_value, ++seed);
    const auto dist = s2c::test::Degrade(ref, k.degradation, ++seed);
    const auto ref_frame = s2c::test::ToHostImage(ref);
    const auto dist_frame = s2c::test::ToHostImage(dist);
    char what[96];
    std::snprintf(what, sizeof(what), "%dx%d %d-bit %s", k.width, k.height,
                  k.max_value > 255 ? 16 : 8, s2c::test::DegradationName(k.degradation));
    std::vector<Run> runs(cpus.size());
    for (size_t i = 0; i < cpus.size(); ++i) {
      const s2c::Status st = cpus[i]->Compare(ref_frame.View(), dist_frame.View(),
                                              &runs[i].result, &runs[i].planes);
      S2C_CHECK(st.ok(), "%s: %s", what, st.message().c_str());
      S2C_CHECK(cpus[i]->threads() == kThreads[i], "pool of %d threads has %d",
                kThreads[i], cpus[i]->threads());
      if (i > 0) CheckSame(runs[0], runs[i], what, cpus[i]->threads());
    }
    std::printf("%-28s score %.17g, %zu planes\n", what, runs[0].result.score,
                runs[0].planes.hashes.size());
  }
  return s2c::test::Finish();
}
