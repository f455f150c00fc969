// SPDX-License-Identifier: BSD-3-Clause
// The element's signals for monitoring live feeds: alarms with a hold-off,
// the label and UTC time of every message, feed loss, periodic summaries.
// Every test runs on the harnesses' GstTestClock (harnesses.h) and the
// running times of the frames it pushes, so nothing depends on how fast
// the machine is.
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "harnesses.h"
#include "score_message.h"
#include "test_pipelines.h"

#include <gst/check/gstcheck.h>

using s2c_test::EndBoth;
using s2c_test::Harnesses;
using s2c_test::kFrame;
using s2c_test::MakeHarnesses;
using s2c_test::PullOut;
using s2c_test::PushPair;
using s2c_test::Teardown;
using s2c_test::WaitForSummary;

namespace {

// Distorted seeds: 0 is the reference itself (score 100), 9 a worse frame.
constexpr int kGood = 0;
constexpr int kBad = 9;

// Pushes one pair per seed, a frame (40 ms) apart, to EOS, and collects
// what the element said.
void RunPairs(Harnesses* h, const std::vector<int>& dist_seeds) {
  for (size_t i = 0; i < dist_seeds.size(); ++i) PushPair(h, 0, dist_seeds[i], i * kFrame);
  EndBoth(h);
  PullOut(h, static_cast<int>(dist_seeds.size()));
  WaitForSummary(h);
}

}  // namespace

// threshold-hold=100 ms: a single bad frame and a flapping score raise
// nothing; four bad frames in a row (0, 40, 80, 120 ms: held 120 ms) raise
// the alarm at the fourth, and it clears only after good frames for as
// long, a bad frame among them starting the hold again.
GST_START_TEST(test_alarm_waits_for_the_hold) {
  Harnesses h = MakeHarnesses({"threshold=99.5", "threshold-hysteresis=0.25",
                               "threshold-hold=100000000"});
  RunPairs(&h, {kGood, kBad, kGood,                  // one bad frame
                kBad, kGood, kBad, kGood,            // flapping
                kBad, kBad, kBad, kBad,              // held: raised at frame 10
                kGood, kBad, kGood, kGood, kGood, kGood});  // cleared at frame 16
  fail_unless_equals_int(h.seen.alarms.size(), 2);
  fail_unless(!h.seen.alarms[0].cleared);
  fail_unless_equals_uint64(h.seen.alarms[0].frame_index, 10);
  fail_unless_equals_uint64(h.seen.alarms[0].running_time, 10 * kFrame);
  fail_unless(h.seen.alarms[1].cleared);
  fail_unless_equals_uint64(h.seen.alarms[1].frame_index, 16);
  Teardown(&h);
}
GST_END_TEST;

// The default hold, 0, keeps the alarm on single frames: the same flapping
// score raises and clears it on every frame.
GST_START_TEST(test_alarm_without_hold_follows_each_frame) {
  Harnesses h = MakeHarnesses({"threshold=99.5", "threshold-hysteresis=0.25"});
  RunPairs(&h, {kBad, kGood, kBad, kGood});
  fail_unless_equals_int(h.seen.alarms.size(), 4);
  for (size_t i = 0; i < 4; ++i) {
    fail_unless_equals_int(h.seen.alarms[i].cleared, i % 2 == 1);
    fail_unless_equals_uint64(h.seen.alarms[i].frame_index, i);
  }
  Teardown(&h);
}
GST_END_TEST;

namespace {

// The wall-clock time now as the element writes it.
std::string Utc() { return s2c::UtcNow(); }

// `origin` names `label` and a UTC time from `before` to `after` (ISO 8601
// to the millisecond compares as text).
void ExpectOrigin(const s2c::MessageOrigin& origin, const std::string& label,
                  const std::string& before, const std::string& after) {
  fail_unless(origin.label == label, "label %s, expected %s", origin.label.c_str(),
              label.c_str());
  fail_unless(before <= origin.utc && origin.utc <= after, "utc %s not in [%s, %s]",
              origin.utc.c_str(), before.c_str(), after.c_str());
}

}  // namespace

// Every message, frame, alarm and summary, says which element it is from
// (label, by default the element's name) and when, in UTC.
GST_START_TEST(test_every_message_has_label_and_utc) {
  for (const bool named : {false, true}) {
    std::vector<std::string> props = {"threshold=99.5", "threshold-hysteresis=0.25"};
    if (named) props.push_back("label=studio 4");
    Harnesses h = MakeHarnesses(props);
    const std::string label = named ? "studio 4" : GST_ELEMENT_NAME(h.element());
    const std::string before = Utc();
    RunPairs(&h, {kBad, kGood});
    const std::string after = Utc();
    fail_unless_equals_int(h.seen.frames.size(), 2);
    fail_unless_equals_int(h.seen.alarms.size(), 2);
    for (const s2c::FrameMessage& f : h.seen.frames) ExpectOrigin(f.origin, label, before, after);
    for (const s2c::ThresholdMessage& t : h.seen.alarms) {
      ExpectOrigin(t.origin, label, before, after);
    }
    ExpectOrigin(h.seen.summaries.back().origin, label, before, after);
    Teardown(&h);
  }
}
GST_END_TEST;

namespace {

// Waits until the element waits on the clock, checks that it waits for
// `time`, and moves the clock there, which runs the element's callback.
void CrankTo(GstTestClock* clock, GstClockTime time) {
  GstClockID id = nullptr;
  gst_test_clock_wait_for_next_pending_id(clock, &id);
  const GstClockTime waits_for = gst_clock_id_get_time(id);
  gst_clock_id_unref(id);
  fail_unless_equals_uint64(waits_for, time);
  fail_unless(gst_test_clock_crank(clock));
}

double LastScore(const Harnesses& h) {
  double score = 0.0;
  g_object_get(h.element(), "last-score", &score, nullptr);
  return score;
}

}  // namespace

// feed-timeout=2 s on the test clock: a feed is lost 2 s after its last
// buffer, not before, and restored by its next buffer; last-score reads
// NaN while the distorted feed is lost, and a score again once a pair is
// scored.
GST_START_TEST(test_feed_lost_and_restored) {
  Harnesses h = MakeHarnesses({"feed-timeout=2000000000", "label=ch1", "max-in-flight=1"});
  GstTestClock* clock = s2c_test::ElementClock(h);
  // Both feeds at 1 s: the check due 2 s after going to PLAYING finds them
  // alive and looks again 2 s after their last buffer.
  gst_test_clock_set_time(clock, 1 * GST_SECOND);
  PushPair(&h, 0, kBad, 0);
  PullOut(&h, 1);
  fail_unless(!std::isnan(LastScore(h)));
  CrankTo(clock, 2 * GST_SECOND);
  s2c_test::Poll(&h);
  fail_unless_equals_int(h.seen.feeds.size(), 0);
  // Only the reference goes on (at 2.5 s): at 3 s the distorted feed is lost.
  gst_test_clock_set_time(clock, 2500 * GST_MSECOND);
  fail_unless_equals_int(gst_harness_push(h.ref, s2c_test::Frame(1, kFrame)), GST_FLOW_OK);
  CrankTo(clock, 3 * GST_SECOND);
  s2c_test::Poll(&h);
  fail_unless_equals_int(h.seen.feeds.size(), 1);
  const s2c::FeedMessage& lost = h.seen.feeds[0];
  fail_unless(lost.distorted && lost.lost);
  fail_unless_equals_uint64(lost.timeout, 2 * GST_SECOND);
  fail_unless(lost.origin.label == "ch1");
  fail_unless(std::isnan(LastScore(h)), "last-score is not stale while the feed is lost");
  // The distorted feed is back: restored, and the pair it completes scored.
  fail_unless_equals_int(gst_harness_push(h.dist, s2c_test::Frame(kBad, kFrame)), GST_FLOW_OK);
  PullOut(&h, 1);
  s2c_test::Poll(&h);
  fail_unless_equals_int(h.seen.feeds.size(), 2);
  fail_unless(h.seen.feeds[1].distorted && !h.seen.feeds[1].lost);
  fail_unless(!std::isnan(LastScore(h)));
  // Neither feed sends anything more: the reference is lost 2 s after its
  // last buffer (4.5 s), the distorted feed 2 s after its own (5 s).
  CrankTo(clock, 4500 * GST_MSECOND);
  CrankTo(clock, 5 * GST_SECOND);
  s2c_test::Poll(&h);
  fail_unless_equals_int(h.seen.feeds.size(), 4);
  fail_unless(!h.seen.feeds[2].distorted && h.seen.feeds[2].lost);
  fail_unless(h.seen.feeds[3].distorted && h.seen.feeds[3].lost);
  gst_object_unref(clock);
  Teardown(&h);
}
GST_END_TEST;

// summary-interval=200 ms at 25 fps: the frame at 200 ms closes the first
// window (frames 0 to 4), the frame at 400 ms the second; each summary
// holds its own frames' scores, the stream goes on, and the segment's
// summary at EOS is unchanged.
GST_START_TEST(test_periodic_summaries_of_each_window) {
  Harnesses h = MakeHarnesses({"summary-interval=200000000"});
  RunPairs(&h, {kGood, kBad, kGood, kGood, kGood, kBad, kBad, kBad, kBad, kBad, kGood, kGood});
  fail_unless_equals_int(h.seen.windows.size(), 2);
  fail_unless_equals_int(h.seen.frames.size(), 12);
  for (size_t w = 0; w < 2; ++w) {
    const s2c::WindowMessage& m = h.seen.windows[w];
    fail_unless_equals_uint64(m.start, w * 200 * GST_MSECOND);
    fail_unless_equals_uint64(m.end, (w + 1) * 200 * GST_MSECOND);
    fail_unless_equals_uint64(m.ref_frames, 5);
    fail_unless_equals_uint64(m.scores.frames, 5);
    fail_unless(m.scored_share() == 1.0);
    double lo = 1e9, hi = -1e9;
    for (size_t i = 5 * w; i < 5 * w + 5; ++i) {
      lo = std::min(lo, h.seen.frames[i].score);
      hi = std::max(hi, h.seen.frames[i].score);
    }
    fail_unless(m.scores.min == lo && m.scores.max == hi);
    fail_unless(m.scores.p5 == lo);  // the 1st of 5 by nearest rank
  }
  fail_unless_equals_uint64(h.seen.summaries.back().scores.frames, 12);
  Teardown(&h);
}
GST_END_TEST;

namespace {

// Two independent live sources of one rate (25 fps): the distorted one's
// frames come a third of a frame (13.333 ms) after the reference's.
constexpr GstClockTime kThirdOfAFrame = kFrame / 3;

// Pushes `frames` such pairs and pulls each reference frame out before the
// next (max-in-flight=1 lets a scored one go at once).
void RunOffsetSources(Harnesses* h, int frames) {
  for (int i = 0; i < frames; ++i) {
    const GstClockTime pts = i * kFrame;
    fail_unless_equals_int(gst_harness_push(h->ref, s2c_test::Frame(0, pts)), GST_FLOW_OK);
    fail_unless_equals_int(gst_harness_push(h->dist, s2c_test::Frame(0, pts + kThirdOfAFrame)),
                           GST_FLOW_OK);
    PullOut(h, 1);
  }
  s2c_test::Poll(h);
}

}  // namespace

// Live, with the pairing tolerance left alone, the two sources pair: half
// a frame (20 ms) covers a third of one. Every frame is scored, and
// coverage has nothing to say.
GST_START_TEST(test_live_sources_a_third_of_a_frame_apart_pair_by_default) {
  Harnesses h = MakeHarnesses({"summary-interval=200000000", "max-in-flight=1"});
  RunOffsetSources(&h, 12);
  fail_unless_equals_int(h.seen.frames.size(), 12);
  fail_unless_equals_int(h.seen.coverage.size(), 0);
  fail_unless(h.seen.warnings.empty(), "warning: %s",
              h.seen.warnings.empty() ? "" : h.seen.warnings[0].c_str());
  Teardown(&h);
}
GST_END_TEST;

// The same sources with pairing-tolerance=1 ms (set, so it holds live
// too): nothing pairs. Each 200 ms window with none of its 5 reference
// frames scored gives one warning and one coverage message that say the
// pads are not pairing, and by how much their timestamps differ.
GST_START_TEST(test_coverage_says_the_pads_do_not_pair) {
  Harnesses h = MakeHarnesses(
      {"summary-interval=200000000", "pairing-tolerance=1000000", "label=ch2"});
  RunOffsetSources(&h, 12);
  fail_unless_equals_int(h.seen.frames.size(), 0);
  fail_unless_equals_int(h.seen.coverage.size(), 2);
  for (size_t w = 0; w < 2; ++w) {
    const s2c::CoverageMessage& m = h.seen.coverage[w];
    fail_unless_equals_uint64(m.start, w * 200 * GST_MSECOND);
    fail_unless_equals_uint64(m.end, (w + 1) * 200 * GST_MSECOND);
    fail_unless_equals_uint64(m.ref_frames, 5);
    fail_unless_equals_uint64(m.frames_scored, 0);
    fail_unless(m.min_coverage == 0.5);
    fail_unless(m.cause == s2c::CoverageCause::kNotPairing, "cause %s",
                s2c::CoverageCauseName(m.cause));
    fail_unless(m.ref_unpaired >= 5 && m.dist_unpaired >= 4);
    fail_unless(m.has_pad_offset);
    fail_unless_equals_int64(m.pad_offset, static_cast<int64_t>(kThirdOfAFrame));
    fail_unless_equals_int64(m.pairing_tolerance, GST_MSECOND);
    fail_unless(m.origin.label == "ch2");
  }
  fail_unless_equals_int(h.seen.warnings.size(), 2);
  fail_unless(s2c_test::Contains(h.seen.warnings, "not pairing"), "%s",
              h.seen.warnings[0].c_str());
  fail_unless(s2c_test::Contains(h.seen.warnings, "+13.333 ms"), "%s",
              h.seen.warnings[0].c_str());
  Teardown(&h);
}
GST_END_TEST;

// min-coverage=0: the same stream is not checked.
GST_START_TEST(test_min_coverage_zero_checks_nothing) {
  Harnesses h = MakeHarnesses(
      {"summary-interval=200000000", "pairing-tolerance=1000000", "min-coverage=0"});
  RunOffsetSources(&h, 12);
  fail_unless_equals_int(h.seen.coverage.size(), 0);
  fail_unless(h.seen.warnings.empty());
  Teardown(&h);
}
GST_END_TEST;

static Suite* monitoring_suite() {
  Suite* s = suite_create("ssimulacra2cmp-monitoring");
  TCase* tc = tcase_create("monitoring");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_alarm_waits_for_the_hold);
  tcase_add_test(tc, test_alarm_without_hold_follows_each_frame);
  tcase_add_test(tc, test_every_message_has_label_and_utc);
  tcase_add_test(tc, test_feed_lost_and_restored);
  tcase_add_test(tc, test_periodic_summaries_of_each_window);
  tcase_add_test(tc, test_live_sources_a_third_of_a_frame_apart_pair_by_default);
  tcase_add_test(tc, test_coverage_says_the_pads_do_not_pair);
  tcase_add_test(tc, test_min_coverage_zero_checks_nothing);
  return s;
}

GST_CHECK_MAIN(monitoring)
