// SPDX-License-Identifier: BSD-3-Clause
// End-to-end throughput of the element from system memory: two appsrcs feed
// prepared I420 frames (frame_feed.h) into ssimulacra2cmp, fakesink after
// it.
// Frames per second = (N_long - N_short) / (t_long - t_short) over two runs
// after an untimed one: each run's start-up (pipeline, CUDA context,
// workspace allocation) cancels out. It then
// scores the first frames on both backends and checks the doubles are equal.
// Trailing `property=value` arguments set more of the element's properties
// on every run (for example `align=auto` beside `align=off`, to measure what
// alignment costs).
//
//   bench_element [width height [frames [backend [max-in-flight [property=value ...]]]]]
//   defaults: 3840 2160 400 cuda 4
#include <gst/gst.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "frame_feed.h"
#include "pipeline_run.h"

namespace {

using s2c_bench::Feed;
using s2c_bench::Frames;
using s2c_bench::kDistinctFrames;

// The process's CPU time (user and system, all threads) so far, in seconds.
double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

struct Run {
  double seconds = 0;
  double cpu_seconds = 0;  // the process's CPU time during the run
  s2c_test::RunResult result;
};

Run RunFrames(int w, int h, int n, const std::string& backend, const std::string& in_flight,
              const std::vector<std::string>& extra, const Frames* ref, const Frames* dist) {
  Feed feeds[2] = {{ref, n, 0}, {dist, n, 0}};
  std::vector<std::string> properties = {"backend=" + backend, "max-in-flight=" + in_flight};
  properties.insert(properties.end(), extra.begin(), extra.end());
  Run run;
  const double cpu0 = ProcessCpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  run.result = s2c_test::RunPipeline(
      s2c_bench::FedPipeline(w, h, ""), properties,
      [&feeds](GstElement* pipeline) {
        s2c_bench::ConnectFeeds(pipeline, "", &feeds[0], &feeds[1]);
      });
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.cpu_seconds = ProcessCpuSeconds() - cpu0;
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const int w = argc > 2 ? std::atoi(argv[1]) : 3840;
  const int h = argc > 2 ? std::atoi(argv[2]) : 2160;
  const int n = argc > 3 ? std::atoi(argv[3]) : 400;
  const std::string backend = argc > 4 ? argv[4] : "cuda";
  const std::string in_flight = argc > 5 ? argv[5] : "4";
  const std::vector<std::string> extra(argv + (argc > 6 ? 6 : argc), argv + argc);
  std::string extra_text;
  for (const std::string& p : extra) extra_text += " " + p;
  const Frames ref = s2c_bench::MakeFrames(w, h, false);
  const Frames dist = s2c_bench::MakeFrames(w, h, true);

  const int n_short = n / 8 > 8 ? n / 8 : 8;
  // A first run, not timed, pays what only the process's first pipeline
  // pays (the plugin's loading, the CUDA runtime's start, the kernels'
  // lazy loading); without it those costs fell in the short run only and
  // the difference overstated the rate (1080p: 8836 pairs/s printed where
  // the GPU alone allows about 2200).
  RunFrames(w, h, n_short, backend, in_flight, extra, &ref, &dist);
  const Run warm = RunFrames(w, h, n_short, backend, in_flight, extra, &ref, &dist);
  const Run full = RunFrames(w, h, n, backend, in_flight, extra, &ref, &dist);
  for (const Run* r : {&warm, &full}) {
    for (const std::string& e : r->result.errors) std::printf("error: %s\n", e.c_str());
  }
  if (full.result.frames.size() != static_cast<size_t>(n)) {
    std::printf("%dx%d: %zu of %d pairs scored, no timing\n", w, h, full.result.frames.size(), n);
    return 1;
  }
  const double fps = (n - n_short) / (full.seconds - warm.seconds);
  std::printf("%dx%d I420 from system memory, backend=%s max-in-flight=%s%s: %d pairs in %.3f s, "
              "%d in %.3f s -> %.1f pairs/s (%.3f ms per pair), %zu scored\n",
              w, h, backend.c_str(), in_flight.c_str(), extra_text.c_str(), n_short, warm.seconds,
              n, full.seconds,
              fps, 1000.0 / fps, full.result.frames.size());
  // CPU time per pair, by the same difference: what the element and its
  // backend spent, whatever else the machine ran meanwhile.
  std::printf("process CPU time: %.3f ms per pair\n",
              1000.0 * (full.cpu_seconds - warm.cpu_seconds) / (n - n_short));

  // The same first frames on the CPU backend: the doubles must be equal.
  const Run cpu = RunFrames(w, h, kDistinctFrames, "cpu", "1", extra, &ref, &dist);
  int equal = 0;
  for (int i = 0; i < kDistinctFrames && i < static_cast<int>(cpu.result.frames.size()) &&
                  i < static_cast<int>(full.result.frames.size());
       ++i) {
    const double a = full.result.frames[i].score, b = cpu.result.frames[i].score;
    const bool same = std::memcmp(&a, &b, sizeof a) == 0;
    equal += same;
    std::printf("frame %d: %s %.17g, cpu %.17g %s\n", i, backend.c_str(), a, b,
                same ? "equal" : "DIFFERENT");
  }
  if (!full.result.summaries.empty()) {
    const s2c::SummaryMessage& summary = full.result.summaries.back();
    if (!summary.offsets.empty()) {
      std::printf("alignment: offsets %s, %" G_GUINT64_FORMAT " pairs flagged\n",
                  summary.offsets.c_str(), summary.align_flagged);
    }
  }
  std::printf("%d of %d frames equal to the CPU backend\n", equal, kDistinctFrames);
  return equal == kDistinctFrames && full.result.errors.empty() ? 0 : 1;
}
