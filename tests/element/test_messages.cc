// SPDX-License-Identifier: BSD-3-Clause
// Messages, meta, statistics and the results file without a pipeline: each
// typed struct survives the trip through its GstStructure bit for bit, with
// the documented field types.
#include <gst/gst.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "check.h"
#include "results_writer.h"
#include "score_message.h"
#include "score_meta.h"
#include "stats.h"
#include "test_files.h"

namespace {

using s2c::test::ReadFile;
using s2c::test::SameBits;
using s2c::test::TempDir;

void TestFrameRoundTrip() {
  s2c::FrameMessage f;
  f.score = 81.742907359999999;
  f.frame_index = 7;
  f.timestamp = 280 * GST_MSECOND;
  f.stream_time = 280 * GST_MSECOND;
  f.running_time = 180 * GST_MSECOND;
  f.duration = 40 * GST_MSECOND;
  f.dist_timestamp = 240 * GST_MSECOND;
  f.dist_frame_index = 5;
  f.align_flagged = true;
  f.segment = 2;
  f.origin.label = "channel 7";
  f.origin.utc = s2c::UtcNow();
  GstStructure* s = f.ToStructure();
  S2C_CHECK(s2c::GetMessageType(s) == s2c::MessageType::kFrame);
  S2C_CHECK(gst_structure_has_name(s, "ssimulacra2cmp"));
  S2C_CHECK(gst_structure_get_field_type(s, "score") == G_TYPE_DOUBLE);
  S2C_CHECK(gst_structure_get_field_type(s, "frame-index") == G_TYPE_UINT64);
  S2C_CHECK(gst_structure_get_field_type(s, "dist-timestamp") == G_TYPE_UINT64);
  S2C_CHECK(gst_structure_get_field_type(s, "dist-frame-index") == G_TYPE_UINT64);
  S2C_CHECK(gst_structure_get_field_type(s, "align-flagged") == G_TYPE_BOOLEAN);
  // The origin last: label, then utc, as strings.
  const int n = gst_structure_n_fields(s);
  S2C_CHECK(std::string(gst_structure_nth_field_name(s, n - 2)) == "label");
  S2C_CHECK(std::string(gst_structure_nth_field_name(s, n - 1)) == "utc");
  S2C_CHECK(gst_structure_get_field_type(s, "utc") == G_TYPE_STRING);
  // ISO 8601 in UTC to the millisecond, which GLib reads back.
  S2C_CHECK(f.origin.utc.size() == 24 && f.origin.utc.back() == 'Z');
  GDateTime* utc = g_date_time_new_from_iso8601(f.origin.utc.c_str(), nullptr);
  S2C_CHECK(utc != nullptr);
  if (utc != nullptr) g_date_time_unref(utc);
  s2c::FrameMessage back;
  S2C_CHECK(s2c::FrameMessage::FromStructure(s, &back));
  S2C_CHECK_SAME(back.score, f.score);
  S2C_CHECK(back.frame_index == 7 && back.segment == 2 && back.timestamp == f.timestamp &&
        back.stream_time == f.stream_time && back.running_time == f.running_time &&
        back.duration == f.duration && back.dist_timestamp == f.dist_timestamp);
  S2C_CHECK(back.dist_frame_index == 5 && back.align_flagged);
  S2C_CHECK(back.origin.label == f.origin.label && back.origin.utc == f.origin.utc);
  s2c::SummaryMessage wrong;
  S2C_CHECK(!s2c::SummaryMessage::FromStructure(s, &wrong));
  gst_structure_free(s);
}

void TestSummaryAndThresholdRoundTrip() {
  s2c::ScoreStats stats;
  for (double v : {90.0, 80.0, 100.0, 70.0}) stats.Add(v);
  s2c::SummaryMessage m;
  m.reason = "eos";
  m.scores = stats.Summarize();
  m.ref_unpaired = 3;
  m.dist_unpaired = 4;
  m.ref_late = 5;
  m.results_lost = 6;
  m.ref_skipped = 7;
  m.ref_gaps = 8;
  m.ref_overdue = 10;
  m.segment = 9;
  m.colorimetry_mode = "per-stream";
  m.colorimetry_adopted = "primaries bt709 -> bt2020";
  m.align_flagged = 11;
  m.realignments = 12;
  m.offsets = "3:40,2:17";
  GstStructure* s = m.ToStructure();
  s2c::SummaryMessage back;
  S2C_CHECK(s2c::SummaryMessage::FromStructure(s, &back));
  S2C_CHECK(back.segment == 9);
  S2C_CHECK(back.colorimetry_mode == "per-stream" &&
            back.colorimetry_adopted == "primaries bt709 -> bt2020");
  S2C_CHECK(back.reason == "eos" && back.scores.frames == 4 && back.ref_unpaired == 3 &&
        back.dist_unpaired == 4 && back.ref_late == 5 && back.results_lost == 6 &&
        back.ref_skipped == 7 && back.ref_gaps == 8 && back.ref_overdue == 10);
  S2C_CHECK(back.align_flagged == 11 && back.realignments == 12 && back.offsets == "3:40,2:17");
  S2C_CHECK(SameBits(back.scores.mean, 85.0) && SameBits(back.scores.min, 70.0) &&
        SameBits(back.scores.max, 100.0) && SameBits(back.scores.p5, 70.0));
  // Nearest rank on 70, 80, 90, 100: p25 the 1st, the median the 2nd, p75
  // the 3rd, p95 the 4th smallest.
  S2C_CHECK(SameBits(back.scores.p1, 70.0) && SameBits(back.scores.p10, 70.0) &&
        SameBits(back.scores.p25, 70.0) && SameBits(back.scores.median, 80.0) &&
        SameBits(back.scores.p75, 90.0) && SameBits(back.scores.p95, 100.0));
  S2C_CHECK_SAME(back.scores.harmonic_mean, m.scores.harmonic_mean);
  S2C_CHECK_SAME(back.scores.stddev, std::sqrt(125.0));
  gst_structure_free(s);

  s2c::ThresholdMessage t;
  t.cleared = true;
  t.score = 61.5;
  t.threshold = 60.0;
  t.frame_index = 9;
  s = t.ToStructure();
  S2C_CHECK(s2c::GetMessageType(s) == s2c::MessageType::kThresholdCleared);
  s2c::ThresholdMessage tb;
  S2C_CHECK(s2c::ThresholdMessage::FromStructure(s, &tb));
  S2C_CHECK(tb.cleared && SameBits(tb.score, 61.5) && tb.frame_index == 9);
  gst_structure_free(s);
}

void TestAlignmentRoundTrip() {
  s2c::AlignmentMessage m;
  m.offset_frames = -2;
  m.offset_ns = -80 * GST_MSECOND;
  m.confidence = 0.8125;
  m.reason = "dropped-frame";
  m.decided = true;
  m.frame_index = 25;
  m.origin.label = "channel 7";
  m.origin.utc = s2c::UtcNow();
  GstStructure* s = m.ToStructure();
  S2C_CHECK(s2c::GetMessageType(s) == s2c::MessageType::kAlignment);
  S2C_CHECK(gst_structure_get_field_type(s, "offset-frames") == G_TYPE_INT64);
  S2C_CHECK(gst_structure_get_field_type(s, "offset-ns") == G_TYPE_INT64);
  S2C_CHECK(gst_structure_get_field_type(s, "confidence") == G_TYPE_DOUBLE);
  S2C_CHECK(gst_structure_get_field_type(s, "reason") == G_TYPE_STRING);
  S2C_CHECK(gst_structure_get_field_type(s, "decided") == G_TYPE_BOOLEAN);
  S2C_CHECK(gst_structure_get_field_type(s, "frame-index") == G_TYPE_UINT64);
  const int n = gst_structure_n_fields(s);
  S2C_CHECK(std::string(gst_structure_nth_field_name(s, n - 1)) == "utc");
  s2c::AlignmentMessage back;
  S2C_CHECK(s2c::AlignmentMessage::FromStructure(s, &back));
  S2C_CHECK(back.offset_frames == -2 && back.offset_ns == m.offset_ns &&
            SameBits(back.confidence, 0.8125) && back.reason == "dropped-frame" &&
            back.decided && back.frame_index == 25 && back.origin.label == "channel 7" &&
            back.origin.utc == m.origin.utc);
  s2c::FrameMessage wrong;
  S2C_CHECK(!s2c::FrameMessage::FromStructure(s, &wrong));
  gst_structure_free(s);
}

void TestStatsEdgeCases() {
  s2c::ScoreStats stats;
  // Nothing scored: no statistic is a number (0 would read as a score).
  const s2c::ScoreSummary none = stats.Summarize();
  S2C_CHECK(none.frames == 0 && none.percentile_frames == 0);
  for (double v : {none.mean, none.min, none.max, none.harmonic_mean, none.p1, none.p5,
                   none.p10, none.p25, none.median, none.p75, none.p95, none.stddev}) {
    S2C_CHECK(std::isnan(v));
  }
  stats.Add(50.0);
  stats.Add(-3.0);
  const s2c::ScoreSummary s = stats.Summarize();
  // libvmaf's harmonic mean, n / sum(1 / (s + 1)) - 1, for any scores.
  S2C_CHECK_SAME(s.harmonic_mean, 2.0 / (1.0 / 51.0 + 1.0 / -2.0) - 1.0);
  S2C_CHECK(s.min == -3.0 && s.p5 == -3.0);
  s2c::ScoreStats three;
  for (double v : {80.0, 90.0, 100.0}) three.Add(v);
  S2C_CHECK(SameBits(three.Summarize().harmonic_mean,
                 3.0 / (1.0 / 81.0 + 1.0 / 91.0 + 1.0 / 101.0) - 1.0));
  // Nearest rank, the ceil(Q / 100 * n)-th smallest: with 40 scores p1 is
  // the 1st, p5 the 2nd, p10 the 4th, p25 the 10th, the median the 20th,
  // p75 the 30th and p95 the 38th.
  s2c::ScoreStats forty;
  for (int i = 40; i >= 1; --i) forty.Add(i);
  const s2c::ScoreSummary f = forty.Summarize();
  S2C_CHECK(f.p1 == 1.0 && f.p5 == 2.0 && f.p10 == 4.0 && f.p25 == 10.0 && f.median == 20.0 &&
        f.p75 == 30.0 && f.p95 == 38.0);
  // 100 scores 0.5, 1.5, ..., 99.5: pQ is the Q-th smallest.
  s2c::ScoreStats hundred;
  for (int i = 0; i < 100; ++i) hundred.Add(i + 0.5);
  const s2c::ScoreSummary h = hundred.Summarize();
  S2C_CHECK(h.p1 == 0.5 && h.p5 == 4.5 && h.p25 == 24.5 && h.median == 49.5 && h.p95 == 94.5);
  // The percentiles cover the last `window` scores, everything else all of
  // them, in memory bounded by the window: 100,000 scores 0, 1, 2, ...
  // through a window of 1000.
  s2c::ScoreStats windowed(1000);
  s2c::ScoreStats whole(100000);
  for (int i = 0; i < 100000; ++i) {
    windowed.Add(i);
    whole.Add(i);
  }
  S2C_CHECK(windowed.held() == 1000 && windowed.count() == 100000);
  const s2c::ScoreSummary w = windowed.Summarize();
  const s2c::ScoreSummary a = whole.Summarize();
  S2C_CHECK(w.frames == 100000 && w.percentile_frames == 1000 && a.percentile_frames == 100000);
  S2C_CHECK(SameBits(w.mean, a.mean) && w.min == 0.0 && w.max == 99999.0 &&
        SameBits(w.harmonic_mean, a.harmonic_mean) && SameBits(w.stddev, a.stddev));
  // The last 1000 are 99000 .. 99999: p1 the 10th smallest, the median the
  // 500th, p95 the 950th.
  S2C_CHECK(w.p1 == 99009.0 && w.median == 99499.0 && w.p95 == 99949.0);
  S2C_CHECK(a.p1 == 999.0 && a.median == 49999.0);
  // Population standard deviation of 0 .. n-1: sqrt((n^2 - 1) / 12).
  S2C_CHECK(std::fabs(a.stddev - std::sqrt((1e10 - 1.0) / 12.0)) < 1e-6);
  windowed.Reset();
  S2C_CHECK(windowed.count() == 0 && windowed.held() == 0 && windowed.Summarize().frames == 0);
  // One score: every percentile is it.
  s2c::ScoreStats one;
  one.Add(42.0);
  const s2c::ScoreSummary o = one.Summarize();
  S2C_CHECK(o.p1 == 42.0 && o.median == 42.0 && o.p95 == 42.0);
}

// The stats property copies the statistics under the streaming thread's
// lock and summarizes the copy outside it (element_state.cc, MakeSummary).
// With a full window of a million scores, the copy's summary is the
// original's, bit for bit, and stays so while the original takes more.
// What the copy costs beside the summary is measured by bench_stats.
void TestStatsCopySummarizesTheSame() {
  s2c::ScoreStats stats;
  uint64_t x = 88172645463325252u;
  for (size_t i = 0; i < s2c::ScoreStats::kDefaultWindow + 1000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    stats.Add(static_cast<double>(x % 10000000) / 100000.0);
  }
  S2C_CHECK(stats.held() == s2c::ScoreStats::kDefaultWindow);
  s2c::ScoreStats copy;
  copy = stats;
  const s2c::ScoreSummary from_copy = copy.Summarize();
  const s2c::ScoreSummary direct = stats.Summarize();
  S2C_CHECK(from_copy.percentile_frames == direct.percentile_frames);
  S2C_CHECK_SAME(from_copy.p5, direct.p5);
  S2C_CHECK_SAME(from_copy.median, direct.median);
  S2C_CHECK_SAME(from_copy.mean, direct.mean);
  S2C_CHECK_SAME(from_copy.stddev, direct.stddev);
  // The streaming thread goes on adding scores while the copy is summarized:
  // the copy holds nothing of the original's.
  for (int i = 0; i < 1000; ++i) stats.Add(100.0);
  const s2c::ScoreSummary later = copy.Summarize();
  S2C_CHECK(later.frames == direct.frames);
  S2C_CHECK_SAME(later.median, direct.median);
  S2C_CHECK_SAME(later.max, direct.max);
  S2C_CHECK(stats.Summarize().max == 100.0);
}

void TestMetaAndCopy() {
  s2c::RegisterScoreMeta();
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, 16, nullptr);
  s2c::ScoreMeta m;
  S2C_CHECK(!s2c::GetScoreMeta(buffer, &m));
  m.score = 62.225034210000001;
  m.frame_index = 3;
  m.dist_timestamp = 120 * GST_MSECOND;
  m.dist_frame_index = 2;
  s2c::AddScoreMeta(buffer, m);
  GstBuffer* copy = gst_buffer_copy_deep(buffer);
  s2c::ScoreMeta back;
  S2C_CHECK(s2c::GetScoreMeta(copy, &back));
  S2C_CHECK(SameBits(back.score, m.score) && back.frame_index == 3 &&
        back.dist_timestamp == m.dist_timestamp && back.dist_frame_index == 2);
  // Readable without our header: the structure of the custom meta.
  GstCustomMeta* custom = gst_buffer_get_custom_meta(copy, "Ssimulacra2CmpMeta");
  S2C_CHECK(custom != nullptr);
  double score = 0;
  S2C_CHECK(custom && gst_structure_get_double(gst_custom_meta_get_structure(custom), "score", &score));
  S2C_CHECK_SAME(score, m.score);
  gst_buffer_unref(copy);
  gst_buffer_unref(buffer);
}

std::string Repr(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// The three formats of one schema, byte for byte: a frame, then the summary.
void TestResultsWriter() {
  const TempDir dir("results");
  s2c::FrameMessage f;
  f.score = 90.003499830000003;
  f.frame_index = 0;
  f.timestamp = 0;
  f.running_time = 0;
  f.dist_frame_index = 3;
  f.align_flagged = true;
  // A label with a comma and quotes: quoted in JSON and in CSV.
  f.origin.label = "studio \"A\", feed 2";
  f.origin.utc = "2024-05-01T12:34:56.789Z";
  const std::string json_origin =
      ",\"label\":\"studio \\\"A\\\", feed 2\",\"utc\":\"2024-05-01T12:34:56.789Z\"";
  const std::string csv_origin = ",\"studio \"\"A\"\", feed 2\",2024-05-01T12:34:56.789Z";
  s2c::SummaryMessage m;
  m.reason = "eos";
  m.origin = f.origin;
  m.scores.frames = 1;
  m.scores.percentile_frames = 1;
  m.scores.min = m.scores.max = m.scores.mean = m.scores.harmonic_mean = f.score;
  m.scores.p1 = m.scores.p5 = m.scores.p10 = m.scores.p25 = f.score;
  m.scores.median = m.scores.p75 = m.scores.p95 = f.score;
  m.scores.stddev = 0.0;
  m.ref_late = 2;
  m.align_flagged = 4;
  m.realignments = 1;
  m.offsets = "0:25,-1:34";
  m.colorimetry_adopted = "matrix bt601 -> bt709, chroma-site jpeg -> mpeg2";
  const std::string v = Repr(f.score);
  const std::string pooled = "{\"min\":" + v + ",\"max\":" + v + ",\"mean\":" + v +
                             ",\"harmonic_mean\":" + v + ",\"p1\":" + v + ",\"p5\":" + v +
                             ",\"p10\":" + v + ",\"p25\":" + v + ",\"median\":" + v +
                             ",\"p75\":" + v + ",\"p95\":" + v + ",\"stddev\":0}";
  const std::string counts =
      "{\"segment\":0,\"reason\":\"eos\",\"frames_scored\":1,\"percentile_frames\":1,"
      "\"ref_unpaired\":0,\"dist_unpaired\":0,\"ref_late\":2,\"ref_skipped\":0,"
      "\"ref_overdue\":0,\"ref_gaps\":0,\"results_lost\":0,\"align_flagged\":4,"
      "\"realignments\":1,\"offsets\":\"0:25,-1:34\",\"colorimetry_mode\":\"reference\","
      "\"colorimetry_adopted\":\"matrix bt601 -> bt709, chroma-site jpeg -> mpeg2\"" +
      json_origin + "}";
  const std::string pooled_metrics = "\"fps\":25.5,\"pooled_metrics\":{\"ssimulacra2\":" + pooled + "}";
  const struct {
    s2c::ResultsFormat format;
    const char* name;
    std::string after_frame;  // the file once the frame is written
    std::string finished;     // and once the summary is
  } kCases[] = {
      {s2c::ResultsFormat::kJsonLines, "r.jsonl",
       "{\"frameNum\":0,\"segment\":0,\"timestamp\":0,\"running_time\":0,"
       "\"dist_timestamp\":null,\"dist_frameNum\":3,\"alignFlagged\":true,\"ssimulacra2\":" +
           v + json_origin + "}\n",
       "{" + pooled_metrics + ",\"summary\":" + counts + "}\n"},
      {s2c::ResultsFormat::kJson, "r.json",
       "{\"version\":\"test 1\",\"frames\":[\n{\"frameNum\":0,\"segment\":0,\"timestamp\":0,"
       "\"running_time\":0,\"dist_timestamp\":null,\"dist_frameNum\":3,\"alignFlagged\":true,"
       "\"metrics\":{\"ssimulacra2\":" + v + "}" +
           json_origin + "}\n",
       "],\n\"segments\":[]," + pooled_metrics + ",\"aggregate_metrics\":{},\"summary\":" +
           counts + "}\n"},
      {s2c::ResultsFormat::kCsv, "r.csv",
       "frameNum,segment,timestamp,running_time,dist_timestamp,dist_frameNum,alignFlagged,"
       "ssimulacra2,label,utc\n0,0,0,0,,3,1," + v + csv_origin + "\n",
       "# fps,25.5\n# min," + v + "\n# max," + v + "\n# mean," + v + "\n# harmonic_mean," + v +
           "\n# p1," + v + "\n# p5," + v + "\n# p10," + v + "\n# p25," + v + "\n# median," +
           v + "\n# p75," + v + "\n# p95," + v + "\n# stddev,0\n# segment,0\n# reason,eos\n"
           "# frames_scored,1\n# percentile_frames,1\n# ref_unpaired,0\n# dist_unpaired,0\n"
           "# ref_late,2\n# ref_skipped,0\n# ref_overdue,0\n# ref_gaps,0\n# results_lost,0\n"
           "# align_flagged,4\n# realignments,1\n# offsets,\"0:25,-1:34\"\n"
           "# colorimetry_mode,reference\n"
           "# colorimetry_adopted,\"matrix bt601 -> bt709, chroma-site jpeg -> mpeg2\"\n"
           "# label,\"studio \"\"A\"\", feed 2\"\n# utc,2024-05-01T12:34:56.789Z\n"},
  };
  for (const auto& k : kCases) {
    const std::string path = dir / k.name;
    s2c::ResultsWriter w;
    S2C_CHECK(w.Open(path, k.format, "test 1") == s2c::RecordFile::OpenResult::kOk);
    S2C_CHECK(w.WriteHeader());
    S2C_CHECK(w.Write(f));
    S2C_CHECK(ReadFile(path) == k.after_frame);
    S2C_CHECK(w.Finish(m, 25.5));
    S2C_CHECK(!w.Write(f));  // nothing after the summary
    w.Close();
    S2C_CHECK(ReadFile(path) == k.after_frame + k.finished);
  }
  // A json file closed without a summary (an error before EOS) still parses:
  // its frames array is closed.
  const std::string path = dir / "unfinished.json";
  {
    s2c::ResultsWriter w;
    S2C_CHECK(w.Open(path, s2c::ResultsFormat::kJson, "test 1") == s2c::RecordFile::OpenResult::kOk);
    S2C_CHECK(w.Write(f));
  }
  S2C_CHECK(ReadFile(path) == kCases[1].after_frame + "]}\n");
  // %.17g gives the double back.
  S2C_CHECK(SameBits(g_ascii_strtod(v.c_str(), nullptr), f.score));
}

// SSIM's fields: a frame and a summary of SSIM alone survive the trip and
// hold no SSIMULACRA 2 field; with both metrics both sets; the meta too.
void TestSsimRoundTrip() {
  s2c::FrameMessage f;
  f.metrics = s2c::kMetricSsim;
  f.ssim.combined = 0.98809958002898923;
  f.ssim.combined_db = 19.24437711895353;
  f.ssim.plane[0] = 0.9905300545742457;
  f.ssim.plane[1] = 0.98355279452784417;
  f.ssim.plane[2] = 0.98292446734910843;
  GstStructure* s = f.ToStructure();
  S2C_CHECK(!gst_structure_has_field(s, "score"));
  for (const char* field : {"ssim", "ssim-db", "ssim-y", "ssim-cb", "ssim-cr"}) {
    S2C_CHECK(gst_structure_get_field_type(s, field) == G_TYPE_DOUBLE);
  }
  s2c::FrameMessage back;
  S2C_CHECK(s2c::FrameMessage::FromStructure(s, &back));
  S2C_CHECK(back.metrics == s2c::kMetricSsim && SameBits(back.ssim.combined, f.ssim.combined) &&
        SameBits(back.ssim.combined_db, f.ssim.combined_db) &&
        SameBits(back.ssim.plane[2], f.ssim.plane[2]));
  gst_structure_free(s);
  f.metrics = s2c::kAllMetrics;
  f.score = 81.74290736;
  s = f.ToStructure();
  S2C_CHECK(s2c::FrameMessage::FromStructure(s, &back) && back.metrics == s2c::kAllMetrics &&
        SameBits(back.score, f.score) && SameBits(back.ssim.plane[0], f.ssim.plane[0]));
  gst_structure_free(s);

  s2c::ScoreStats stats;
  stats.Add(0.5);
  stats.Add(1.0);
  s2c::SummaryMessage m;
  m.reason = "eos";
  m.metrics = s2c::kMetricSsim;
  m.ssim = stats.Summarize();
  s = m.ToStructure();
  S2C_CHECK(!gst_structure_has_field(s, "mean") && gst_structure_has_field(s, "ssim-mean"));
  s2c::SummaryMessage sb;
  S2C_CHECK(s2c::SummaryMessage::FromStructure(s, &sb));
  S2C_CHECK(sb.metrics == s2c::kMetricSsim && sb.frames_scored() == 2 && sb.ssim.frames == 2 &&
        SameBits(sb.ssim.mean, 0.75) && SameBits(sb.ssim.median, 0.5));
  gst_structure_free(s);

  GstBuffer* buffer = gst_buffer_new();
  s2c::ScoreMeta meta;
  meta.metrics = s2c::kMetricSsim;
  meta.ssim = 1.0;
  meta.ssim_db = INFINITY;
  s2c::AddScoreMeta(buffer, meta);
  s2c::ScoreMeta got;
  S2C_CHECK(s2c::GetScoreMeta(buffer, &got) && got.metrics == s2c::kMetricSsim && got.ssim == 1.0 &&
        std::isinf(got.ssim_db));
  gst_buffer_unref(buffer);
}

// The results file with SSIM beside SSIMULACRA 2: the five SSIM columns
// after ssimulacra2, +inf dB as null (json) or inf (csv), and the pooled
// SSIM statistics.
void TestResultsWriterSsim() {
  const TempDir dir("results");
  s2c::FrameMessage f;
  f.metrics = s2c::kAllMetrics;
  f.score = 100.0;
  f.frame_index = 0;
  f.timestamp = 0;
  f.running_time = 0;
  f.ssim.combined = 1.0;
  f.ssim.combined_db = INFINITY;
  f.ssim.plane[0] = f.ssim.plane[1] = f.ssim.plane[2] = 1.0;
  s2c::ScoreStats s2, ssim;
  s2.Add(100.0);
  ssim.Add(1.0);
  s2c::SummaryMessage m;
  m.metrics = s2c::kAllMetrics;
  m.scores = s2.Summarize();
  m.ssim = ssim.Summarize();
  const struct {
    s2c::ResultsFormat format;
    const char* name;
    std::string frame;     // the frame's line
    std::string pooled;    // a piece of the summary
  } kCases[] = {
      {s2c::ResultsFormat::kJsonLines, "s.jsonl",
       "{\"frameNum\":0,\"segment\":0,\"timestamp\":0,\"running_time\":0,"
       "\"dist_timestamp\":null,\"dist_frameNum\":0,\"alignFlagged\":false,"
       "\"ssimulacra2\":100,\"ssim\":1,\"ssim_db\":null,\"ssim_y\":1,\"ssim_cb\":1,"
       "\"ssim_cr\":1,\"label\":\"\",\"utc\":\"\"}\n",
       "\"pooled_metrics\":{\"ssimulacra2\":{\"min\":100,"},
      {s2c::ResultsFormat::kJson, "s.json",
       "\"metrics\":{\"ssimulacra2\":100,\"ssim\":1,\"ssim_db\":null,\"ssim_y\":1,"
       "\"ssim_cb\":1,\"ssim_cr\":1},\"label\":\"\",\"utc\":\"\"}\n",
       "\"ssim\":{\"min\":1,\"max\":1,\"mean\":1,"},
      {s2c::ResultsFormat::kCsv, "s.csv",
       "frameNum,segment,timestamp,running_time,dist_timestamp,dist_frameNum,alignFlagged,"
       "ssimulacra2,ssim,ssim_db,ssim_y,ssim_cb,ssim_cr,label,utc\n0,0,0,0,,0,0,100,1,inf,1,1,1,,\n",
       "# stddev,0\n# ssim_min,1\n"},
  };
  for (const auto& k : kCases) {
    const std::string path = dir / k.name;
    s2c::ResultsWriter w;
    S2C_CHECK(w.Open(path, k.format, "test 1", s2c::kAllMetrics) == s2c::RecordFile::OpenResult::kOk);
    S2C_CHECK(w.Write(f));
    S2C_CHECK(w.Finish(m, 1.0));
    w.Close();
    const std::string text = ReadFile(path);
    S2C_CHECK(text.find(k.frame) != std::string::npos);
    S2C_CHECK(text.find(k.pooled) != std::string::npos);
  }
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  TestFrameRoundTrip();
  TestSummaryAndThresholdRoundTrip();
  TestAlignmentRoundTrip();
  TestStatsEdgeCases();
  TestStatsCopySummarizesTheSame();
  TestMetaAndCopy();
  TestResultsWriter();
  TestSsimRoundTrip();
  TestResultsWriterSsim();
  return s2c::test::Finish();
}
