// SPDX-License-Identifier: BSD-3-Clause
// The ssimulacra2cmp element in pipelines and harnesses: pairing, messages,
// meta, statistics, errors. Runs on the backend S2C_TEST_BACKEND names (cpu
// by default, cuda on the GPU machine). Scores are compared as bits.
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "harnesses.h"
#include "pipeline_run.h"
#include "test_files.h"
#include "test_pipelines.h"

#include <gst/check/gstcheck.h>

using s2c_test::AssertBits;
using s2c_test::Contains;
using s2c_test::EndBoth;
using s2c_test::FlushBoth;
using s2c_test::Frame;
using s2c_test::Harnesses;
using s2c_test::I420;
using s2c_test::kFrame;
using s2c_test::MakeHarnesses;
using s2c_test::Poll;
using s2c_test::PullOut;
using s2c_test::PushPair;
using s2c_test::RunPipeline;
using s2c_test::RunResult;
using s2c_test::SameBits;
using s2c_test::Source;
using s2c_test::Teardown;
using s2c_test::TwoSources;
using s2c_test::WaitForError;
using s2c_test::WaitForWarning;
using s2c_test::WaitForSummary;

GST_START_TEST(test_identical_frames_score_exactly_100) {
  const RunResult r = RunPipeline(
      Source(5, I420(25).c_str()) +
      " ! tee name=t t. ! queue ! cmp.ref_sink t. ! queue ! cmp.dist_sink "
      "ssimulacra2cmp name=cmp ! fakesink name=out");
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 5);
  for (const s2c::FrameMessage& f : r.frames) AssertBits(f.score, 100.0);
  fail_unless_equals_int(r.summaries.size(), 1);
  AssertBits(r.summaries[0].scores.mean, 100.0);
  AssertBits(r.summaries[0].scores.p5, 100.0);
}
GST_END_TEST;

GST_START_TEST(test_message_fields_and_types) {
  Harnesses h = MakeHarnesses({});
  GstClockTime pts = 0;
  for (int i = 0; i < 3; ++i, pts += kFrame) PushPair(&h, i, i + 10, pts);
  EndBoth(&h);
  const auto out = PullOut(&h, 3);
  WaitForSummary(&h);
  fail_unless_equals_int(h.seen.frames.size(), 3);
  for (int i = 0; i < 3; ++i) {
    const s2c::FrameMessage& f = h.seen.frames[i];
    fail_unless_equals_uint64(f.frame_index, i);
    fail_unless_equals_uint64(f.timestamp, i * kFrame);
    fail_unless_equals_uint64(f.stream_time, i * kFrame);
    fail_unless_equals_uint64(f.running_time, i * kFrame);
    fail_unless_equals_uint64(f.duration, kFrame);
    fail_unless_equals_uint64(f.dist_timestamp, i * kFrame);
    fail_unless(f.score < 100.0, "different frames scored %.17g", f.score);
    // The meta carries the message's double.
    fail_unless(out[i].has_meta);
    AssertBits(out[i].meta.score, f.score);
    fail_unless_equals_uint64(out[i].meta.frame_index, i);
  }
  const s2c::SummaryMessage& s = h.seen.summaries[0];
  fail_unless(s.reason == "eos");
  fail_unless_equals_uint64(s.scores.frames, 3);
  fail_unless_equals_uint64(s.ref_unpaired, 0);
  fail_unless_equals_uint64(s.dist_unpaired, 0);
  // The raw structure has the documented types (FromStructure checked the rest).
  GstStructure* raw = h.seen.frames[0].ToStructure();
  fail_unless(gst_structure_get_field_type(raw, "score") == G_TYPE_DOUBLE);
  fail_unless(gst_structure_get_field_type(raw, "timestamp") == G_TYPE_UINT64);
  gst_structure_free(raw);
  double last = 0;
  GstStructure* stats = nullptr;
  g_object_get(h.ref->element, "last-score", &last, "stats", &stats, nullptr);
  AssertBits(last, h.seen.frames[2].score);
  s2c::SummaryMessage running;
  fail_unless(s2c::SummaryMessage::FromStructure(stats, &running));
  fail_unless(running.reason == "running");
  fail_unless_equals_uint64(running.scores.frames, 3);
  AssertBits(running.scores.max, s.scores.max);
  gst_structure_free(stats);
  Teardown(&h);
}
GST_END_TEST;

GST_START_TEST(test_meta_survives_videoconvert_and_tee) {
  const RunResult conv = RunPipeline(
      Source(4, I420(25).c_str()) + " ! cmp.ref_sink " + Source(4, I420(25).c_str(), "ball") +
      " ! cmp.dist_sink ssimulacra2cmp name=cmp ! videoconvert ! video/x-raw,format=RGBA ! "
      "tee name=t t. ! queue ! fakesink name=out t. ! queue ! fakesink");
  fail_unless(conv.errors.empty(), "error: %s", conv.errors.empty() ? "" : conv.errors[0].c_str());
  fail_unless_equals_int(conv.out.size(), 4);
  fail_unless_equals_int(conv.frames.size(), 4);
  for (size_t i = 0; i < conv.out.size(); ++i) {
    fail_unless(conv.out[i].has_meta, "buffer %zu lost its meta", i);
    AssertBits(conv.out[i].meta.score, conv.frames[i].score);
    fail_unless_equals_uint64(conv.out[i].meta.frame_index, i);
  }
}
GST_END_TEST;

GST_START_TEST(test_different_frame_rates_warn_and_pair_matching_times) {
  const RunResult r = RunPipeline(TwoSources(Source(10, I420(25).c_str()),
                                             Source(12, I420(30).c_str())));
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless(Contains(r.warnings, "videorate"), "no frame-rate warning");
  // 25 and 30 fps meet every 200 ms: at 0 and 200 ms in 400 ms.
  fail_unless_equals_int(r.frames.size(), 2);
  fail_unless_equals_uint64(r.frames[1].timestamp, 200 * GST_MSECOND);
  fail_unless_equals_uint64(r.frames[1].dist_timestamp, 200 * GST_MSECOND);
  fail_unless_equals_int(r.summaries.size(), 1);
  fail_unless_equals_uint64(r.summaries[0].ref_unpaired, 8);
  fail_unless_equals_uint64(r.summaries[0].dist_unpaired, 10);
  fail_unless_equals_int(r.out.size(), 10);  // every reference frame goes out
}
GST_END_TEST;

GST_START_TEST(test_dist_offset_shifts_pairing) {
  Harnesses h = MakeHarnesses({"dist-offset=40000000"});
  for (int i = 0; i < 4; ++i) PushPair(&h, i, i, i * kFrame);
  EndBoth(&h);
  const auto out = PullOut(&h, 4);
  WaitForSummary(&h);
  // dist at t is compared with ref at t + 40 ms: ref 0 has none, the last
  // distorted frame neither.
  fail_unless(!out[0].has_meta);
  fail_unless_equals_int(h.seen.frames.size(), 3);
  for (size_t i = 0; i < h.seen.frames.size(); ++i) {
    const s2c::FrameMessage& f = h.seen.frames[i];
    fail_unless_equals_uint64(f.timestamp, (i + 1) * kFrame);
    fail_unless_equals_uint64(f.dist_timestamp, i * kFrame);
  }
  fail_unless_equals_uint64(h.seen.summaries[0].ref_unpaired, 1);
  fail_unless_equals_uint64(h.seen.summaries[0].dist_unpaired, 1);
  Teardown(&h);
}
GST_END_TEST;

// The extremes of the pairing properties: no time arithmetic wraps around
// (a wrap-around with the largest tolerance scores 1 of 3 pairs and counts
// the other two frames of each stream as unpaired).
GST_START_TEST(test_extreme_tolerance_and_offset_do_not_wrap) {
  // Three frames on each pad, one property at an extreme.
  const auto three_pairs = [](const char* property) {
    return RunPipeline(TwoSources(Source(3, I420(25).c_str()), Source(3, I420(25).c_str())),
                       {property});
  };
  const RunResult wide = three_pairs("pairing-tolerance=9223372036854775807");
  fail_unless(wide.eos && wide.errors.empty());
  fail_unless_equals_int(wide.frames.size(), 3);
  fail_unless_equals_int(wide.summaries.back().ref_unpaired, 0);
  fail_unless_equals_int(wide.summaries.back().dist_unpaired, 0);
  // The smallest offset puts every distorted frame at the start of time:
  // none can pair, and nothing overflows on the way (the latency saturates).
  const RunResult early = three_pairs("dist-offset=-9223372036854775808");
  fail_unless(early.eos && early.errors.empty());
  fail_unless_equals_int(early.frames.size(), 0);
  fail_unless_equals_int(early.summaries.back().dist_unpaired, 3);
  fail_unless_equals_int(early.summaries.back().ref_unpaired, 3);
  // And the largest, every distorted frame at its end.
  const RunResult late = three_pairs("dist-offset=9223372036854775807");
  fail_unless(late.eos && late.errors.empty());
  fail_unless_equals_int(late.frames.size(), 0);
  fail_unless_equals_int(late.summaries.back().ref_unpaired, 3);
}
GST_END_TEST;

GST_START_TEST(test_reference_ending_first_drops_the_rest_of_dist) {
  const RunResult r = RunPipeline(TwoSources(Source(5, I420(25).c_str()),
                                             Source(10, I420(25).c_str())));
  fail_unless(r.errors.empty());
  fail_unless_equals_int(r.frames.size(), 5);
  fail_unless_equals_int(r.out.size(), 5);
  fail_unless_equals_uint64(r.summaries[0].dist_unpaired, 5);
  fail_unless_equals_uint64(r.summaries[0].ref_unpaired, 0);
}
GST_END_TEST;

GST_START_TEST(test_distorted_ending_first_passes_reference_unscored) {
  const RunResult r = RunPipeline(TwoSources(Source(10, I420(25).c_str()),
                                             Source(5, I420(25).c_str())));
  fail_unless(r.errors.empty());
  fail_unless_equals_int(r.frames.size(), 5);
  fail_unless_equals_int(r.out.size(), 10);
  for (int i = 0; i < 10; ++i) fail_unless(r.out[i].has_meta == (i < 5));
  fail_unless_equals_uint64(r.summaries[0].ref_unpaired, 5);
  int ended_warnings = 0;
  for (const std::string& w : r.warnings) ended_warnings += w.find("ended before") != std::string::npos;
  fail_unless_equals_int(ended_warnings, 1);
}
GST_END_TEST;

GST_START_TEST(test_gaps_are_not_frames) {
  Harnesses h = MakeHarnesses({});
  PushPair(&h, 1, 2, 0);
  // A gap on the distorted side where the reference has a frame.
  fail_unless(gst_harness_push(h.ref, Frame(1, kFrame)) == GST_FLOW_OK);
  fail_unless(gst_harness_push_event(h.dist, gst_event_new_gap(kFrame, kFrame)));
  PushPair(&h, 1, 2, 2 * kFrame);
  // A gap on the reference side goes out as a GAP event, not as a buffer.
  fail_unless(gst_harness_push_event(h.ref, gst_event_new_gap(3 * kFrame, kFrame)));
  EndBoth(&h);
  const auto out = PullOut(&h, 3);
  WaitForSummary(&h);
  fail_unless(out[0].has_meta && !out[1].has_meta && out[2].has_meta);
  fail_unless_equals_int(gst_harness_buffers_in_queue(h.ref), 0);
  bool gap_seen = false;
  while (GstEvent* event = gst_harness_try_pull_event(h.ref)) {
    if (GST_EVENT_TYPE(event) == GST_EVENT_GAP) {
      GstClockTime ts = 0, duration = 0;
      gst_event_parse_gap(event, &ts, &duration);
      fail_unless(!gap_seen && ts == 3 * kFrame && duration == kFrame);
      gap_seen = true;
    }
    gst_event_unref(event);
  }
  fail_unless(gap_seen, "no GAP event downstream");
  fail_unless_equals_int(h.seen.frames.size(), 2);
  fail_unless_equals_uint64(h.seen.frames[1].frame_index, 1);
  fail_unless_equals_uint64(h.seen.summaries[0].ref_unpaired, 1);
  fail_unless_equals_uint64(h.seen.summaries[0].dist_unpaired, 0);
  fail_unless_equals_uint64(h.seen.summaries[0].ref_gaps, 1);
  Teardown(&h);
}
GST_END_TEST;

GST_START_TEST(test_both_pads_changing_size_midstream_keeps_scoring) {
  // max-in-flight 1: each pair leaves before the next input, on any backend.
  Harnesses h = MakeHarnesses({"max-in-flight=1"});
  PushPair(&h, 1, 2, 0);
  PullOut(&h, 1);
  // The reference switches first; for a moment the two sizes differ.
  gst_harness_set_src_caps_str(h.ref, "video/x-raw,format=RGB,width=32,height=32,framerate=25/1");
  gst_harness_set_src_caps_str(h.dist, "video/x-raw,format=RGB,width=32,height=32,framerate=25/1");
  fail_unless(gst_harness_push(h.ref, Frame(1, kFrame, 32, 32)) == GST_FLOW_OK);
  fail_unless(gst_harness_push(h.dist, Frame(1, kFrame, 32, 32)) == GST_FLOW_OK);
  EndBoth(&h);
  const auto out = PullOut(&h, 1);
  WaitForSummary(&h);
  fail_unless(h.seen.errors.empty(), "error: %s",
              h.seen.errors.empty() ? "" : h.seen.errors[0].c_str());
  fail_unless_equals_int(h.seen.frames.size(), 2);
  AssertBits(out[0].meta.score, 100.0);
  Teardown(&h);
}
GST_END_TEST;

GST_START_TEST(test_size_mismatch_is_an_error_naming_videoscale) {
  const RunResult r = RunPipeline(TwoSources(
      Source(3, I420(25).c_str()),
      Source(3, "video/x-raw,format=I420,width=32,height=24,framerate=25/1")));
  fail_unless(!r.errors.empty(), "no error");
  fail_unless(Contains(r.errors, "videoscale"), "error does not name videoscale: %s",
              r.errors[0].c_str());
  fail_unless(r.frames.empty());
}
GST_END_TEST;

// Caps a pad refuses: ACCEPT_CAPS says no (so the CAPS event never reaches
// the pad, and the buffer is not negotiated), and a warning says what to
// insert, since the upstream element that fails posts GStreamer's generic
// error.
void ExpectCapsRefused(const char* caps, const char* needle) {
  Harnesses h = MakeHarnesses({}, caps);
  GstCaps* c = gst_caps_from_string(caps);
  fail_if(gst_pad_query_accept_caps(GST_PAD_PEER(h.dist->srcpad), c), "%s accepted", caps);
  gst_caps_unref(c);
  fail_unless_equals_int(
      gst_harness_push(h.ref, gst_buffer_new_allocate(nullptr, 16 * 16 * 4, nullptr)),
      GST_FLOW_NOT_NEGOTIATED);
  const std::string warning = WaitForWarning(&h, "ref_sink: ");
  fail_unless(warning.find(needle) != std::string::npos,
              "caps %s: warning \"%s\" lacks \"%s\"", caps, warning.c_str(), needle);
  Teardown(&h);
}

GST_START_TEST(test_unsupported_caps_are_refused_saying_what_to_insert) {
  ExpectCapsRefused("video/x-raw,format=YUY2,width=16,height=16,framerate=25/1", "videoconvert");
  ExpectCapsRefused("video/x-raw,format=I420,width=16,height=16,framerate=25/1,"
                    "interlace-mode=interleaved", "deinterlace");
  ExpectCapsRefused("video/x-raw,format=I420_10LE,width=16,height=16,framerate=25/1,"
                    "colorimetry=bt2100-pq",
                    "videoconvert gamma-mode=remap ! video/x-raw,format=I420_10LE,"
                    "colorimetry=bt2020");
  ExpectCapsRefused("video/x-raw,format=I420,width=16,height=16,framerate=25/1,"
                    "colorimetry=bt2100-hlg", "gamma-mode=remap");
  ExpectCapsRefused("video/x-raw,format=RGB,width=16,height=16,framerate=25/1,"
                    "colorimetry=1:1:1:1", "gamma-mode=remap ! video/x-raw,format=RGB,"
                    "colorimetry=sRGB");
  ExpectCapsRefused("video/x-raw,format=RGB,width=16,height=16,framerate=25/1,"
                    "colorimetry=1:1:7:11", "primaries-mode=fast");
  ExpectCapsRefused("video/x-raw,format=RGB,width=4,height=16,framerate=25/1", "videoscale");
}
GST_END_TEST;

GST_START_TEST(test_mixed_formats_on_the_two_pads) {
  // The same pictures as I420 and, repacked losslessly, as NV12.
  const RunResult r = RunPipeline(
      Source(3, I420(25).c_str()) +
      " ! tee name=t t. ! queue ! cmp.ref_sink t. ! queue ! videoconvert ! "
      "video/x-raw,format=NV12 ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out");
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 3);
  for (const s2c::FrameMessage& f : r.frames) AssertBits(f.score, 100.0);
}
GST_END_TEST;

GST_START_TEST(test_flush_drops_and_restarts_statistics) {
  // max-in-flight 1: the three pairs are out before the flush on any backend.
  Harnesses h = MakeHarnesses({"max-in-flight=1"});
  for (int i = 0; i < 3; ++i) PushPair(&h, i, i + 1, i * kFrame);
  PullOut(&h, 3);
  FlushBoth(&h);
  WaitForSummary(&h);
  fail_unless(h.seen.summaries[0].reason == "flush");
  fail_unless_equals_uint64(h.seen.summaries[0].scores.frames, 3);
  for (int i = 0; i < 2; ++i) PushPair(&h, i, i, i * kFrame);
  EndBoth(&h);
  PullOut(&h, 2);
  WaitForSummary(&h, 2);
  fail_unless_equals_int(h.seen.summaries.size(), 2);
  fail_unless(h.seen.summaries[1].reason == "eos");
  fail_unless_equals_uint64(h.seen.summaries[1].scores.frames, 2);
  AssertBits(h.seen.summaries[1].scores.min, 100.0);
  fail_unless_equals_int(h.seen.frames.size(), 5);
  fail_unless_equals_uint64(h.seen.frames[3].frame_index, 0);
  Teardown(&h);
}
GST_END_TEST;

// Scores of 12 distinct pairs with `depth` pairs allowed in flight.
std::vector<double> ScoresWithDepth(int depth) {
  Harnesses h = MakeHarnesses({"max-in-flight=" + std::to_string(depth)});
  for (int i = 0; i < 12; ++i) PushPair(&h, i, 3 * i + 1, i * kFrame);
  EndBoth(&h);
  const auto out = PullOut(&h, 12);
  WaitForSummary(&h);
  std::vector<double> scores;
  for (int i = 0; i < 12; ++i) {
    fail_unless(out[i].has_meta);
    fail_unless_equals_uint64(out[i].pts, i * kFrame);
    fail_unless_equals_uint64(out[i].meta.frame_index, i);
    fail_unless_equals_uint64(h.seen.frames[i].frame_index, i);
    AssertBits(out[i].meta.score, h.seen.frames[i].score);
    scores.push_back(out[i].meta.score);
  }
  fail_unless_equals_uint64(h.seen.summaries[0].scores.frames, 12);
  Teardown(&h);
  return scores;
}

GST_START_TEST(test_max_in_flight_keeps_order_and_loses_nothing) {
  const std::vector<double> one = ScoresWithDepth(1);
  const std::vector<double> four = ScoresWithDepth(4);
  for (size_t i = 0; i < one.size(); ++i) AssertBits(four[i], one[i]);
}
GST_END_TEST;

GST_START_TEST(test_threshold_alarm_with_hysteresis) {
  Harnesses h = MakeHarnesses({"threshold=99.5", "threshold-hysteresis=0.25"});
  const int dist_seed[] = {0, 9, 9, 0, 9};  // identical, worse, worse, identical, worse
  for (int i = 0; i < 5; ++i) PushPair(&h, 0, dist_seed[i], i * kFrame);
  EndBoth(&h);
  PullOut(&h, 5);
  WaitForSummary(&h);
  fail_unless_equals_int(h.seen.alarms.size(), 3);
  fail_unless(!h.seen.alarms[0].cleared && h.seen.alarms[0].frame_index == 1);
  fail_unless(h.seen.alarms[1].cleared && h.seen.alarms[1].frame_index == 3);
  fail_unless(!h.seen.alarms[2].cleared && h.seen.alarms[2].frame_index == 4);
  Teardown(&h);
}
GST_END_TEST;

// A csv results file: the header, a row per frame as it was posted, then
// the summary.
GST_START_TEST(test_results_file_has_one_line_per_frame) {
  const s2c::test::TempDir dir("element");
  const std::string path = dir / "scores.csv";
  const RunResult r = RunPipeline(TwoSources(Source(4, I420(25).c_str()),
                                             Source(4, I420(25).c_str(), "ball")),
                                  {"results-location=" + path, "results-format=csv"});
  fail_unless(r.errors.empty());
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  fail_unless(line == "frameNum,segment,timestamp,running_time,dist_timestamp,dist_frameNum,"
                      "alignFlagged,ssimulacra2,label,utc");
  size_t n = 0;
  while (std::getline(in, line) && line[0] != '#') {
    fail_unless(n < r.frames.size());
    // The score, then the label and the time of the frame message.
    const std::string origin = ",cmp," + r.frames[n].origin.utc;
    fail_unless(r.frames[n].origin.label == "cmp");
    fail_unless(line.size() > origin.size() &&
                    line.compare(line.size() - origin.size(), origin.size(), origin) == 0,
                "line %zu: %s", n, line.c_str());
    const std::string rest = line.substr(0, line.size() - origin.size());
    const double score = g_ascii_strtod(rest.substr(rest.rfind(',') + 1).c_str(), nullptr);
    AssertBits(score, r.frames[n].score);
    fail_unless(line.rfind(std::to_string(n) + ",0," + std::to_string(n * kFrame) + ",", 0) == 0,
                "line %zu: %s", n, line.c_str());
    ++n;
  }
  fail_unless_equals_int(n, 4);
  // Then the summary, starting with fps and the pooled statistics.
  char mean[32];
  std::snprintf(mean, sizeof mean, "%.17g", r.summaries.back().scores.mean);
  fail_unless(line.rfind("# fps,", 0) == 0, "after the frames: %s", line.c_str());
  bool saw_mean = false;
  while (std::getline(in, line)) saw_mean |= line == std::string("# mean,") + mean;
  fail_unless(saw_mean, "no \"# mean,%s\" line", mean);
}
GST_END_TEST;

GST_START_TEST(test_latency_covers_a_late_distorted_feed) {
  // dist-offset -100 ms: a reference frame waits up to 100 ms plus the
  // pairing tolerance for its partner, and the element says so.
  Harnesses h = MakeHarnesses({"dist-offset=-100000000", "pairing-tolerance=2000000",
                               "max-in-flight=1"});
  // The latency is set when the element takes the reference caps, which it
  // does in its streaming thread: let one pair through first.
  fail_unless_equals_int(gst_harness_push(h.ref, Frame(0, 0)), GST_FLOW_OK);
  fail_unless_equals_int(gst_harness_push(h.dist, Frame(0, 100 * GST_MSECOND)), GST_FLOW_OK);
  PullOut(&h, 1);
  fail_unless_equals_uint64(gst_harness_query_latency(h.ref), 102 * GST_MSECOND);
  Teardown(&h);
}
GST_END_TEST;

static Suite* ssimulacra2cmp_suite() {
  Suite* s = suite_create("ssimulacra2cmp");
  TCase* tc = tcase_create("element");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_identical_frames_score_exactly_100);
  tcase_add_test(tc, test_message_fields_and_types);
  tcase_add_test(tc, test_meta_survives_videoconvert_and_tee);
  tcase_add_test(tc, test_different_frame_rates_warn_and_pair_matching_times);
  tcase_add_test(tc, test_dist_offset_shifts_pairing);
  tcase_add_test(tc, test_extreme_tolerance_and_offset_do_not_wrap);
  tcase_add_test(tc, test_reference_ending_first_drops_the_rest_of_dist);
  tcase_add_test(tc, test_distorted_ending_first_passes_reference_unscored);
  tcase_add_test(tc, test_gaps_are_not_frames);
  tcase_add_test(tc, test_size_mismatch_is_an_error_naming_videoscale);
  tcase_add_test(tc, test_both_pads_changing_size_midstream_keeps_scoring);
  tcase_add_test(tc, test_unsupported_caps_are_refused_saying_what_to_insert);
  tcase_add_test(tc, test_mixed_formats_on_the_two_pads);
  tcase_add_test(tc, test_flush_drops_and_restarts_statistics);
  tcase_add_test(tc, test_max_in_flight_keeps_order_and_loses_nothing);
  tcase_add_test(tc, test_threshold_alarm_with_hysteresis);
  tcase_add_test(tc, test_results_file_has_one_line_per_frame);
  tcase_add_test(tc, test_latency_covers_a_late_distorted_feed);
  return s;
}

GST_CHECK_MAIN(ssimulacra2cmp)
