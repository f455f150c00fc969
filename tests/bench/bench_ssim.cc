// SPDX-License-Identifier: BSD-3-Clause
// Benchmark of SSIM on the CUDA backend (not a test), device input, in one
// run: SSIMULACRA 2 alone, SSIM alone with exact and with tree sums, and
// both metrics, each one pair at a time and with several in flight (wall
// clock per pair, median of up to 5 runs after a warm-up, graphs as the
// backend replays them). Prints the ratios: exact SSIM over tree
// SSIM, and both metrics over SSIMULACRA 2 alone. The exact SSIM of the
// benchmark's pair is checked against the CPU reference (==).
// Usage: bench_ssim [pairs] [seconds-per-config] [depth (6)] [WxH ...]
// S2C_BENCH_CONFIG="ssim exact" (a configuration's name) runs that one
// alone, e.g. under a profiler.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "backend_timing.h"
#include "check.h"
#include "cpu/ssim_reference.h"
#include "cuda/cuda_backend.h"
#include "generated_frames.h"
#include "placed_frame.h"
#include "thread_pool.h"

namespace {

using s2c::PixelFormat;
using s2c::test::Check;
using s2c::test::Placement;
using s2c::test::PlacedFrame;

struct Config {
  const char* name;
  unsigned metrics;
  s2c::CudaSumMode mode;
};

constexpr Config kConfigs[] = {
    {"ssimulacra2 exact", s2c::kMetricSsimulacra2, s2c::CudaSumMode::kExact},
    {"ssim exact", s2c::kMetricSsim, s2c::CudaSumMode::kExact},
    {"ssim tree", s2c::kMetricSsim, s2c::CudaSumMode::kTree},
    {"both exact", s2c::kAllMetrics, s2c::CudaSumMode::kExact},
};

}  // namespace

int main(int argc, char** argv) {
  const int pairs = argc > 1 ? std::atoi(argv[1]) : 60;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 3.0;
  const int depth = argc > 3 ? std::max(2, std::atoi(argv[3])) : 6;
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  std::printf("GPU: %s, %d SMs; device input; %d pairs per run\n", prop.name,
              prop.multiProcessorCount, pairs);
  struct Case {
    int w, h;
    PixelFormat f;
  };
  std::vector<Case> cases;
  for (int i = 4; i < argc; ++i) {
    int w = 0, h = 0;
    if (std::sscanf(argv[i], "%dx%d", &w, &h) == 2) cases.push_back({w, h, PixelFormat::kI420});
  }
  if (cases.empty()) {
    cases = {{3840, 2160, PixelFormat::kI420},
             {3840, 2160, PixelFormat::kI420_10LE},
             {1920, 1080, PixelFormat::kI420}};
  }
  std::printf("%-9s %-10s %-18s %12s %12s\n", "size", "format", "metrics", "1 flight ms",
              std::to_string(depth).append(" flight ms").c_str());
  int failures = 0;
  s2c::ThreadPool pool(0);
  for (const Case& c : cases) {
    const s2c::test::Frame ref = s2c::test::MakeFrame(c.f, c.w, c.h, 1, 0);
    const s2c::test::Frame dist = s2c::test::MakeFrame(c.f, c.w, c.h, 2, 6);
    s2c::SsimResult cpu;
    if (!Check(s2c::SsimCompare(ref.View(), dist.View(), &cpu, &pool), "CPU SSIM")) return 1;
    const PlacedFrame pr(ref, Placement::kDevice), pd(dist, Placement::kDevice);
    double ms[std::size(kConfigs)][2] = {};
    const char* only = std::getenv("S2C_BENCH_CONFIG");
    for (size_t k = 0; k < std::size(kConfigs); ++k) {
      const Config& cfg = kConfigs[k];
      if (only != nullptr && std::strcmp(only, cfg.name) != 0) continue;
      s2c::CudaBackendOptions o;
      o.max_in_flight = depth;
      o.sum_mode = cfg.mode;
      std::unique_ptr<s2c::CudaBackend> b;
      if (!Check(s2c::MakeCudaBackend(o, &b), "backend") ||
          !Check(b->SetMetrics(cfg.metrics), "metrics") || !Check(b->Configure(c.w, c.h), "size")) {
        return 1;
      }
      const s2c::test::Timing one =
          s2c::test::Throughput(*b, pr.view, pd.view, s2c::MemoryKind::kDevice, 1, pairs, seconds);
      const s2c::test::Timing deep = s2c::test::Throughput(*b, pr.view, pd.view,
                                                           s2c::MemoryKind::kDevice, depth,
                                                           std::max(pairs, 2 * depth), seconds);
      ms[k][0] = one.per_pair_ms;
      ms[k][1] = deep.per_pair_ms;
      std::string check;
      if ((cfg.metrics & s2c::kMetricSsim) && cfg.mode == s2c::CudaSumMode::kExact) {
        using s2c::test::SameBits;
        const bool same = SameBits(deep.last.ssim.combined, cpu.combined) &&
                          SameBits(deep.last.ssim.plane[0], cpu.plane[0]) &&
                          SameBits(deep.last.ssim.plane[1], cpu.plane[1]) &&
                          SameBits(deep.last.ssim.plane[2], cpu.plane[2]);
        failures += !same;
        char text[96];
        std::snprintf(text, sizeof text, "ssim %.17g %s", deep.last.ssim.combined,
                      same ? "== CPU" : "DIFFERS FROM CPU");
        check = text;
      }
      if (cfg.metrics & s2c::kMetricSsimulacra2) check += " score " + std::to_string(deep.score);
      std::printf("%4dx%-4d %-10s %-18s %12.3f %12.3f  %s  (%.0f MiB on the device)\n", c.w, c.h,
                  s2c::PixelFormatName(c.f), cfg.name, ms[k][0], ms[k][1], check.c_str(),
                  b->DeviceBytes() / 1048576.0);
    }
    std::printf("  ratios (1 flight / %d flight): exact ssim / tree ssim %.3f / %.3f; "
                "both / ssimulacra2 alone %.3f / %.3f\n",
                depth, ms[1][0] / ms[2][0], ms[1][1] / ms[2][1], ms[3][0] / ms[0][0],
                ms[3][1] / ms[0][1]);
  }
  return failures ? 1 : 0;
}
