// SPDX-License-Identifier: BSD-3-Clause
// The element in live pipelines (docs/decisions.md, D14): the video leaves
// on time whatever the metric does. A backend slower than real time comes
// from the static build of the plugin this test links (static_plugin.h).
// These tests measure when buffers reach the sink, so meson runs them on
// their own (is_parallel: false).
#include <cstdio>
#include <string>

#include "pipeline_run.h"
#include "static_plugin.h"
#include "test_pipelines.h"

using s2c_test::I420;
using s2c_test::RunPipeline;
using s2c_test::RunResult;

namespace {

// 64x64 at `fps` from one live source into both pads, through a sink that
// renders on the clock; the distorted branch is a little desaturated.
std::string LiveTee(int frames, int fps = 30) {
  return "videotestsrc is-live=true num-buffers=" + std::to_string(frames) +
         " ! video/x-raw,format=I420,width=64,height=64,framerate=" + std::to_string(fps) +
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
  fail_unless_equals_uint64(m.scores.frames + m.ref_skipped + m.ref_late + m.ref_unpaired,
                            frames);
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

const std::vector<std::string> kLatencyProps = {"latency=100000000"};

}  // namespace

// A backend at 50 ms per pair scores 20 pairs a second of 30: the video
// keeps real time, a third of the references leave unscored (ref-skipped)
// and the rest are scored.
GST_START_TEST(test_overload_keeps_real_time) {
  SlowBackend slow(50, -1);
  const RunResult r = RunPipeline(LiveTee(150), kLatencyProps);
  ExpectRealTime(r, 150);
  const s2c::SummaryMessage& m = r.summaries.back();
  fail_unless(m.ref_skipped > 0 && m.scores.frames > 0);
}
GST_END_TEST;

// 100 ms a pair for the first 10 pairs at 15 fps (a frame every 67 ms),
// then the backend's own speed: scoring catches up, and the last three
// seconds are all scored. (15 fps leaves room for the sanitizer build,
// whose CPU backend needs about 35 ms for these pairs.)
GST_START_TEST(test_scoring_catches_up_when_load_falls) {
  SlowBackend slow(100, 10);
  const RunResult r = RunPipeline(LiveTee(90, 15), kLatencyProps);
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
  const RunResult r = RunPipeline(LiveTee(15), {"live-policy=wait"});
  fail_unless(r.errors.empty());
  fail_unless_equals_int(r.frames.size(), 15);
  fail_unless_equals_uint64(r.summaries.back().ref_skipped, 0);
  const double span = r.out.back().arrival - r.out.front().arrival;
  fail_unless(span >= 1.3, "%.3f s: 15 pairs of 100 ms did not wait", span);
}
GST_END_TEST;

// A distorted feed that is linked but never sends anything (a valve that
// drops everything): the reference leaves unscored at its deadline,
// counted, and the stream ends with it.
GST_START_TEST(test_distorted_feed_that_never_comes) {
  const std::string caps = "video/x-raw,format=I420,width=64,height=64,framerate=30/1";
  const RunResult r = RunPipeline(
      "videotestsrc is-live=true num-buffers=90 ! " + caps +
          " ! cmp.ref_sink videotestsrc is-live=true ! " + caps +
          " ! valve drop=true ! cmp.dist_sink ssimulacra2cmp name=cmp ! "
          "fakesink name=out sync=true",
      kLatencyProps);
  ExpectRealTime(r, 90);
  fail_unless_equals_uint64(r.summaries.back().ref_late, 90);
}
GST_END_TEST;

// Live sources, the distorted branch 100 ms late per frame: beyond the
// deadline, so every reference frame goes out unscored and is counted.
std::string LateLivePipeline() {
  const std::string live = "videotestsrc is-live=true num-buffers=10 ! " + I420(25);
  return live + " ! cmp.ref_sink " + live +
         " ! identity sleep-time=100000 ! cmp.dist_sink ssimulacra2cmp name=cmp ! "
         "fakesink name=out";
}

GST_START_TEST(test_live_late_partner_passes_reference_unscored) {
  const RunResult r = RunPipeline(LateLivePipeline());
  fail_unless(r.errors.empty());
  // Timing-dependent details (a loaded machine may let a pair through) are
  // left out: every reference frame leaves, late ones are counted.
  fail_unless_equals_int(r.out.size(), 10);
  const s2c::SummaryMessage& m = r.summaries[0];
  fail_unless(m.ref_late > 0);
  fail_unless_equals_uint64(m.scores.frames + m.ref_late + m.ref_unpaired + m.ref_skipped, 10);
}
GST_END_TEST;

GST_START_TEST(test_live_wait_policy_scores_every_frame) {
  // Two live sources stamp from the clock when each starts: half a frame of
  // tolerance absorbs their start difference.
  const RunResult r =
      RunPipeline(LateLivePipeline(), {"live-policy=wait", "pairing-tolerance=20000000"});
  fail_unless(r.errors.empty());
  fail_unless_equals_int(r.frames.size(), 10);
  fail_unless_equals_uint64(r.summaries[0].ref_late, 0);
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
  tcase_add_test(tc, test_distorted_feed_that_never_comes);
  tcase_add_test(tc, test_live_late_partner_passes_reference_unscored);
  tcase_add_test(tc, test_live_wait_policy_scores_every_frame);
  return s;
}

int main(int argc, char** argv) {
  gst_check_init(&argc, &argv);
  s2c_test::RegisterStaticPlugin();
  return gst_check_run_suite(live_suite(), "live", __FILE__);
}
