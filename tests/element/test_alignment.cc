// SPDX-License-Identifier: BSD-3-Clause
// Alignment in the element (align, align-window, ref-start-frame,
// dist-start-frame): on moving pictures made in the test (pan_clip.h),
// align=auto finds a distorted stream's delay in frames and follows a
// dropped frame, saying so in alignment messages; every pair it scores at
// the right offset has the bits of the same two frames paired by hand
// (align=off with dist-offset); align=index pairs the n-th frames whatever
// their timestamps; the frame messages and results files say which
// distorted frame each score is of; each segment, discontinuity and
// restored feed starts the alignment again; live, the latency covers the
// frames the aligner holds.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "frame_aligner.h"
#include "harnesses.h"
#include "pan_clip.h"
#include "pipeline_run.h"
#include "test_files.h"
#include "test_pipelines.h"

using s2c_test::Harnesses;
using s2c_test::kElsewhere;
using s2c_test::kPanFrame;
using s2c_test::PanFormat;
using s2c_test::Run;
using s2c_test::RunResult;
using s2c_test::Then;

namespace {

constexpr int kClip = 60;

// Two appsrc into the element, the clip's caps on both.
std::string AppSources(PanFormat format) {
  const std::string caps = s2c_test::PanCaps(format);
  return "appsrc name=ref format=time max-bytes=0 caps=" + caps +
         " ! cmp.ref_sink appsrc name=dist format=time max-bytes=0 caps=" + caps +
         " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out";
}

// What each pad gets: the clip's frames `ref` and `dist` (distorted), the
// distorted frame j at dist_pts[j] (j frames when empty).
struct Streams {
  PanFormat format = PanFormat::kI420;
  std::vector<int> ref;
  std::vector<int> dist;
  std::vector<GstClockTime> dist_pts;
};

RunResult RunStreams(const Streams& st, const std::vector<std::string>& props) {
  const RunResult r = s2c_test::RunPipeline(AppSources(st.format), props, [&st](GstElement* p) {
    s2c_test::PushClip(p, "ref", st.format, st.ref, false);
    s2c_test::PushClip(p, "dist", st.format, st.dist, true, st.dist_pts);
  });
  fail_unless(r.eos && r.errors.empty(), "%s", r.errors.empty() ? "no EOS" : r.errors[0].c_str());
  return r;
}

std::vector<std::string> With(std::vector<std::string> props, const std::string& more) {
  props.push_back(more);
  return props;
}

std::vector<s2c::AlignmentMessage> Decided(const std::vector<s2c::AlignmentMessage>& all) {
  std::vector<s2c::AlignmentMessage> decided;
  for (const s2c::AlignmentMessage& m : all) {
    if (m.decided) decided.push_back(m);
  }
  return decided;
}

// The frame messages of a run by their reference frame's number.
std::map<uint64_t, s2c::FrameMessage> ByFrame(const RunResult& r) {
  std::map<uint64_t, s2c::FrameMessage> by_frame;
  for (const s2c::FrameMessage& f : r.frames) by_frame[f.frame_index] = f;
  return by_frame;
}

// The pairs of `aligned` that pair reference frame n with distorted frame
// n + offset (by the streams' own numbers, as videotestsrc sets them):
// each scored with the bits `by_hand` has for that reference frame. An
// unflagged pair at any other offset fails. Returns their number.
int ExpectScoredAsByHand(const RunResult& aligned, const RunResult& by_hand, int64_t offset) {
  const std::map<uint64_t, s2c::FrameMessage> hand = ByFrame(by_hand);
  int at_offset = 0;
  for (const s2c::FrameMessage& f : aligned.frames) {
    const int64_t got = static_cast<int64_t>(f.dist_frame_index) - static_cast<int64_t>(f.frame_index);
    fail_unless(got == offset || f.align_flagged,
                "reference frame %" G_GUINT64_FORMAT " unflagged with distorted frame %" G_GUINT64_FORMAT,
                f.frame_index, f.dist_frame_index);
    if (got != offset) continue;
    const auto it = hand.find(f.frame_index);
    fail_unless(it != hand.end(), "frame %" G_GUINT64_FORMAT " not scored by hand", f.frame_index);
    s2c_test::AssertBits(f.score, it->second.score);
    fail_unless_equals_uint64(f.dist_timestamp, it->second.dist_timestamp);
    ++at_offset;
  }
  return at_offset;
}

void ExpectSummaryCounts(const RunResult& r) {
  const s2c::SummaryMessage& m = r.summaries.back();
  uint64_t flagged = 0;
  for (const s2c::FrameMessage& f : r.frames) flagged += f.align_flagged;
  fail_unless_equals_uint64(m.align_flagged, flagged);
  const size_t decided = Decided(r.alignments).size();
  fail_unless_equals_uint64(m.realignments, decided > 0 ? decided - 1 : 0);
}

}  // namespace

// The distorted stream 3 frames late (three unrelated frames first) and 2
// frames early: align=auto decides the offset once, at the start, with
// the running-time difference of that pair; the pairs at that offset are
// the pairs dist-offset makes by hand, bit for bit. By hand (align=off)
// the frame messages number the distorted frames too, never flagged.
GST_START_TEST(test_auto_finds_a_late_and_an_early_stream) {
  const struct {
    int64_t offset;
    std::vector<int> dist;
  } kCases[] = {{3, Then(Run(kElsewhere, 3), Run(0, kClip - 3))}, {-2, Run(2, kClip)}};
  for (const auto& c : kCases) {
    Streams st;
    st.ref = Run(0, kClip);
    st.dist = c.dist;
    const RunResult aligned = RunStreams(st, {"align=auto"});
    const int64_t offset_ns = c.offset * static_cast<int64_t>(kPanFrame);
    const RunResult by_hand = RunStreams(st, {"dist-offset=" + std::to_string(-offset_ns)});
    const std::vector<s2c::AlignmentMessage> decided = Decided(aligned.alignments);
    fail_unless_equals_int(decided.size(), 1);
    fail_unless_equals_string(decided[0].reason.c_str(), "start");
    fail_unless_equals_int64(decided[0].offset_frames, c.offset);
    fail_unless_equals_int64(decided[0].offset_ns, offset_ns);
    fail_unless(decided[0].confidence > 0.0 && decided[0].confidence <= 1.0);
    fail_unless(decided[0].origin.label == "cmp");
    const int pairs = kClip - static_cast<int>(c.offset > 0 ? c.offset : -c.offset);
    fail_unless_equals_int(by_hand.frames.size(), pairs);
    for (const s2c::FrameMessage& f : by_hand.frames) {
      fail_unless_equals_uint64(f.dist_frame_index, f.frame_index + c.offset);
      fail_unless(!f.align_flagged);
    }
    fail_unless_equals_int(ExpectScoredAsByHand(aligned, by_hand, c.offset), pairs);
    ExpectSummaryCounts(aligned);
    const std::string offsets = std::to_string(c.offset) + ":" + std::to_string(pairs);
    fail_unless_equals_string(aligned.summaries.back().offsets.c_str(), offsets.c_str());
    fail_unless_equals_string(by_hand.summaries.back().offsets.c_str(), "");
    fail_unless_equals_uint64(by_hand.summaries.back().align_flagged, 0);
  }
}
GST_END_TEST;

// align=index pairs the n-th reference frame with the n-th distorted
// frame although the distorted timestamps start a second later at 30 fps:
// the same bits as the same frames with the same timestamps paired by time.
GST_START_TEST(test_index_pairs_the_nth_frames_whatever_their_times) {
  constexpr int kFrames = 30;
  Streams st;
  st.ref = Run(0, kFrames);
  st.dist = Run(0, kFrames);
  for (int j = 0; j < kFrames; ++j) st.dist_pts.push_back(GST_SECOND + j * GST_SECOND / 30);
  const RunResult indexed = RunStreams(st, {"align=index"});
  const std::vector<GstClockTime> dist_pts = st.dist_pts;
  st.dist_pts.clear();
  const RunResult by_time = RunStreams(st, {});
  fail_unless_equals_int(indexed.frames.size(), kFrames);
  fail_unless_equals_int(by_time.frames.size(), kFrames);
  for (int i = 0; i < kFrames; ++i) {
    const s2c::FrameMessage& f = indexed.frames[i];
    fail_unless_equals_uint64(f.frame_index, i);
    fail_unless_equals_uint64(f.dist_frame_index, i);
    fail_unless_equals_uint64(f.dist_timestamp, dist_pts[i]);
    fail_unless(!f.align_flagged);
    s2c_test::AssertBits(f.score, by_time.frames[i].score);
  }
  const s2c::SummaryMessage& m = indexed.summaries.back();
  fail_unless_equals_string(m.offsets.c_str(), "0:30");
  fail_unless_equals_uint64(m.ref_unpaired + m.dist_unpaired + m.align_flagged, 0);
}
GST_END_TEST;

// ref-start-frame=2 and dist-start-frame=3 skip the unrelated frames each
// stream begins with, in every align mode: the first two references leave
// unscored and counted in nothing, the first three distorted frames are
// dropped uncounted, and the distorted frames are numbered after them.
GST_START_TEST(test_start_frames_are_left_out) {
  Streams st;
  st.ref = Then(Run(kElsewhere, 2), Run(0, 30));
  st.dist = Then(Run(kElsewhere + 50, 3), Run(0, 30));
  Streams plain;
  plain.ref = plain.dist = Run(0, 30);
  const RunResult expected = RunStreams(plain, {});
  const std::vector<std::string> starts = {"ref-start-frame=2", "dist-start-frame=3"};
  // By time, the distorted frames one frame later than the references.
  for (const std::vector<std::string>& props :
       {With(starts, "align=index"), With(starts, "align=auto"),
        With(starts, "dist-offset=-" + std::to_string(kPanFrame))}) {
    const RunResult r = RunStreams(st, props);
    fail_unless_equals_int(r.out.size(), 32);
    fail_unless(!r.out[0].has_meta && !r.out[1].has_meta);
    fail_unless_equals_int(r.frames.size(), 30);
    for (size_t i = 0; i < r.frames.size(); ++i) {
      const s2c::FrameMessage& f = r.frames[i];
      fail_unless_equals_uint64(f.frame_index, i + 2);
      fail_unless_equals_uint64(f.dist_frame_index, i);
      fail_unless_equals_uint64(f.dist_timestamp, (i + 3) * kPanFrame);
      s2c_test::AssertBits(f.score, expected.frames[i].score);
    }
    const s2c::SummaryMessage& m = r.summaries.back();
    fail_unless_equals_uint64(m.ref_unpaired + m.dist_unpaired + m.ref_late + m.ref_skipped, 0);
  }
}
GST_END_TEST;

// Each results format has every frame's dist_frameNum and alignFlagged as
// its message says, and the summary's alignment counts.
GST_START_TEST(test_results_files_say_which_distorted_frame) {
  const s2c::test::TempDir dir("alignment");
  Streams st;
  st.ref = Run(0, kClip);
  st.dist = Then(Run(kElsewhere, 3), Run(0, kClip - 3));
  for (const char* format : {"jsonl", "csv", "json"}) {
    const bool csv = std::string(format) == "csv";
    const std::string path = dir / (std::string("r.") + format);
    const RunResult r = RunStreams(st, {"align=auto", "results-location=" + path,
                                        std::string("results-format=") + format});
    const std::string text = s2c::test::ReadFile(path);
    fail_unless(!r.frames.empty());
    for (const s2c::FrameMessage& f : r.frames) {
      const std::string ts = std::to_string(f.timestamp);
      const std::string dts = std::to_string(f.dist_timestamp);
      const std::string dn = std::to_string(f.dist_frame_index);
      const std::string record =
          csv ? "\n" + std::to_string(f.frame_index) + ",0," + ts + "," + ts + "," + dts + "," +
                    dn + "," + (f.align_flagged ? "1," : "0,")
              : "{\"frameNum\":" + std::to_string(f.frame_index) + ",\"segment\":0,\"timestamp\":" +
                    ts + ",\"running_time\":" + ts + ",\"dist_timestamp\":" + dts +
                    ",\"dist_frameNum\":" + dn +
                    ",\"alignFlagged\":" + (f.align_flagged ? "true," : "false,");
      fail_unless(text.find(record) != std::string::npos, "%s: no %s", format, record.c_str());
    }
    const s2c::SummaryMessage& m = r.summaries.back();
    const std::string flagged = std::to_string(m.align_flagged);
    const std::string summary =
        csv ? "# align_flagged," + flagged + "\n# realignments,0\n# offsets," + m.offsets + "\n"
            : "\"align_flagged\":" + flagged + ",\"realignments\":0,\"offsets\":\"" + m.offsets +
                  "\"";
    fail_unless(text.find(summary) != std::string::npos, "%s: no %s", format, summary.c_str());
  }
}
GST_END_TEST;

// RGB (the aligner reads the green): the distorted stream loses frame 25,
// its timestamps kept. align=auto decides offset 0 at the start, then -1
// where the frame is missing, with a dropped-frame message; the pairs of
// the same pictures have the bits pairing by time gives them.
GST_START_TEST(test_a_dropped_frame_is_followed) {
  Streams st;
  st.format = PanFormat::kRgb;
  st.ref = Run(0, kClip);
  st.dist = Then(Run(0, 25), Run(26, kClip - 26));
  for (int c : st.dist) st.dist_pts.push_back(c * kPanFrame);
  const RunResult aligned = RunStreams(st, {"align=auto"});
  const RunResult by_time = RunStreams(st, {});
  const std::vector<s2c::AlignmentMessage> decided = Decided(aligned.alignments);
  fail_unless_equals_int(decided.size(), 2);
  fail_unless_equals_string(decided[0].reason.c_str(), "start");
  fail_unless_equals_int64(decided[0].offset_frames, 0);
  fail_unless_equals_string(decided[1].reason.c_str(), "dropped-frame");
  fail_unless_equals_int64(decided[1].offset_frames, -1);
  fail_unless(decided[1].frame_index >= 25 && decided[1].frame_index <= 27,
              "the drop reported from frame %" G_GUINT64_FORMAT, decided[1].frame_index);
  // The same timestamps: the pair of that offset is no time apart.
  fail_unless_equals_int64(decided[1].offset_ns, 0);
  const std::map<uint64_t, s2c::FrameMessage> hand = ByFrame(by_time);
  int same_pictures = 0;
  for (const s2c::FrameMessage& f : aligned.frames) {
    // Timestamps follow the pictures here: a pair of one picture has one.
    if (f.dist_timestamp != f.timestamp) {
      fail_unless(f.align_flagged, "frame %" G_GUINT64_FORMAT " unflagged", f.frame_index);
      continue;
    }
    fail_unless_equals_uint64(f.dist_frame_index, f.frame_index < 25 ? f.frame_index
                                                                      : f.frame_index - 1);
    s2c_test::AssertBits(f.score, hand.at(f.frame_index).score);
    ++same_pictures;
  }
  fail_unless(same_pictures >= kClip - 4, "%d pairs of one picture", same_pictures);
  ExpectSummaryCounts(aligned);
  fail_unless(aligned.summaries.back().offsets.find("-1:") != std::string::npos);
}
GST_END_TEST;

namespace {

void PushPan(Harnesses* h, bool dist, int content, GstClockTime pts, bool discont = false) {
  GstBuffer* b = s2c_test::PanFrame(PanFormat::kI420, content, dist, pts);
  if (discont) GST_BUFFER_FLAG_SET(b, GST_BUFFER_FLAG_DISCONT);
  fail_unless_equals_int(gst_harness_push(dist ? h->dist : h->ref, b), GST_FLOW_OK);
}

// Reference frames `first` .. `first` + n - 1 and their distorted partners
// at `offset`, pushed in pairs from pts `from`.
void PushPairs(Harnesses* h, int first, int n, int offset, GstClockTime from) {
  for (int i = 0; i < n; ++i) {
    PushPan(h, false, first + i, from + i * kPanFrame);
    PushPan(h, true, first + i - offset, from + i * kPanFrame);
  }
}

Harnesses AlignHarnesses(const std::vector<std::string>& props) {
  std::vector<std::string> all = {"align=auto"};
  all.insert(all.end(), props.begin(), props.end());
  return s2c_test::MakeHarnesses(all,
                                 s2c_test::PanCaps(PanFormat::kI420).c_str());
}

}  // namespace

// A flush starts a new aligner: the second segment's offset is decided
// afresh, reason start, and is no realignment.
GST_START_TEST(test_each_segment_is_aligned_afresh) {
  Harnesses h = AlignHarnesses({});
  PushPairs(&h, 0, 40, 3, 0);
  // Segment 0's frames are being scored (live-policy=wait): flushed after 20.
  s2c_test::PullOut(&h, 20);
  s2c_test::FlushBoth(&h);
  s2c_test::WaitForSummary(&h);
  const size_t first = h.seen.alignments.size();
  PushPairs(&h, 100, 40, -2, 0);
  s2c_test::EndBoth(&h);
  s2c_test::WaitForSummary(&h, 2);
  const std::vector<s2c::AlignmentMessage> one = Decided(
      {h.seen.alignments.begin(), h.seen.alignments.begin() + static_cast<long>(first)});
  const std::vector<s2c::AlignmentMessage> two = Decided(
      {h.seen.alignments.begin() + static_cast<long>(first), h.seen.alignments.end()});
  fail_unless(!one.empty() && !two.empty());
  fail_unless_equals_int64(one[0].offset_frames, 3);
  fail_unless_equals_string(two[0].reason.c_str(), "start");
  fail_unless_equals_int64(two[0].offset_frames, -2);
  fail_unless_equals_uint64(h.seen.summaries[1].segment, 1);
  fail_unless_equals_uint64(h.seen.summaries[1].realignments, two.size() - 1);
  // The distorted frames are numbered from 0 again: reference frame 2 with
  // distorted frame 0, ..., 39 with 37.
  fail_unless_equals_uint64(h.seen.frames.back().dist_frame_index, 37);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// A distorted buffer flagged DISCONT mid-stream (two frames lost in
// between) restarts the alignment from the reference frame it would have
// paired with: the new offset is reported as feed-restored from there, not
// as drift.
GST_START_TEST(test_a_discontinuity_restarts_the_alignment) {
  Harnesses h = AlignHarnesses({});
  PushPairs(&h, 0, 25, 0, 0);
  for (int i = 25; i < 60; ++i) {
    PushPan(&h, false, i, i * kPanFrame);
    PushPan(&h, true, i + 2, i * kPanFrame, i == 25);
  }
  s2c_test::EndBoth(&h);
  s2c_test::WaitForSummary(&h);
  const std::vector<s2c::AlignmentMessage> decided = Decided(h.seen.alignments);
  fail_unless_equals_int(decided.size(), 2);
  fail_unless_equals_string(decided[0].reason.c_str(), "start");
  fail_unless_equals_int64(decided[0].offset_frames, 0);
  fail_unless_equals_string(decided[1].reason.c_str(), "feed-restored");
  fail_unless_equals_int64(decided[1].offset_frames, -2);
  fail_unless_equals_uint64(decided[1].frame_index, 25);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// The distorted feed lost (feed-timeout on the test clock, as in
// test_monitoring.cc) while the reference goes on for two frames, then
// restored: the alignment restarts, reason feed-restored.
GST_START_TEST(test_a_restored_feed_restarts_the_alignment) {
  Harnesses h = AlignHarnesses({"feed-timeout=2000000000"});
  GstTestClock* clock = s2c_test::ElementClock(h);
  gst_test_clock_set_time(clock, 1 * GST_SECOND);
  PushPairs(&h, 0, 20, 0, 0);
  GstClockID id = nullptr;
  for (const GstClockTime at : {2 * GST_SECOND, 3 * GST_SECOND}) {
    gst_test_clock_wait_for_next_pending_id(clock, &id);
    fail_unless_equals_uint64(gst_clock_id_get_time(id), at);
    gst_clock_id_unref(id);
    if (at == 3 * GST_SECOND) {
      // Only the reference goes on: at 3 s the distorted feed is lost.
      gst_test_clock_set_time(clock, 2500 * GST_MSECOND);
      PushPan(&h, false, 20, 20 * kPanFrame);
      PushPan(&h, false, 21, 21 * kPanFrame);
    }
    fail_unless(gst_test_clock_crank(clock));
  }
  // Back with the pictures of now: two frames further on.
  for (int i = 22; i < 60; ++i) {
    PushPan(&h, true, i, i * kPanFrame);
    PushPan(&h, false, i, i * kPanFrame);
  }
  s2c_test::EndBoth(&h);
  s2c_test::WaitForSummary(&h);
  fail_unless_equals_int(h.seen.feeds.size(), 2);
  const std::vector<s2c::AlignmentMessage> decided = Decided(h.seen.alignments);
  // Restarted from the reference frame the restored distorted frame
  // would have paired with, 20: the two before it had no partner.
  fail_unless_equals_int(decided.size(), 2);
  fail_unless_equals_string(decided[0].reason.c_str(), "start");
  fail_unless_equals_string(decided[1].reason.c_str(), "feed-restored");
  fail_unless_equals_int64(decided[1].offset_frames, -2);
  fail_unless_equals_uint64(decided[1].frame_index, 20);
  gst_object_unref(clock);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

namespace {

// The latency the element reports upstream of nothing (GstHarness's
// sources are live with none), once its reference caps have set it: NONE
// when it does not settle on `expected` within 10 s.
GstClockTime LatencyOnceSet(const Harnesses& h, GstClockTime expected) {
  GstClockTime min = GST_CLOCK_TIME_NONE;
  for (int i = 0; i < 1000 && min != expected; ++i) {
    GstQuery* q = gst_query_new_latency();
    gboolean live = FALSE;
    if (gst_element_query(h.element(), q)) gst_query_parse_latency(q, &live, &min, nullptr);
    gst_query_unref(q);
    if (min != expected) g_usleep(10000);
  }
  return min;
}

}  // namespace

// Live, align=auto adds the frames the aligner holds to the latency: the
// element's own (max-in-flight 2: one frame) and the pairing tolerance
// (half a frame), plus FramesHeld frames of the reference at 25 fps.
GST_START_TEST(test_live_latency_covers_the_frames_held) {
  const GstClockTime base = kPanFrame + kPanFrame / 2;
  for (const int window : {4, 12}) {
    Harnesses h = AlignHarnesses({"live-policy=pass-unscored", "align-window=" + std::to_string(window)});
    const GstClockTime held =
        static_cast<GstClockTime>(s2c::FrameAligner(s2c::AlignMode::kAuto, window).FramesHeld());
    const GstClockTime expected = base + held * kPanFrame;
    fail_unless_equals_uint64(LatencyOnceSet(h, expected), expected);
    s2c_test::Teardown(&h);
  }
  Harnesses off = s2c_test::MakeHarnesses({"live-policy=pass-unscored"},
                                          s2c_test::PanCaps(PanFormat::kI420).c_str());
  fail_unless_equals_uint64(LatencyOnceSet(off, base), base);
  s2c_test::Teardown(&off);
}
GST_END_TEST;

static Suite* alignment_suite() {
  Suite* s = suite_create("ssimulacra2cmp-alignment");
  TCase* tc = tcase_create("alignment");
  tcase_set_timeout(tc, 300);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_auto_finds_a_late_and_an_early_stream);
  tcase_add_test(tc, test_index_pairs_the_nth_frames_whatever_their_times);
  tcase_add_test(tc, test_start_frames_are_left_out);
  tcase_add_test(tc, test_results_files_say_which_distorted_frame);
  tcase_add_test(tc, test_a_dropped_frame_is_followed);
  tcase_add_test(tc, test_each_segment_is_aligned_afresh);
  tcase_add_test(tc, test_a_discontinuity_restarts_the_alignment);
  tcase_add_test(tc, test_a_restored_feed_restarts_the_alignment);
  tcase_add_test(tc, test_live_latency_covers_the_frames_held);
  return s;
}

GST_CHECK_MAIN(alignment)
