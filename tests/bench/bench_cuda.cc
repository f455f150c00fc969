// SPDX-License-Identifier: BSD-3-Clause
// Benchmark of the CUDA backend (not a test): ms per frame pair at 1080p and
// 4K, 8-bit I420 and 10-bit I420_10LE, exact sums and plain tree sums, from
// device memory (kernels only) and from pinned host memory (upload
// included), one pair at a time and several in flight. Per configuration:
// warm-up pairs excluded, then the median of the timed pairs.
//   one at a time: device events around the whole pipeline of each pair
//     (the backend's stage events; sum of the stages also printed);
//   in flight: wall clock over a run of pairs with 1, 3 or max-depth in
//     flight, divided by the number of pairs (median of up to 5 runs),
//     without stage events, each pair enqueued call by call and, in the same
//     run, as the backend's CUDA graphs (use_graphs), so the two compare as a
//     ratio. "1 flight" is the latency of one pair as a caller sees it:
//     submit, wait, collect, host overheads included.
// Usage: bench_cuda [pairs] [seconds-per-config] [max-depth (6)] [WxH ...]
// (on the f64 path S2C_TEST_DEVICE_FP64 names: native, integer, or auto,
// the default: tests/bench/profile-pipeline.sh --fp64)
//
// bench_cuda --paths [runs (30)] [WxH ...]: the two f64 paths (device-fp64
// native and integer) side by side, exact sums, 8-bit I420 from device
// memory, at 1080p and 4K: one pair at a time (device events, the median
// of `runs` pairs after 3 warm-up pairs) and 6 in flight as graphs (wall
// clock per pair, the median of up to 5 runs of `runs` pairs after a
// warm-up run), each configuration run native, integer, native, integer
// and the faster of each path's two kept; then integer/native ratios.
// The scores of both paths must be the same bits (else exit 1).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backend_timing.h"
#include "check.h"
#include "device_fp64_env.h"
#include "cuda/cuda_backend.h"
#include "generated_frames.h"
#include "placed_frame.h"

namespace {

using s2c::MemoryKind;
using s2c::PixelFormat;
using s2c::test::Frame;
using s2c::test::Placement;
using s2c::test::PlacedFrame;
using s2c::test::Check;
using s2c::test::Median;
using s2c::test::Throughput;
using s2c::test::Timing;

// One pair at a time, device-event times.
Timing Sequential(s2c::CudaBackend& b, const s2c::FrameView& ref,
                  const s2c::FrameView& dist, MemoryKind mem, int pairs,
                  double seconds) {
  Timing t;
  std::vector<double> total, stage[5];
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < pairs + 3; ++i) {
    if (!Check(b.Submit(ref, dist, mem, i), "submit")) return t;
    bool ready = false;
    uint64_t tag = 0;
    s2c::Result r;
    if (!Check(b.CollectOldest(true, &ready, &tag, &r), "collect")) return t;
    t.score = r.score;
    if (i < 3) continue;  // warm-up
    const s2c::CudaStageTimes st = b.LastStageTimes();
    const double s[5] = {st.upload, st.scale_start, st.blur_horizontal,
                         st.blur_vertical, st.sums};
    double sum = 0.0;
    for (int k = 0; k < 5; ++k) {
      stage[k].push_back(s[k]);
      sum += s[k];
    }
    total.push_back(sum);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > seconds && total.size() >= 3) break;
  }
  t.per_pair_ms = Median(total);
  for (int k = 0; k < 5; ++k) t.stages_ms[k] = Median(stage[k]);
  t.pairs = static_cast<int>(total.size());
  return t;
}

// Sizes from the arguments ("WxH"), or 1080p and 4K.
std::vector<std::pair<int, int>> Sizes(int argc, char** argv, int first) {
  std::vector<std::pair<int, int>> sizes;
  for (int i = first; i < argc; ++i) {
    int w = 0, h = 0;
    if (std::sscanf(argv[i], "%dx%d", &w, &h) == 2) sizes.push_back({w, h});
  }
  if (sizes.empty()) sizes = {{1920, 1080}, {3840, 2160}};
  return sizes;
}

std::unique_ptr<s2c::CudaBackend> MakeBackend(s2c::CudaSumMode mode, int max_depth, bool timed,
                                              bool graphs, int w, int h,
                                              s2c::DeviceFp64 fp64 = s2c::test::DeviceFp64FromEnv()) {
  s2c::CudaBackendOptions o;
  o.device_fp64 = fp64;
  o.max_in_flight = max_depth;
  o.sum_mode = mode;
  o.time_stages = timed;
  o.use_graphs = graphs;
  std::unique_ptr<s2c::CudaBackend> b;
  if (!Check(s2c::MakeCudaBackend(o, &b), "backend") || !Check(b->Configure(w, h), "configure")) {
    return nullptr;
  }
  return b;
}

// --paths (see the top).
int ComparePaths(int runs, const std::vector<std::pair<int, int>>& sizes) {
  constexpr int kDepth = 6;
  const s2c::DeviceFp64 paths[2] = {s2c::DeviceFp64::kNative, s2c::DeviceFp64::kInteger};
  int failures = 0;
  std::printf("%-9s %-8s %12s %12s\n", "size", "path", "1 pair ms", "6 flight ms");
  for (const auto& sz : sizes) {
    const int w = sz.first, h = sz.second;
    const Frame ref = s2c::test::MakeFrame(PixelFormat::kI420, w, h, 1, 0);
    const Frame dist = s2c::test::MakeFrame(PixelFormat::kI420, w, h, 2, 6);
    const PlacedFrame pr(ref, Placement::kDevice), pd(dist, Placement::kDevice);
    double one[2] = {1e30, 1e30}, flight[2] = {1e30, 1e30};
    s2c::Result result[2];
    for (int round = 0; round < 2; ++round) {
      for (int p = 0; p < 2; ++p) {
        const auto timed = MakeBackend(s2c::CudaSumMode::kExact, kDepth, true, false, w, h,
                                       paths[p]);
        const auto graphs = MakeBackend(s2c::CudaSumMode::kExact, kDepth, false, true, w, h,
                                        paths[p]);
        if (!timed || !graphs || timed->F64PathInUse() != paths[p]) return 1;
        const Timing seq = Sequential(*timed, pr.view, pd.view, MemoryKind::kDevice, runs, 1e9);
        const Timing thr = Throughput(*graphs, pr.view, pd.view, MemoryKind::kDevice, kDepth,
                                      std::max(2 * kDepth, runs), 1e9);
        one[p] = std::min(one[p], seq.per_pair_ms);
        flight[p] = std::min(flight[p], thr.per_pair_ms);
        result[p] = thr.last;
      }
    }
    for (int p = 0; p < 2; ++p) {
      std::printf("%4dx%-4d %-8s %12.3f %12.3f\n", w, h, s2c::DeviceFp64Name(paths[p]), one[p],
                  flight[p]);
    }
    const bool same = s2c::test::Bits(result[0].score) == s2c::test::Bits(result[1].score);
    failures += !same;
    std::printf("  integer/native: %.3f (1 pair), %.3f (%d in flight); scores %s (%.17g)\n",
                one[1] / one[0], flight[1] / flight[0], kDepth,
                same ? "the same bits" : "DIFFER", result[1].score);
  }
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--paths") == 0) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
      std::printf("skipped: no CUDA device\n");
      return 77;
    }
    std::printf("GPU: %s, compute capability %d.%d\n", prop.name, prop.major, prop.minor);
    return ComparePaths(argc > 2 ? std::max(3, std::atoi(argv[2])) : 30, Sizes(argc, argv, 3));
  }
  const int pairs = argc > 1 ? std::atoi(argv[1]) : 30;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 3.0;
  // Pairs in flight: 1, 3 and max_depth (pinned input: 1 and 3).
  const int max_depth = argc > 3 ? std::max(3, std::atoi(argv[3])) : 6;
  const int depths[] = {1, 3, max_depth};
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::printf("skipped: no CUDA device\n");
    return 77;
  }
  std::printf("GPU: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const PixelFormat formats[] = {PixelFormat::kI420, PixelFormat::kI420_10LE};
  const s2c::CudaSumMode modes[] = {s2c::CudaSumMode::kExact, s2c::CudaSumMode::kTree};
  std::printf("%-9s %-10s %-5s %-6s %-15s %10s %8s | %7s %7s %7s %7s %7s | %s\n", "size",
              "format", "sums", "input", "mode", "ms/pair", "pairs", "upload", "start",
              "blur_h", "blur_v", "sums", "score");
  for (const auto& sz : Sizes(argc, argv, 4)) {
    const int w = sz.first, h = sz.second;
    for (PixelFormat f : formats) {
      const Frame ref = s2c::test::MakeFrame(f, w, h, 1, 0);
      const Frame dist = s2c::test::MakeFrame(f, w, h, 2, 6);
      double deepest_ms[2][2] = {};  // [exact, tree][calls, graph], device input
      for (s2c::CudaSumMode mode : modes) {
        const int m = mode == s2c::CudaSumMode::kExact ? 0 : 1;
        const char* sums = m == 0 ? "exact" : "tree";
        for (int on_device = 1; on_device >= 0; --on_device) {
          const Placement where = on_device ? Placement::kDevice : Placement::kPinned;
          const PlacedFrame pr(ref, where), pd(dist, where);
          const MemoryKind mem = on_device ? MemoryKind::kDevice : MemoryKind::kHost;
          const char* input = on_device ? "device" : "pinned";
          {
            // One at a time, with stage events (which are enqueued call by call).
            size_t free0 = 0, free1 = 0, total = 0;
            cudaMemGetInfo(&free0, &total);
            const auto b = MakeBackend(mode, max_depth, true, false, w, h);
            if (!b) return 1;
            const Timing seq = Sequential(*b, pr.view, pd.view, mem, pairs, seconds);
            std::printf("%4dx%-4d %-10s %-5s %-6s %-15s %10.3f %8d | %7.3f %7.3f %7.3f %7.3f %7.3f | %.6f\n",
                        w, h, s2c::PixelFormatName(f), sums, input, "1 stream", seq.per_pair_ms,
                        seq.pairs, seq.stages_ms[0], seq.stages_ms[1], seq.stages_ms[2],
                        seq.stages_ms[3], seq.stages_ms[4], seq.score);
            cudaMemGetInfo(&free1, &total);
            if (on_device) {
              std::printf("  device memory: backend holds %.1f MiB for %d in flight "
                          "(%.1f MiB per pair in flight); free memory dropped by %.1f MiB\n",
                          b->DeviceBytes() / 1048576.0, max_depth,
                          b->DeviceBytes() / 1048576.0 / max_depth,
                          (double)(free0 - free1) / 1048576.0);
            }
          }
          // In flight, without stage events: call by call, then as graphs.
          for (int graphs = 0; graphs <= 1; ++graphs) {
            const auto b = MakeBackend(mode, max_depth, false, graphs, w, h);
            if (!b) return 1;
            for (int depth : depths) {
              if (!on_device && depth == max_depth) continue;
              // Pairs per timed run: enough for the budget, at least 2 x depth.
              const int run_pairs = std::max(2 * depth, pairs);
              const Timing thr = Throughput(*b, pr.view, pd.view, mem, depth, run_pairs, seconds);
              const std::string how = std::to_string(depth) + " flight " +
                                      (graphs ? (b->GraphsInUse() ? "graph" : "graph-FAILED")
                                              : "calls");
              std::printf("%4dx%-4d %-10s %-5s %-6s %-15s %10.3f %8d | %47s | %.6f\n", w, h,
                          s2c::PixelFormatName(f), sums, input, how.c_str(), thr.per_pair_ms,
                          thr.pairs, "", thr.score);
              if (on_device && depth == max_depth) deepest_ms[m][graphs] = thr.per_pair_ms;
            }
          }
        }
      }
      auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
      std::printf("  device input, %d in flight: exact/tree %.3f (graphs), %.3f (calls); "
                  "graph/calls %.3f (exact), %.3f (tree)\n",
                  max_depth, ratio(deepest_ms[0][1], deepest_ms[1][1]),
                  ratio(deepest_ms[0][0], deepest_ms[1][0]),
                  ratio(deepest_ms[0][1], deepest_ms[0][0]),
                  ratio(deepest_ms[1][1], deepest_ms[1][0]));
    }
  }
  return 0;
}
