// SPDX-License-Identifier: BSD-3-Clause
// The element's results file in pipelines: a file that cannot be written
// fails the same way in every format; one element per file; each segment
// after a seek identifiable, and the last summary saying how the run ended;
// a file appended to going on after its last segment;
// nothing scored reads as null and NaN, never as a score of 0.
// (test_results_file.cc has the file's bytes: locales, a full disk.)
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "pipeline_run.h"
#include "test_files.h"
#include "test_pipelines.h"

using s2c_test::Contains;
using s2c::test::ReadFile;
using s2c::test::TempDir;
using s2c_test::I420;
using s2c_test::RunPipeline;
using s2c_test::RunResult;
using s2c_test::Source;
using s2c_test::TwoSources;

namespace {

constexpr GstClockTime kFrame = 40 * GST_MSECOND;  // 25 fps

const char* const kFormats[] = {"jsonl", "csv", "json"};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool Has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// Endless sources, stopped by the test.
std::string EndlessPair() {
  return TwoSources(Source(-1, I420(25).c_str()), Source(-1, I420(25).c_str(), "ball"));
}

// Frame messages of `segment`.
size_t FramesOf(const RunResult& r, uint64_t segment) {
  size_t n = 0;
  for (const s2c::FrameMessage& f : r.frames) n += f.segment == segment;
  return n;
}

}  // namespace

// A file that takes nothing (/dev/full): with results-write-failure=warn
// every format scores on, warns once and counts the lost records (the six
// frames and the summary), the header's failure included; with error, the
// header's failure stops the element at start.
GST_START_TEST(test_unwritable_file_fails_alike_in_every_format) {
  const std::string two =
      TwoSources(Source(6, I420(25).c_str()), Source(6, I420(25).c_str(), "ball"));
  for (const char* format : kFormats) {
    const RunResult warn = RunPipeline(
        two, {"results-location=/dev/full", std::string("results-format=") + format});
    fail_unless(warn.eos && warn.errors.empty(), "%s: %s", format,
                warn.errors.empty() ? "no EOS" : warn.errors[0].c_str());
    fail_unless_equals_int(warn.frames.size(), 6);
    int file_warnings = 0;
    for (const std::string& w : warn.warnings) file_warnings += Has(w, "results file");
    fail_unless_equals_int(file_warnings, 1);
    fail_unless_equals_uint64(warn.summaries.back().results_lost, 7);
    if (std::string(format) == "jsonl") continue;  // no header
    const RunResult stop = RunPipeline(two, {"results-location=/dev/full",
                                             std::string("results-format=") + format,
                                             "results-write-failure=error"});
    fail_unless(Contains(stop.errors, "header"), "%s", format);
    fail_unless_equals_int(stop.frames.size(), 0);
  }
}
GST_END_TEST;

// Two elements of one pipeline given one results file: the second to
// start is refused with an error that says so.
GST_START_TEST(test_two_elements_cannot_share_a_results_file) {
  const TempDir dir("results");
  const std::string location = "results-location=" + dir / "shared.jsonl";
  const std::string caps = I420(25);
  const RunResult r = RunPipeline(
      Source(3, caps.c_str()) + " ! tee name=t t. ! queue ! cmp.ref_sink t. ! queue ! "
      "cmp.dist_sink ssimulacra2cmp name=cmp " + location + " ! cmp2.ref_sink " +
      Source(3, caps.c_str(), "ball") + " ! cmp2.dist_sink ssimulacra2cmp name=cmp2 "
      "backend=cpu " + location + " ! fakesink name=out");
  fail_unless(Contains(r.errors, "being written by another ssimulacra2cmp element"), "%s",
              r.errors.empty() ? "no error" : r.errors[0].c_str());
}
GST_END_TEST;

// A flushing seek after some frames: every frame record says its segment
// (frameNum starts again in segment 1), each segment has its summary, the
// first ended by the flush, the last by EOS.
GST_START_TEST(test_each_segment_is_identified_after_a_seek) {
  const TempDir dir("results");
  for (const char* format : kFormats) {
    const std::string path = dir / "seek." + format;
    bool sought = false;
    const RunResult r = RunPipeline(
        EndlessPair(), {"results-location=" + path, std::string("results-format=") + format},
        nullptr, [&sought](GstElement* pipeline, const RunResult& so_far) {
          if (!sought && so_far.frames.size() >= 3) {
            sought = true;
            fail_unless(gst_element_seek(pipeline, 1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH,
                                         GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, 4 * kFrame));
          }
          return false;
        });
    fail_unless(r.eos && r.errors.empty(), "%s: %s", format,
                r.errors.empty() ? "no EOS" : r.errors[0].c_str());
    fail_unless_equals_int(r.summaries.size(), 2);
    fail_unless(r.summaries[0].reason == "flush" && r.summaries[0].segment == 0);
    fail_unless(r.summaries[1].reason == "eos" && r.summaries[1].segment == 1);
    const size_t first = FramesOf(r, 0);
    fail_unless(first >= 3);
    fail_unless_equals_uint64(r.summaries[0].frames_scored(), first);
    fail_unless_equals_int(FramesOf(r, 1), 4);

    const std::string text = ReadFile(path);
    const std::string n = std::to_string(first);
    if (std::string(format) == "json") {
      fail_unless_equals_int(Count(text, "\"segment\":0,\"timestamp\""), first);
      fail_unless_equals_int(Count(text, "\"segment\":1,\"timestamp\""), 4);
      fail_unless(Has(text, "{\"frameNum\":3,\"segment\":1,"));
      // The earlier segment in "segments", the last at the top level.
      fail_unless(Has(text, "\"segments\":[{\"fps\":"));
      fail_unless(Has(text, "\"summary\":{\"segment\":0,\"reason\":\"flush\",\"frames_scored\":" +
                                n + ","));
      fail_unless(Has(text, "]," + std::string("\"fps\":")));
      fail_unless(Has(text, "\"aggregate_metrics\":{},\"summary\":{\"segment\":1,\"reason\":"
                            "\"eos\",\"frames_scored\":4,"));
      fail_unless(text.substr(text.size() - 2) == "}\n");
      continue;
    }
    // jsonl and csv: the segments' records in order, each summary where its
    // segment ends.
    const bool csv = std::string(format) == "csv";
    std::vector<std::string> lines = Lines(text);
    if (csv) lines.erase(lines.begin());  // the header
    size_t at = 0;
    for (uint64_t segment = 0; segment < 2; ++segment) {
      const size_t frames = segment == 0 ? first : 4;
      for (size_t i = 0; i < frames; ++at, ++i) {
        fail_unless(at < lines.size());
        const std::string record =
            csv ? std::to_string(i) + "," + std::to_string(segment) + ","
                : "{\"frameNum\":" + std::to_string(i) + ",\"segment\":" +
                      std::to_string(segment) + ",";
        fail_unless(lines[at].rfind(record, 0) == 0, "%s line %zu: %s", format, at,
                    lines[at].c_str());
      }
      const std::string reason = segment == 0 ? "flush" : "eos";
      const std::string summary =
          csv ? "# segment," + std::to_string(segment) + "\n# reason," + reason
              : "\"summary\":{\"segment\":" + std::to_string(segment) + ",\"reason\":\"" +
                    reason + "\"";
      std::string rest;
      while (at < lines.size() && lines[at].rfind(csv ? "#" : "{\"fps\":", 0) == 0) {
        rest += lines[at++] + "\n";
      }
      fail_unless(Has(rest, summary), "%s segment %d: %s", format, static_cast<int>(segment),
                  rest.c_str());
      // fps, the first value, is a rate: the segments scored pairs.
      const size_t value = csv ? std::strlen("# fps,") : std::strlen("{\"fps\":");
      fail_unless(rest.size() > value && g_ascii_isdigit(rest[value]), "%s", rest.c_str());
    }
    fail_unless_equals_int(at, lines.size());
  }
}
GST_END_TEST;

// The last summary of a run that did not reach EOS says why: "stop" when
// the application stopped it, "error" when the element failed.
GST_START_TEST(test_last_summary_says_how_the_run_ended) {
  const TempDir dir("results");
  const std::string stopped = dir / "stopped.jsonl";
  const RunResult r = RunPipeline(EndlessPair(), {"results-location=" + stopped}, nullptr,
                                  [](GstElement*, const RunResult& so_far) {
                                    return so_far.frames.size() >= 3;
                                  });
  fail_unless(r.errors.empty() && !r.eos);
  const std::vector<std::string> lines = Lines(ReadFile(stopped));
  fail_unless(!lines.empty() && Has(lines.back(), "\"summary\":{\"segment\":0,\"reason\":\"stop\","),
              "%s", lines.empty() ? "(empty)" : lines.back().c_str());

  // The two sizes differ: an element error before the first pair.
  const std::string failed = dir / "failed.csv";
  const RunResult e = RunPipeline(
      TwoSources(Source(3, I420(25).c_str()),
                 Source(3, "video/x-raw,format=I420,width=32,height=24,framerate=25/1")),
      {"results-location=" + failed, "results-format=csv"});
  fail_unless(!e.errors.empty());
  const std::string text = ReadFile(failed);
  fail_unless(Has(text, "\n# segment,0\n# reason,error\n# frames_scored,0\n"), "%s", text.c_str());
}
GST_END_TEST;

// results-append: a run into a file that holds an earlier run's records
// keeps them and goes on in the next segment, in the file and in its
// messages; a json file is refused with an element error and left as it
// was.
GST_START_TEST(test_append_goes_on_after_the_last_segment) {
  const TempDir dir("results");
  const std::string path = dir / "appended.jsonl";
  const std::string three = TwoSources(Source(3, I420(25).c_str()), Source(3, I420(25).c_str()));
  RunResult r = RunPipeline(three, {"results-location=" + path});
  fail_unless(r.errors.empty() && r.eos);
  const std::string first = ReadFile(path);
  fail_unless(Count(first, "\"segment\":0,") == 4, "%s", first.c_str());  // 3 frames, the summary
  r = RunPipeline(three, {"results-location=" + path, "results-append=true"});
  fail_unless(r.errors.empty() && r.eos);
  fail_unless(FramesOf(r, 1) == 3 && r.summaries.size() == 1 && r.summaries[0].segment == 1);
  const std::string second = ReadFile(path);
  fail_unless(second.rfind(first, 0) == 0, "the first run's records went:\n%s", second.c_str());
  const std::vector<std::string> added = Lines(second.substr(first.size()));
  fail_unless(added.size() == 4 && Has(added[0], "{\"frameNum\":0,\"segment\":1,") &&
                  Has(added[3], "\"summary\":{\"segment\":1,\"reason\":\"eos\","),
              "%s", second.c_str());

  const std::string json = dir / "appended.json";
  r = RunPipeline(three, {"results-location=" + json, "results-format=json"});
  const std::string document = ReadFile(json);
  r = RunPipeline(three, {"results-location=" + json, "results-format=json",
                          "results-append=true"});
  fail_unless(r.errors.size() == 1 && Has(r.errors[0], "Cannot append to the results file") &&
                  Has(r.errors[0], "json document cannot be continued"),
              "%s", r.errors.empty() ? "no error" : r.errors[0].c_str());
  fail_unless(ReadFile(json) == document);
}
GST_END_TEST;

// Nothing scored (the distorted stream 10 s later than the reference): the
// statistics are NaN in the message and the stats property, null in json,
// empty cells in csv; fps too. libvmaf's keys are there all the same.
GST_START_TEST(test_nothing_scored_is_null_not_zero) {
  GstElement* fresh = gst_element_factory_make("ssimulacra2cmp", nullptr);
  GstStructure* stats = nullptr;
  g_object_get(fresh, "stats", &stats, nullptr);
  s2c::SummaryMessage idle;
  fail_unless(s2c::SummaryMessage::FromStructure(stats, &idle));
  fail_unless(std::isnan(idle.scores.mean) && std::isnan(idle.scores.harmonic_mean) &&
              std::isnan(idle.scores.p5));
  gst_structure_free(stats);
  gst_object_unref(fresh);

  const TempDir dir("results");
  const std::string two =
      TwoSources(Source(3, I420(25).c_str()), Source(3, I420(25).c_str(), "ball"));
  const RunResult r = RunPipeline(two, {"dist-offset=10000000000",
                                        "results-location=" + dir / "none.json",
                                        "results-format=json"});
  fail_unless(r.eos && r.errors.empty());
  const s2c::SummaryMessage& m = r.summaries.back();
  fail_unless_equals_uint64(m.frames_scored(), 0);
  fail_unless(std::isnan(m.scores.mean) && std::isnan(m.scores.min) &&
              std::isnan(m.scores.stddev));
  const std::string json = ReadFile(dir / "none.json");
  fail_unless(Has(json, "\"fps\":null,\"pooled_metrics\":{\"ssimulacra2\":{\"min\":null,"
                        "\"max\":null,\"mean\":null,\"harmonic_mean\":null,"),
              "%s", json.c_str());
  fail_unless(Has(json, "\"aggregate_metrics\":{}"));
  const RunResult c = RunPipeline(two, {"dist-offset=10000000000",
                                        "results-location=" + dir / "none.csv",
                                        "results-format=csv"});
  fail_unless(c.eos);
  const std::string csv = ReadFile(dir / "none.csv");
  fail_unless(Has(csv, "# fps,\n# min,\n# max,\n# mean,\n# harmonic_mean,\n"), "%s", csv.c_str());
}
GST_END_TEST;

static Suite* results_suite() {
  Suite* s = suite_create("ssimulacra2cmp-results");
  TCase* tc = tcase_create("results");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_unwritable_file_fails_alike_in_every_format);
  tcase_add_test(tc, test_two_elements_cannot_share_a_results_file);
  tcase_add_test(tc, test_each_segment_is_identified_after_a_seek);
  tcase_add_test(tc, test_last_summary_says_how_the_run_ended);
  tcase_add_test(tc, test_nothing_scored_is_null_not_zero);
  tcase_add_test(tc, test_append_goes_on_after_the_last_segment);
  return s;
}

GST_CHECK_MAIN(results)
