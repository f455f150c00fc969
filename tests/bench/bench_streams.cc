// SPDX-License-Identifier: BSD-3-Clause
// Many streams in one process: N pipelines, each appsrc x2
// (frame_feed.h) -> ssimulacra2cmp -> fakesink, all playing at once, element
// i on CUDA device devices[i % count] (stream_set.h). Every score of every
// stream is checked against the CPU backend's score of the same pair (the
// feeds cycle through kDistinctFrames pairs).
//
// Throughput (the default): aggregate pairs per second =
// N * (n_long - n_short) / (t_long - t_short) over a short and a long run,
// so start-up cancels out, after an untimed run; `--rounds` times, each
// round printed, then the median. Each round also prints the most device
// memory the elements held at once.
//
// Live (`--live FPS`): the appsrcs are live sources pushed in real time at
// FPS (live_feeder.h) into the element's live mode, as a monitoring
// pipeline runs it; frames are pushed for a warm-up (until every element
// scores), `--seconds` measured, and a tail. Per stream: the pairs of the
// measured seconds scored in time
// (a frame message; a pair the element could not score by its deadline
// leaves unscored) over the pairs pushed in them. A stream keeps full rate
// when all of them are scored.
//
//   bench_streams width height frames streams devices [max-in-flight] [options]
//     --rounds R       timed rounds (3)
//     --limit BYTES    device-memory-limit of every element
//     --live FPS       live mode (frames is then unused)
//     --seconds S      live: seconds measured (10)
//   e.g. bench_streams 1920 1080 600 16 0      (16 streams on device 0)
//        bench_streams 3840 2160 300 2 0,1     (one element per device)
//        bench_streams 320 240 40 3 cpu        (the CPU backend)
//        bench_streams 3840 2160 0 16 0 --live 60 --seconds 10
// Exit status 0 when every pair is scored (live: every stream keeps full
// rate), every score equals the CPU backend's, and no element posts an
// error.
#include <gst/gst.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "frame_feed.h"
#include "live_feeder.h"
#include "stream_set.h"

namespace {

using s2c_bench::Frames;
using s2c_bench::kDistinctFrames;
using s2c_bench::StreamConfig;
using s2c_bench::StreamSet;

// Live: the warm-up, frames pushed but not measured, absorbs the
// elements' start (each allocates its backend's workspace at its first
// pairs, and an allocation can hold up the whole device): it ends
// kLiveSettle after every stream has posted its first score, and lasts at
// least kLiveWarmUpMin, at most kLiveWarmUpMax (a stream that scores
// nothing by then is measured as it is). The tail, pushed after the
// measured frames, lets each of them reach its deadline before
// end-of-stream (at EOS the element scores what it holds, late or not).
constexpr double kLiveWarmUpMin = 2.0, kLiveWarmUpMax = 10.0, kLiveSettle = 1.0;
constexpr double kLiveTailSeconds = 0.5;

// Scores checked so far, over every run.
struct Tally {
  long scored = 0, differ = 0, errors = 0;

  // Checks every score of the set's streams against the CPU backend's.
  void Add(StreamSet& set, const std::vector<double>& expected) {
    for (const s2c_bench::Stream& s : set.streams()) {
      errors += static_cast<long>(s.result.errors.size());
      for (const std::string& e : s.result.errors) std::printf("error: %s\n", e.c_str());
      for (const s2c::FrameMessage& f : s.result.frames) {
        ++scored;
        const double want = expected[f.frame_index % kDistinctFrames];
        differ += std::memcmp(&f.score, &want, sizeof want) != 0;
      }
    }
  }
};

std::string Mib(guint64 bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", bytes / 1048576.0);
  return text;
}

// "device memory 2450.1 MiB (153.1 MiB per stream)", or n/a when the
// element does not report it.
std::string DeviceMemoryText(bool reported, guint64 peak, int count) {
  if (!reported) return "device memory n/a";
  return "device memory " + Mib(peak) + " (" + Mib(peak / count) + " per stream)";
}

struct Run {
  double seconds = 0;
  bool memory_reported = false;
  guint64 peak_memory = 0;  // the elements' device memory, summed, at its largest
};

// Plays `count` streams of `n` pairs each to their ends; adds their scores
// to `tally` when given.
Run RunStreams(const StreamConfig& c, int count, int n, const Frames& ref, const Frames& dist,
               const std::vector<double>& expected, Tally* tally) {
  StreamSet set(c, count);
  set.Feed(&ref, &dist, n);
  const auto t0 = std::chrono::steady_clock::now();
  set.Play();
  set.WaitForEnd();
  Run run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.memory_reported = set.reports_device_memory();
  run.peak_memory = set.peak_device_memory();
  if (tally != nullptr) tally->Add(set, expected);
  return run;
}

// The CPU backend's score of each distinct pair; exits when it has not
// scored them all.
std::vector<double> CpuScores(const StreamConfig& c, const Frames& ref, const Frames& dist) {
  StreamConfig cpu = c;
  cpu.backend = "cpu";
  cpu.live_fps = 0;
  cpu.memory_limit = 0;
  StreamSet set(cpu, 1);
  set.Feed(&ref, &dist, kDistinctFrames);
  set.Play();
  set.WaitForEnd();
  std::vector<double> expected;
  for (const s2c::FrameMessage& f : set.streams()[0].result.frames) expected.push_back(f.score);
  if (expected.size() != static_cast<size_t>(kDistinctFrames)) {
    std::printf("the CPU backend scored %zu of %d pairs\n", expected.size(), kDistinctFrames);
    std::exit(1);
  }
  return expected;
}

int Throughput(const StreamConfig& c, int count, int n, int rounds, const std::string& where,
               const Frames& ref, const Frames& dist, const std::vector<double>& expected) {
  const int n_short = n / 8 > 8 ? n / 8 : 8;
  Tally tally;
  RunStreams(c, count, n_short, ref, dist, expected, nullptr);  // untimed: first-use costs
  std::vector<double> rates;
  for (int r = 1; r <= rounds; ++r) {
    const Run short_run = RunStreams(c, count, n_short, ref, dist, expected, &tally);
    const Run long_run = RunStreams(c, count, n, ref, dist, expected, &tally);
    if (tally.errors > 0) {
      std::printf("round %d: %ld errors, no timing\n", r, tally.errors);
      return 1;
    }
    const double rate = count * (n - n_short) / (long_run.seconds - short_run.seconds);
    rates.push_back(rate);
    const guint64 peak = std::max(short_run.peak_memory, long_run.peak_memory);
    std::printf(
        "round %d: %d pairs each in %.3f s, %d in %.3f s -> %.1f pairs/s (%.3f ms per "
        "pair); %s\n",
        r, n_short, short_run.seconds, n, long_run.seconds, rate, 1000.0 / rate,
        DeviceMemoryText(long_run.memory_reported, peak, count).c_str());
  }
  std::vector<double> sorted = rates;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[(sorted.size() - 1) / 2];  // the lower middle for an even count
  const long pairs = static_cast<long>(rounds) * count * (n_short + n);
  std::printf(
      "%dx%d I420, %d streams on %s, max-in-flight %s: median of %d rounds %.1f "
      "pairs/s aggregate (%.3f ms per pair; rounds %.1f to %.1f); %ld of %ld pairs "
      "scored, %ld differ from the CPU backend, %ld errors\n",
      c.width, c.height, count, where.c_str(), c.max_in_flight.c_str(), rounds, median,
      1000.0 / median, sorted.front(), sorted.back(), tally.scored, pairs, tally.differ,
      tally.errors);
  return tally.scored == pairs && tally.differ == 0 && tally.errors == 0 ? 0 : 1;
}

// The index of the frame due now, from the feed's start (negative before).
int FrameDue(GstClock* clock, GstClockTime base, int fps) {
  const GstClockTimeDiff since = GST_CLOCK_DIFF(base, gst_clock_get_time(clock));
  return static_cast<int>(gst_util_uint64_scale_int_round(since > 0 ? since : 0, fps, GST_SECOND));
}

// Plays the live streams, tells the feeder where the measured frames end
// once the warm-up is over, and returns the first measured frame; stops
// waiting (false in *ended) for streams that have not ended a minute after
// their last frame.
int PlayLive(StreamSet& set, s2c_bench::LiveFeeder& feeder, GstClock* clock, GstClockTime base,
             int fps, int measured, bool* ended) {
  int first = -1, last = INT_MAX;
  int started_at = -1;  // the frame due when every stream had posted a score
  *ended = true;
  while (!set.Done()) {
    if (!set.Poll()) g_usleep(500);
    const int due = FrameDue(clock, base, fps);
    if (first >= 0) {
      if (due - last > 60 * fps) {
        *ended = false;
        break;
      }
      continue;
    }
    bool all_scored = true;
    for (const s2c_bench::Stream& s : set.streams()) all_scored &= !s.result.frames.empty();
    if (all_scored && started_at < 0) started_at = due;
    const long settled = started_at < 0 ? LONG_MAX : started_at + std::lround(kLiveSettle * fps);
    if ((due >= settled && due >= std::lround(kLiveWarmUpMin * fps)) ||
        due >= std::lround(kLiveWarmUpMax * fps)) {
      first = due + 1;
      last = first + measured + static_cast<int>(std::lround(kLiveTailSeconds * fps)) - 1;
      feeder.StopAfter(last + 1);
    }
  }
  if (first < 0) {  // every stream ended in the warm-up: an error each
    first = 0;
    feeder.StopAfter(0);
  }
  return first;
}

int Live(const StreamConfig& c, int count, double seconds, const std::string& where,
         const Frames& ref, const Frames& dist, const std::vector<double>& expected) {
  const int fps = c.live_fps;
  const int measured = static_cast<int>(std::lround(seconds * fps));

  StreamSet set(c, count);
  std::vector<GstElement*> pipelines;
  for (const s2c_bench::Stream& s : set.streams()) pipelines.push_back(s.pipeline);
  GstClock* clock = gst_system_clock_obtain();
  const GstClockTime base = set.Play();
  s2c_bench::LiveFeeder feeder(pipelines, &ref, &dist, fps, base);
  bool ended = false;
  const int first = PlayLive(set, feeder, clock, base, fps, measured, &ended);
  feeder.Join();
  gst_object_unref(clock);
  if (!ended) std::printf("error: not every stream ended within a minute of its last frame\n");

  Tally tally;
  tally.Add(set, expected);
  double worst = 1.0;
  int worst_stream = 0;
  bool full_rate = ended;
  for (int i = 0; i < count; ++i) {
    const s2c_test::RunResult& r = set.streams()[i].result;
    int in_time = 0;
    for (const s2c::FrameMessage& f : r.frames) {
      in_time += f.frame_index >= static_cast<guint64>(first) &&
                 f.frame_index < static_cast<guint64>(first + measured);
    }
    const double ratio = static_cast<double>(in_time) / measured;
    if (ratio < worst) {
      worst = ratio;
      worst_stream = i;
    }
    full_rate = full_rate && in_time == measured;
    // The element's own counts, over the whole run (warm-up and tail too),
    // and its coverage messages (windows below min-coverage).
    std::string counts = "no summary";
    if (!r.summaries.empty()) {
      const s2c::SummaryMessage& m = r.summaries.back();
      counts = std::to_string(m.scores.frames) + " scored, " + std::to_string(m.ref_skipped) +
               " skipped, " + std::to_string(m.ref_late) + " late, " +
               std::to_string(m.ref_unpaired) + " unpaired, " +
               std::to_string(r.coverage.size()) + " coverage messages";
    }
    std::printf("stream %d: %d / %d pairs scored in time (%.4f); whole run: %s\n", i, in_time,
                measured, ratio, counts.c_str());
  }
  std::printf(
      "live %dx%d I420 at %d fps, %d streams on %s, max-in-flight %s: frames %d to %d "
      "measured (%.1f s after a %.1f s warm-up): worst stream %d at %.4f; every stream "
      "kept full rate: %s; %s; feeder at most %.1f ms behind; %ld pairs scored, %ld "
      "differ from the CPU backend, %ld errors\n",
      c.width, c.height, fps, count, where.c_str(), c.max_in_flight.c_str(), first,
      first + measured - 1, seconds, static_cast<double>(first) / fps, worst_stream, worst,
      full_rate ? "yes" : "no",
      DeviceMemoryText(set.reports_device_memory(), set.peak_device_memory(), count).c_str(),
      feeder.max_behind() / 1e6, tally.scored, tally.differ, tally.errors);
  return full_rate && tally.differ == 0 && tally.errors == 0 ? 0 : 1;
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
  int rounds = 3, live_fps = 0;
  gint64 limit = 0;
  double seconds = 10;
  const GOptionEntry entries[] = {
      {"rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "Timed rounds, each a short and a long run (3)",
       "R"},
      {"limit", 0, 0, G_OPTION_ARG_INT64, &limit, "device-memory-limit of every element", "BYTES"},
      {"live", 0, 0, G_OPTION_ARG_INT, &live_fps,
       "Live sources at FPS, pushed in real time; reports who kept full rate", "FPS"},
      {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &seconds, "Live: seconds measured (10)", "S"},
      {}};
  GOptionContext* options =
      g_option_context_new("width height frames streams devices [max-in-flight]");
  g_option_context_add_main_entries(options, entries, nullptr);
  g_option_context_add_group(options, gst_init_get_option_group());
  GError* error = nullptr;
  const bool parsed = g_option_context_parse(options, &argc, &argv, &error);
  g_option_context_free(options);
  if (!parsed || argc < 6 || rounds < 1 || limit < 0 || live_fps < 0 || seconds <= 0) {
    if (error != nullptr) std::printf("%s\n", error->message);
    g_clear_error(&error);
    std::printf(
        "usage: bench_streams width height frames streams devices [max-in-flight] "
        "[--rounds R] [--limit BYTES] [--live FPS [--seconds S]]\n");
    return 2;
  }
  StreamConfig c;
  c.width = std::atoi(argv[1]);
  c.height = std::atoi(argv[2]);
  const int n = std::atoi(argv[3]);
  const int count = std::atoi(argv[4]);
  std::string where = "the CPU";
  if (std::strcmp(argv[5], "cpu") == 0) {
    c.backend = "cpu";
  } else {
    c.devices = ParseDevices(argv[5]);
    where = std::string("device(s) ") + argv[5];
  }
  if (argc > 6) c.max_in_flight = argv[6];
  c.memory_limit = static_cast<guint64>(limit);
  c.live_fps = live_fps;
  const Frames ref = s2c_bench::MakeFrames(c.width, c.height, false);
  const Frames dist = s2c_bench::MakeFrames(c.width, c.height, true);
  const std::vector<double> expected = CpuScores(c, ref, dist);

  if (limit > 0) {
    // Probe one element for the property, before the timed runs.
    StreamSet probe(c, 1);
    if (probe.limit_set()) {
      std::printf("device-memory-limit %s on every element\n", Mib(c.memory_limit).c_str());
    } else {
      std::printf("device-memory-limit n/a: this element has no such property; no limit set\n");
    }
  }
  return live_fps > 0 ? Live(c, count, seconds, where, ref, dist, expected)
                      : Throughput(c, count, n, rounds, where, ref, dist, expected);
}
