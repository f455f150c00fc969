// SPDX-License-Identifier: BSD-3-Clause
// CPU reference timing: milliseconds per pair for generated 1080p and 4K
// 8-bit RGB pairs (SSIMULACRA 2) and 8-bit I420 pairs (SSIM),
// single-threaded and on all cores; the median of several runs after one
// warm-up run. Frames are in memory (no decoding is timed).
// Besides wall time it prints the process's CPU time per pair (all threads),
// which other load on a shared machine inflates less than wall time.
// Usage: bench_cpu [runs]   (default 7)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "cpu/cpu_reference.h"
#include "cpu/ssim_reference.h"
#include "synthetic.h"
#include "thread_pool.h"

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

// `compare()` once to warm up, then `runs` timed calls; it returns the
// score, or NaN when it fails.
template <class Compare>
Timing Measure(int runs, const Compare& compare) {
  if (std::isnan(compare())) return Timing{-1.0, -1.0, 0.0};  // warm-up
  std::vector<double> wall, cpu_time;
  double score = 0.0;
  for (int i = 0; i < runs; ++i) {
    const double c0 = CpuMs();
    const auto t0 = std::chrono::steady_clock::now();
    score = compare();
    const auto t1 = std::chrono::steady_clock::now();
    cpu_time.push_back(CpuMs() - c0);
    wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return Timing{Median(wall), Median(cpu_time), score};
}

// An I420 frame: a gradient with edges, plus noise from `seed` when > 0.
std::vector<uint8_t> MakeI420(int w, int h, unsigned seed, s2c::FrameView* view) {
  const size_t luma = static_cast<size_t>(w) * h;
  const size_t chroma = static_cast<size_t>((w + 1) / 2) * ((h + 1) / 2);
  std::vector<uint8_t> bytes(luma + 2 * chroma);
  for (size_t i = 0; i < bytes.size(); ++i) {
    const int x = static_cast<int>(i % w), y = static_cast<int>(i / w % h);
    int v = (x * 220 / w + (y / 64 % 2) * 30) % 220 + 16;
    if (seed > 0) {
      seed = seed * 1103515245u + 12345u;
      v += static_cast<int>((seed >> 16) % 9) - 4;
    }
    bytes[i] = static_cast<uint8_t>(v);
  }
  view->desc.format = s2c::PixelFormat::kI420;
  view->desc.width = w;
  view->desc.height = h;
  view->data[0] = bytes.data();
  view->data[1] = bytes.data() + luma;
  view->data[2] = bytes.data() + luma + chroma;
  view->stride[0] = w;
  view->stride[1] = view->stride[2] = (w + 1) / 2;
  return bytes;
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
      const Timing t = Measure(runs, [&] {
        s2c::Result r;
        return cpu->Compare(ref.View(), dist.View(), &r).ok() ? r.score : NAN;
      });
      std::printf("%-5s %dx%d  %2d thread(s): %8.1f ms per pair, CPU %8.1f ms  (score %.8f)\n",
                  s.name, s.w, s.h, cpu->threads(), t.wall_ms, t.cpu_ms, t.score);
    }
  }
  s2c::ThreadPool one(1), every(0);
  for (const Size& s : sizes) {
    s2c::FrameView ref, dist;
    const std::vector<uint8_t> ref_bytes = MakeI420(s.w, s.h, 0, &ref);
    const std::vector<uint8_t> dist_bytes = MakeI420(s.w, s.h, 7, &dist);
    for (s2c::ThreadPool* pool : {&one, &every}) {
      const Timing t = Measure(runs, [&] {
        s2c::SsimResult r;
        return s2c::SsimCompare(ref, dist, &r, pool).ok() ? r.combined : NAN;
      });
      std::printf("SSIM  %-5s %dx%d I420  %2d thread(s): %8.1f ms per pair, CPU %8.1f ms  "
                  "(ssim %.8f)\n",
                  s.name, s.w, s.h, pool->size(), t.wall_ms, t.cpu_ms, t.score);
    }
  }
  return 0;
}
