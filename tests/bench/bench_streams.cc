// SPDX-License-Identifier: BSD-3-Clause
// Many streams in one process: N pipelines, each appsrc x2
// (frame_feed.h) -> ssimulacra2cmp -> fakesink, all playing at once, element
// i on CUDA device devices[i % count]. Aggregate pairs per second =
// N * (n_long - n_short) / (t_long - t_short) over two runs after an untimed
// one, so start-up cancels out. Every score of every stream is checked
// against the CPU backend's score of the same pair (the feeds cycle through
// kDistinctFrames pairs).
//
//   bench_streams width height frames streams devices [max-in-flight]
//   e.g. bench_streams 1920 1080 600 16 0      (16 streams on device 0)
//        bench_streams 3840 2160 300 2 0,1     (one element per device)
//        bench_streams 320 240 40 3 cpu        (the CPU backend)
#include <gst/gst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "frame_feed.h"
#include "pipeline_run.h"

namespace {

using s2c_bench::Feed;
using s2c_bench::Frames;
using s2c_bench::kDistinctFrames;

struct Stream {
  GstElement* pipeline = nullptr;
  Feed ref, dist;
  s2c_test::RunResult result;
  bool done = false;
};

struct Config {
  int width = 0, height = 0;
  std::string backend = "cuda";
  std::vector<int> devices;
  std::string max_in_flight = "4";
};

// Plays `count` streams of `n` pairs each to their ends; returns seconds.
double RunStreams(const Config& c, int count, int n, const Frames& ref, const Frames& dist,
                  std::vector<std::unique_ptr<Stream>>* streams) {
  streams->clear();
  for (int i = 0; i < count; ++i) {
    auto s = std::make_unique<Stream>();
    GError* error = nullptr;
    s->pipeline = gst_parse_launch(s2c_bench::FedPipeline(c.width, c.height, "").c_str(), &error);
    if (s->pipeline == nullptr) {
      std::printf("error: %s\n", error->message);
      std::exit(1);
    }
    GstElement* cmp = gst_bin_get_by_name(GST_BIN(s->pipeline), "cmp");
    gst_util_set_object_arg(G_OBJECT(cmp), "backend", c.backend.c_str());
    gst_util_set_object_arg(G_OBJECT(cmp), "max-in-flight", c.max_in_flight.c_str());
    if (c.backend == "cuda") {
      g_object_set(cmp, "cuda-device-id", c.devices[i % c.devices.size()], nullptr);
    }
    gst_object_unref(cmp);
    s->ref = {&ref, n, 0};
    s->dist = {&dist, n, 0};
    s2c_bench::ConnectFeeds(s->pipeline, "", &s->ref, &s->dist);
    streams->push_back(std::move(s));
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (auto& s : *streams) gst_element_set_state(s->pipeline, GST_STATE_PLAYING);
  for (int left = count; left > 0;) {
    bool idle = true;
    for (auto& s : *streams) {
      if (s->done) continue;
      GstBus* bus = gst_element_get_bus(s->pipeline);
      while (GstMessage* m = gst_bus_pop(bus)) {
        idle = false;
        if (s2c_test::Collect(m, &s->result) && !s->done) {
          s->done = true;
          --left;
        }
        gst_message_unref(m);
      }
      gst_object_unref(bus);
    }
    if (idle) g_usleep(500);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (auto& s : *streams) {
    gst_element_set_state(s->pipeline, GST_STATE_NULL);
    gst_object_unref(s->pipeline);
    s->pipeline = nullptr;
  }
  return seconds;
}

std::vector<int> ParseDevices(const char* text) {
  std::vector<int> devices;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) devices.push_back(std::atoi(item.c_str()));
  return devices;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  if (argc < 6) {
    std::printf("usage: bench_streams width height frames streams devices [max-in-flight]\n");
    return 2;
  }
  Config c;
  c.width = std::atoi(argv[1]);
  c.height = std::atoi(argv[2]);
  const int n = std::atoi(argv[3]);
  const int count = std::atoi(argv[4]);
  if (std::strcmp(argv[5], "cpu") == 0) {
    c.backend = "cpu";
  } else {
    c.devices = ParseDevices(argv[5]);
  }
  if (argc > 6) c.max_in_flight = argv[6];
  const Frames ref = s2c_bench::MakeFrames(c.width, c.height, false);
  const Frames dist = s2c_bench::MakeFrames(c.width, c.height, true);

  // The CPU backend's score of each distinct pair.
  Config cpu = c;
  cpu.backend = "cpu";
  std::vector<std::unique_ptr<Stream>> streams;
  RunStreams(cpu, 1, kDistinctFrames, ref, dist, &streams);
  std::vector<double> expected;
  for (const s2c::FrameMessage& f : streams[0]->result.frames) expected.push_back(f.score);
  if (expected.size() != static_cast<size_t>(kDistinctFrames)) {
    std::printf("the CPU backend scored %zu of %d pairs\n", expected.size(), kDistinctFrames);
    return 1;
  }

  const int n_short = n / 8 > 8 ? n / 8 : 8;
  RunStreams(c, count, n_short, ref, dist, &streams);  // untimed: first-use costs
  const double t_short = RunStreams(c, count, n_short, ref, dist, &streams);
  const double t_long = RunStreams(c, count, n, ref, dist, &streams);

  long scored = 0, differ = 0, errors = 0;
  for (const auto& s : streams) {
    errors += static_cast<long>(s->result.errors.size());
    for (const std::string& e : s->result.errors) std::printf("error: %s\n", e.c_str());
    for (const s2c::FrameMessage& f : s->result.frames) {
      ++scored;
      const double want = expected[f.frame_index % kDistinctFrames];
      differ += std::memcmp(&f.score, &want, sizeof want) != 0;
    }
  }
  const double rate = count * (n - n_short) / (t_long - t_short);
  std::printf("%dx%d I420, %d streams on device(s) %s, max-in-flight %s: %d pairs each in "
              "%.3f s, %d in %.3f s -> %.1f pairs/s aggregate (%.3f ms per pair); "
              "%ld of %ld pairs scored, %ld differ from the CPU backend, %ld errors\n",
              c.width, c.height, count, argv[5], c.max_in_flight.c_str(), n_short, t_short, n,
              t_long, rate, 1000.0 / rate, scored, static_cast<long>(count) * n, differ, errors);
  return scored == static_cast<long>(count) * n && differ == 0 && errors == 0 ? 0 : 1;
}
