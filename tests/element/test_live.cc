// SPDX-License-Identifier: BSD-3-Clause
// The element in live pipelines (docs/decisions.md, D14): the video leaves
// on time whatever the metric does.
//
// Where no backend is slow, the tests run on the harnesses' GstTestClock
// (harnesses.h), which moves only when the test moves it: each
// reference must ask to be woken exactly at its deadline, leave then, and
// every count is exact, however loaded the machine.
//
// A backend slower than real time comes from the static build of the
// plugin this test links (static_plugin.h), which waits in real time; those
// tests run on the system clock, through a sink that renders on it, and
// measure when buffers reach it, so meson runs them on their own
// (is_parallel: false). Their frames are 16x16 and scored on one thread, so
// that the backend's own work stays far below the delay and the frame
// period on a loaded machine, under the sanitizers too.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "harnesses.h"
#include "pipeline_run.h"
#include "static_plugin.h"
#include "test_pipelines.h"

using s2c_test::Harnesses;
using s2c_test::RunPipeline;
using s2c_test::RunResult;

namespace {

// 16x16 at `fps` from one live source into both pads, through a sink that
// renders on the clock; the distorted branch is a little desaturated.
std::string LiveTee(int frames, int fps = 30) {
  return "videotestsrc is-live=true num-buffers=" + std::to_string(frames) +
         " ! video/x-raw,format=I420,width=16,height=16,framerate=" + std::to_string(fps) +
         "/1 ! tee name=t "
         "t. ! queue ! cmp.ref_sink t. ! queue ! videobalance saturation=0.7 ! "
         "cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out sync=true";
}

// Makes the backend of the next pipeline `ms` slower per pair, for its first
// `pairs` pairs (all when negative).
class SlowBackend {
 public:
  SlowBackend(double ms, long pairs) { s2c_test::SetPairDelay(ms, pairs); }
  ~SlowBackend() { s2c_test::SetPairDelay(0.0); }
};

// Every reference frame left, each one scored, skipped, late or unpaired,
// and the video kept real time: from the first buffer at the sink to the
// last, (frames - 1) frame periods at 30 fps within 5 %. (Start-up, a CUDA
// context for one, and the pipeline's latency come before the first.)
void ExpectRealTime(const RunResult& r, int frames, int fps = 30) {
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless(r.eos);
  fail_unless_equals_int(r.out.size(), frames);
  const s2c::SummaryMessage& m = r.summaries.back();
  fail_unless_equals_uint64(
      m.scores.frames + m.ref_skipped + m.ref_overdue + m.ref_late + m.ref_unpaired, frames);
  size_t with_meta = 0;
  for (const s2c_test::OutBuffer& b : r.out) with_meta += b.has_meta;
  fail_unless_equals_uint64(with_meta, m.scores.frames);
  const double span = r.out.back().arrival - r.out.front().arrival;
  const double real_time = (frames - 1) / static_cast<double>(fps);
  std::printf("%d frames: %.3f s at the sink for %.3f s of video; %llu scored, %llu skipped\n",
              frames, span, real_time, static_cast<unsigned long long>(m.scores.frames),
              static_cast<unsigned long long>(m.ref_skipped));
  fail_unless(span <= 1.05 * real_time, "%.3f s at the sink for %.3f s of video", span,
              real_time);
}

// The aggregator's latency, and one thread for the CPU backend.
const std::vector<std::string> kLiveProps = {"latency=100000000", "cpu-threads=1"};

// --- On the test clock ---------------------------------------------------

constexpr int kFrames = 10;
constexpr GstClockTime kFrame = s2c_test::kFrame;

// The element of the harness tests: live, references leave unscored at
// their deadline, one pair at a time. Its deadline is a reference's
// running time plus its latency: the aggregator's 100 ms and the pairing
// tolerance (live, half a frame: 20 ms at 25 fps; max-in-flight=1 adds no
// frame). The feed watch, which
// waits on the clock too, is off: every wait is then a deadline's.
const std::vector<std::string> kHarnessProps = {"live-policy=pass-unscored", "max-in-flight=1",
                                                "latency=100000000", "feed-timeout=0"};
constexpr GstClockTime kDeadline = 120 * GST_MSECOND;

// Waits until the element waits on the clock; checks that it waits for
// `time`, that nothing left before, and moves the clock there.
void CrankTo(Harnesses* h, GstTestClock* clock, GstClockTime time, guint out_before) {
  GstClockID id = nullptr;
  gst_test_clock_wait_for_next_pending_id(clock, &id);
  const GstClockTime waits_for = gst_clock_id_get_time(id);
  gst_clock_id_unref(id);
  fail_unless_equals_uint64(waits_for, time);
  fail_unless_equals_int(gst_harness_buffers_received(h->ref), out_before);
  fail_unless(gst_test_clock_crank(clock));
}

void ExpectEnd(Harnesses* h, guint64 scored, guint64 late, guint64 dist_unpaired) {
  s2c_test::EndBoth(h);
  s2c_test::WaitForSummary(h);
  const s2c::SummaryMessage& m = h->seen.summaries.back();
  fail_unless_equals_uint64(m.scores.frames, scored);
  fail_unless_equals_uint64(m.ref_late, late);
  fail_unless_equals_uint64(m.ref_skipped, 0);
  fail_unless_equals_uint64(m.dist_unpaired, dist_unpaired);
  fail_unless(h->seen.errors.empty(), "error: %s",
              h->seen.errors.empty() ? "" : h->seen.errors[0].c_str());
}

}  // namespace

// A backend at 50 ms per pair scores 20 pairs a second of 30: the video
// keeps real time, a third of the references leave unscored (ref-skipped)
// and the rest are scored.
GST_START_TEST(test_overload_keeps_real_time) {
  SlowBackend slow(50, -1);
  const RunResult r = RunPipeline(LiveTee(150), kLiveProps);
  ExpectRealTime(r, 150);
  const s2c::SummaryMessage& m = r.summaries.back();
  fail_unless(m.ref_skipped > 0 && m.scores.frames > 0);
}
GST_END_TEST;

// 100 ms a pair for the first 10 pairs at 15 fps (a frame every 67 ms),
// then the backend's own speed: scoring catches up, and the last three
// seconds are all scored.
GST_START_TEST(test_scoring_catches_up_when_load_falls) {
  SlowBackend slow(100, 10);
  const RunResult r = RunPipeline(LiveTee(90, 15), kLiveProps);
  ExpectRealTime(r, 90, 15);
  fail_unless(r.summaries.back().ref_skipped > 0);
  for (size_t i = r.out.size() - 45; i < r.out.size(); ++i) {
    fail_unless(r.out[i].has_meta, "frame %zu after the load fell is unscored", i);
  }
}
GST_END_TEST;

// The wait policy keeps its behaviour: every frame scored, the video waits.
GST_START_TEST(test_overload_with_wait_policy_scores_every_frame) {
  SlowBackend slow(100, -1);
  const RunResult r = RunPipeline(LiveTee(15), {"live-policy=wait", "cpu-threads=1"});
  fail_unless(r.errors.empty());
  fail_unless_equals_int(r.frames.size(), 15);
  fail_unless_equals_uint64(r.summaries.back().ref_skipped, 0);
  const double span = r.out.back().arrival - r.out.front().arrival;
  fail_unless(span >= 1.3, "%.3f s: 15 pairs of 100 ms did not wait", span);
}
GST_END_TEST;

// A distorted feed that is linked but never sends anything: each reference
// leaves unscored exactly at its deadline, not before, and is counted late.
GST_START_TEST(test_reference_without_partner_leaves_at_its_deadline) {
  Harnesses h = s2c_test::MakeHarnesses(kHarnessProps);
  GstTestClock* clock = s2c_test::ElementClock(h);
  for (int i = 0; i < kFrames; ++i) {
    const GstClockTime pts = i * kFrame;
    fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(i, pts)), GST_FLOW_OK);
    CrankTo(&h, clock, pts + kDeadline, i);
    const s2c_test::OutBuffer out = s2c_test::PullOut(&h, 1)[0];
    fail_unless_equals_uint64(out.pts, pts);
    fail_unless(!out.has_meta, "frame %d left with a score", i);
  }
  ExpectEnd(&h, 0, kFrames, 0);
  gst_object_unref(clock);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// Each distorted frame comes after its reference's deadline: every
// reference leaves unscored at the deadline, counted late, and every
// distorted frame, which finds no reference, is dropped and counted.
GST_START_TEST(test_live_late_partner_passes_reference_unscored) {
  Harnesses h = s2c_test::MakeHarnesses(kHarnessProps);
  GstTestClock* clock = s2c_test::ElementClock(h);
  for (int i = 0; i < kFrames; ++i) {
    const GstClockTime pts = i * kFrame;
    fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(i, pts)), GST_FLOW_OK);
    CrankTo(&h, clock, pts + kDeadline, i);
    const s2c_test::OutBuffer out = s2c_test::PullOut(&h, 1)[0];
    fail_unless(!out.has_meta, "frame %d left with a score", i);
    fail_unless_equals_int(gst_harness_push(h.dist, s2c_test::Frame(i, pts)), GST_FLOW_OK);
  }
  ExpectEnd(&h, 0, kFrames, kFrames);
  gst_object_unref(clock);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// References whose partner never comes, with summary-interval=200 ms: the
// frame at 200 ms closes a window whose 5 references all left unscored at
// their deadlines, and the coverage message and warning name late partners.
GST_START_TEST(test_coverage_says_the_partners_are_late) {
  std::vector<std::string> props = kHarnessProps;
  props.push_back("summary-interval=200000000");
  Harnesses h = s2c_test::MakeHarnesses(props);
  GstTestClock* clock = s2c_test::ElementClock(h);
  for (int i = 0; i < 6; ++i) {
    const GstClockTime pts = i * kFrame;
    fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(i, pts)), GST_FLOW_OK);
    CrankTo(&h, clock, pts + kDeadline, i);
    s2c_test::PullOut(&h, 1);
  }
  s2c_test::Poll(&h);
  fail_unless_equals_int(h.seen.coverage.size(), 1);
  const s2c::CoverageMessage& m = h.seen.coverage[0];
  fail_unless_equals_uint64(m.ref_frames, 5);
  fail_unless_equals_uint64(m.frames_scored, 0);
  fail_unless(m.cause == s2c::CoverageCause::kLate, "cause %s", s2c::CoverageCauseName(m.cause));
  fail_unless(m.ref_late >= 5);
  fail_unless(!m.has_pad_offset);
  fail_unless_equals_int(h.seen.warnings.size(), 1);
  fail_unless(s2c_test::Contains(h.seen.warnings, "ref-late"), "%s",
              h.seen.warnings[0].c_str());
  gst_object_unref(clock);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// With live-policy=wait the same late partners are all scored: a reference
// waits for its partner past its deadline.
GST_START_TEST(test_live_wait_policy_scores_every_frame) {
  Harnesses h = s2c_test::MakeHarnesses({"live-policy=wait", "max-in-flight=1",
                                         "latency=100000000"});
  GstTestClock* clock = s2c_test::ElementClock(h);
  for (int i = 0; i < kFrames; ++i) {
    const GstClockTime pts = i * kFrame;
    fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(i, pts)), GST_FLOW_OK);
    gst_test_clock_set_time(clock, pts + kDeadline + 100 * GST_MSECOND);
    fail_unless_equals_int(gst_harness_push(h.dist, s2c_test::Frame(i + 50, pts)), GST_FLOW_OK);
    const s2c_test::OutBuffer out = s2c_test::PullOut(&h, 1)[0];
    fail_unless_equals_uint64(out.pts, pts);
    fail_unless(out.has_meta, "frame %d left unscored", i);
  }
  ExpectEnd(&h, kFrames, 0, 0);
  gst_object_unref(clock);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// A backend that takes 3 s (of real time) over its first pair while the
// test clock runs the stream on, two pairs at a time: the first two
// references leave unscored at their deadlines with their pairs still on
// the backend, and the next ones, which find no room there, are skipped at
// theirs. The frame at 200 ms closes a window (summary-interval) of 5
// references none of which was scored: one warning and one coverage
// message say the backend is overloaded. The clock moves only from one
// wait of the element to the next, so nothing depends on the machine's
// speed but the 3 s, which the test never comes near.
GST_START_TEST(test_coverage_says_the_backend_is_overloaded) {
  SlowBackend slow(3000, 1);
  Harnesses h = s2c_test::MakeHarnesses({"live-policy=pass-unscored", "max-in-flight=2",
                                         "latency=100000000", "feed-timeout=0",
                                         "summary-interval=200000000"});
  GstTestClock* clock = s2c_test::ElementClock(h);
  // The deadline: the aggregator's 100 ms, a frame for the second pair in
  // flight and half a frame of pairing tolerance.
  constexpr GstClockTime kLatency = 160 * GST_MSECOND;
  for (int i = 0; i < 6; ++i) {
    const GstClockTime pts = i * kFrame;
    s2c_test::PushPair(&h, i, i, pts);
    // The element polls the backend on the clock until the deadline.
    GstClockTime waited_for = 0;
    while (waited_for < pts + kLatency) {
      GstClockID id = nullptr;
      gst_test_clock_wait_for_next_pending_id(clock, &id);
      waited_for = gst_clock_id_get_time(id);
      gst_clock_id_unref(id);
      fail_unless(waited_for <= pts + kLatency, "waits for %" GST_TIME_FORMAT,
                  GST_TIME_ARGS(waited_for));
      fail_unless(gst_test_clock_crank(clock));
    }
    fail_unless(!s2c_test::PullOut(&h, 1)[0].has_meta, "frame %d left with a score", i);
  }
  s2c_test::Poll(&h);
  fail_unless_equals_int(h.seen.coverage.size(), 1);
  const s2c::CoverageMessage& m = h.seen.coverage[0];
  fail_unless_equals_uint64(m.start, 0);
  fail_unless_equals_uint64(m.end, 200 * GST_MSECOND);
  fail_unless_equals_uint64(m.ref_frames, 5);
  fail_unless_equals_uint64(m.frames_scored, 0);
  fail_unless(m.cause == s2c::CoverageCause::kOverloaded, "cause %s",
              s2c::CoverageCauseName(m.cause));
  fail_unless(m.ref_skipped >= 5);
  fail_unless_equals_uint64(m.ref_unpaired + m.ref_late, 0);
  fail_unless_equals_int(h.seen.warnings.size(), 1);
  fail_unless(s2c_test::Contains(h.seen.warnings, "overloaded"), "%s",
              h.seen.warnings[0].c_str());
  gst_object_unref(clock);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// A slow downstream holds the streaming thread in its push, so that pairs
// reach pairing after their deadline: here a pair pushed when the clock is
// already past it. Its reference leaves unscored, counted in ref-overdue,
// not in the backend's ref-skipped (the backend was never asked).
GST_START_TEST(test_pair_past_its_deadline_is_overdue_not_skipped) {
  Harnesses h = s2c_test::MakeHarnesses({"live-policy=pass-unscored", "max-in-flight=2",
                                         "latency=100000000", "feed-timeout=0"});
  GstTestClock* clock = s2c_test::ElementClock(h);
  // Its deadline: the aggregator's 100 ms, a frame for the second pair in
  // flight and half a frame of pairing tolerance.
  gst_test_clock_set_time(clock, 200 * GST_MSECOND);
  // The distorted frame first: the reference then finds its partner there.
  fail_unless_equals_int(gst_harness_push(h.dist, s2c_test::Frame(0, 0)), GST_FLOW_OK);
  fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(0, 0)), GST_FLOW_OK);
  fail_unless(!s2c_test::PullOut(&h, 1)[0].has_meta, "the overdue frame left with a score");
  s2c_test::EndBoth(&h);
  s2c_test::WaitForSummary(&h);
  const s2c::SummaryMessage& m = h.seen.summaries.back();
  fail_unless_equals_uint64(m.ref_overdue, 1);
  fail_unless_equals_uint64(m.ref_skipped, 0);
  fail_unless_equals_uint64(m.scores.frames + m.ref_late + m.ref_unpaired + m.dist_unpaired, 0);
  gst_object_unref(clock);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// Two independent live feeds 10 ms apart whose caps state no framerate
// (framerate=0/1, as RTP depayloaders give): the tolerance is half the
// frame period the element measures, from the buffers' durations where
// they have them (every frame pairs), else from the spacing of the
// reference's timestamps (from the second reference frame on; the first
// and its partner go unpaired). Wait policy: no deadline, no clock.
void PairWithoutFramerate(bool durations, guint64 scored) {
  Harnesses h = s2c_test::MakeHarnesses(
      {}, "video/x-raw,format=RGB,width=16,height=16,framerate=0/1");
  constexpr int kPairs = 6;
  for (int i = 0; i < kPairs; ++i) {
    GstBuffer* ref = s2c_test::Frame(i, i * kFrame);
    GstBuffer* dist = s2c_test::Frame(i, i * kFrame + 10 * GST_MSECOND);
    if (!durations) GST_BUFFER_DURATION(ref) = GST_BUFFER_DURATION(dist) = GST_CLOCK_TIME_NONE;
    fail_unless_equals_int(gst_harness_push(h.ref, ref), GST_FLOW_OK);
    fail_unless_equals_int(gst_harness_push(h.dist, dist), GST_FLOW_OK);
  }
  s2c_test::EndBoth(&h);
  s2c_test::WaitForSummary(&h);
  const s2c::SummaryMessage& m = h.seen.summaries.back();
  fail_unless_equals_uint64(m.scores.frames, scored);
  fail_unless_equals_uint64(m.ref_unpaired, kPairs - scored);
  fail_unless_equals_uint64(m.dist_unpaired, kPairs - scored);
  s2c_test::Teardown(&h);
}

GST_START_TEST(test_live_without_framerate_pairs_by_buffer_durations) {
  PairWithoutFramerate(true, 6);
}
GST_END_TEST;

GST_START_TEST(test_live_without_framerate_pairs_by_timestamp_spacing) {
  PairWithoutFramerate(false, 5);
}
GST_END_TEST;

// The monitor's case: live feeds through RTP raw video payloading and
// depayloading, whose caps then say framerate=0/1 and whose buffers have no
// duration, the distorted one 20 ms later (a pad offset: one source, so
// that nothing but the offset separates them). With the default (auto)
// tolerance they pair from the second frame on.
GST_START_TEST(test_rtp_feeds_pair_without_framerate) {
  const std::string rtp = " ! queue ! rtpvrawpay ! rtpvrawdepay name=";
  const RunResult r = RunPipeline(
      "videotestsrc is-live=true num-buffers=8 ! video/x-raw,format=I420,width=16,height=16,"
      "framerate=10/1 ! tee name=t t." + rtp + "ref_depay ! cmp.ref_sink t." + rtp +
          "dist_depay ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out sync=true",
      {"live-policy=wait", "cpu-threads=1"}, [](GstElement* pipeline) {
        GstElement* depay = gst_bin_get_by_name(GST_BIN(pipeline), "dist_depay");
        GstPad* pad = gst_element_get_static_pad(depay, "src");
        gst_pad_set_offset(pad, 20 * GST_MSECOND);
        gst_object_unref(pad);
        gst_object_unref(depay);
      });
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  const s2c::SummaryMessage& m = r.summaries.back();
  fail_unless_equals_uint64(m.scores.frames, 7);
  fail_unless_equals_uint64(m.ref_unpaired, 1);
}
GST_END_TEST;

// The element's debug log lines (category ssimulacra2cmp), "LEVEL text".
struct LogLines {
  std::mutex lock;
  std::vector<std::string> lines;

  bool Has(const char* level, const char* text) {
    std::lock_guard<std::mutex> hold(lock);
    for (const std::string& line : lines) {
      if (line.rfind(level, 0) == 0 && line.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::string Joined() {
    std::lock_guard<std::mutex> hold(lock);
    std::string all;
    for (const std::string& line : lines) all += line + "\n";
    return all;
  }
};

void CollectLog(GstDebugCategory* category, GstDebugLevel level, const gchar*, const gchar*,
                gint, GObject*, GstDebugMessage* message, gpointer data) {
  if (std::strcmp(gst_debug_category_get_name(category), "ssimulacra2cmp") != 0) return;
  auto* log = static_cast<LogLines*>(data);
  std::lock_guard<std::mutex> hold(log->lock);
  log->lines.push_back(std::string(gst_debug_level_get_name(level)) + " " +
                       gst_debug_message_get(message));
}

// At GST_DEBUG=ssimulacra2cmp:6 each buffer's fate is in the log: every
// pairing decision (LOG), why a reference went unscored (DEBUG), and each
// reference leaving (LOG). A pair scored, a reference late, a pair overdue.
GST_START_TEST(test_debug_log_says_what_became_of_each_buffer) {
  LogLines log;
  gst_debug_remove_log_function(gst_debug_log_default);
  gst_debug_add_log_function(CollectLog, &log, nullptr);
  const gboolean was_active = gst_debug_is_active();
  gst_debug_set_active(TRUE);
  gst_debug_set_threshold_for_name("ssimulacra2cmp", GST_LEVEL_LOG);
  Harnesses h = s2c_test::MakeHarnesses(kHarnessProps);
  GstTestClock* clock = s2c_test::ElementClock(h);
  s2c_test::PushPair(&h, 0, 0, 0);
  fail_unless(s2c_test::PullOut(&h, 1)[0].has_meta);
  fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(1, kFrame)), GST_FLOW_OK);
  CrankTo(&h, clock, kFrame + kDeadline, 1);
  fail_unless(!s2c_test::PullOut(&h, 1)[0].has_meta);
  gst_test_clock_set_time(clock, 2 * kFrame + kDeadline + 50 * GST_MSECOND);
  fail_unless_equals_int(gst_harness_push(h.dist, s2c_test::Frame(2, 2 * kFrame)), GST_FLOW_OK);
  fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(2, 2 * kFrame)), GST_FLOW_OK);
  fail_unless(!s2c_test::PullOut(&h, 1)[0].has_meta);
  s2c_test::Teardown(&h);
  gst_object_unref(clock);
  gst_debug_unset_threshold_for_name("ssimulacra2cmp");
  gst_debug_set_active(was_active);
  gst_debug_remove_log_function(CollectLog);
  gst_debug_add_log_function(gst_debug_log_default, nullptr, nullptr);
  const struct {
    const char* level;
    const char* text;
  } expected[] = {
      {"LOG", "ref +0:00:00.000000000 dist +0:00:00.000000000 (running times), timeout 0: pair"},
      {"LOG", "reference 0:00:00.000000000 leaves scored"},
      {"LOG", "ref +0:00:00.040000000 dist +99:99:99.999999999 (running times), timeout 1: "
              "ref-late"},
      {"LOG", "reference 0:00:00.040000000 leaves unscored"},
      {"DEBUG", "reference 0:00:00.080000000 paired after its deadline: overdue"},
      {"LOG", "reference 0:00:00.080000000 leaves unscored"}};
  for (const auto& e : expected) {
    fail_unless(log.Has(e.level, e.text), "no %s line \"%s\" in:\n%s", e.level, e.text,
                log.Joined().c_str());
  }
}
GST_END_TEST;

static Suite* live_suite() {
  Suite* s = suite_create("ssimulacra2cmp-live");
  TCase* tc = tcase_create("live");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_overload_keeps_real_time);
  tcase_add_test(tc, test_scoring_catches_up_when_load_falls);
  tcase_add_test(tc, test_overload_with_wait_policy_scores_every_frame);
  tcase_add_test(tc, test_reference_without_partner_leaves_at_its_deadline);
  tcase_add_test(tc, test_live_late_partner_passes_reference_unscored);
  tcase_add_test(tc, test_live_wait_policy_scores_every_frame);
  tcase_add_test(tc, test_coverage_says_the_backend_is_overloaded);
  tcase_add_test(tc, test_coverage_says_the_partners_are_late);
  tcase_add_test(tc, test_pair_past_its_deadline_is_overdue_not_skipped);
  tcase_add_test(tc, test_live_without_framerate_pairs_by_buffer_durations);
  tcase_add_test(tc, test_live_without_framerate_pairs_by_timestamp_spacing);
  tcase_add_test(tc, test_rtp_feeds_pair_without_framerate);
  tcase_add_test(tc, test_debug_log_says_what_became_of_each_buffer);
  return s;
}

int main(int argc, char** argv) {
  gst_check_init(&argc, &argv);
  s2c_test::RegisterStaticPlugin();
  return gst_check_run_suite(live_suite(), "live", __FILE__);
}
