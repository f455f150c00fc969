// SPDX-License-Identifier: BSD-3-Clause
// CPU reference timing: milliseconds per pair for generated 1080p and 4K
// 8-bit RGB pairs, single-threaded and on all cores; the median of several
// runs after one warm-up run. Frames are in memory (no decoding is timed).
// Besides wall time it prints the process's CPU time per pair (all threads),
// which other load on a shared machine inflates less than wall time.
// Usage: bench_cpu [runs]   (default 7)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "cpu_reference.h"
#include "synthetic.h"

namespace {

using s2c::test::Degradation;

double CpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Timing {
  double wall_ms, cpu_ms, score;
};

Timing Measure(s2c::CpuReference& cpu, const s2c::FrameView& ref,
               const s2c::FrameView& dist, int runs) {
  s2c::Result r;
  if (!cpu.Compare(ref, dist, &r).ok()) return Timing{-1.0, -1.0, 0.0};  // warm-up
  std::vector<double> wall, cpu_time;
  for (int i = 0; i < runs; ++i) {
    const double c0 = CpuMs();
    const auto t0 = std::chrono::steady_clock::now();
    cpu.Compare(ref, dist, &r);
    const auto t1 = std::chrono::steady_clock::now();
    cpu_time.push_back(CpuMs() - c0);
    wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return Timing{Median(wall), Median(cpu_time), r.score};
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  struct Size {
    const char* name;
    int w, h;
  };
  const Size sizes[] = {{"1080p", 1920, 1080}, {"4K", 3840, 2160}};
  s2c::CpuReference single(1), all(0);
  std::printf("median of %d runs after a warm-up; all cores = %d threads\n", runs,
              all.threads());
  for (const Size& s : sizes) {
    const auto ref_img = s2c::test::MakeScene(s.w, s.h, 255, 1);
    const auto dist_img = s2c::test::Degrade(ref_img, Degradation::kNoise, 2);
    const auto ref = s2c::test::ToHostImage(ref_img);
    const auto dist = s2c::test::ToHostImage(dist_img);
    for (s2c::CpuReference* cpu : {&single, &all}) {
      const Timing t = Measure(*cpu, ref.View(), dist.View(), runs);
      std::printf("%-5s %dx%d  %2d thread(s): %8.1f ms per pair, CPU %8.1f ms  (score %.8f)\n",
                  s.name, s.w, s.h, cpu->threads(), t.wall_ms, t.cpu_ms, t.score);
    }
  }
  return 0;
}
