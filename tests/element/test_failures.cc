// SPDX-License-Identifier: BSD-3-Clause
// The element when something is wrong around it: an unlinked pad, gaps in
// the reference. Each gives a clear message and loses nothing. (A results
// file that cannot be written: test_results.cc. Frames too large for memory
// and a missing GPU: test_machine_specific.cc, as they apply to some
// machines only.)
#include <string>
#include <vector>

#include "pipeline_run.h"
#include "test_files.h"
#include "test_pipelines.h"

using s2c_test::Contains;
using s2c_test::I420;
using s2c_test::RunPipeline;
using s2c_test::RunResult;
using s2c_test::Source;
using s2c_test::TwoSources;

namespace {

// Replaces the buffers with offsets in [first, last] by GAP events of the
// same timestamp and duration, on the pad it is attached to.
GstPadProbeReturn BuffersToGaps(GstPad* pad, GstPadProbeInfo* info, gpointer) {
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (GST_BUFFER_OFFSET(buffer) < 3 || GST_BUFFER_OFFSET(buffer) > 5) return GST_PAD_PROBE_OK;
  gst_pad_push_event(pad, gst_event_new_gap(GST_BUFFER_PTS(buffer), GST_BUFFER_DURATION(buffer)));
  return GST_PAD_PROBE_DROP;
}

}  // namespace

// Non-live, dist_sink never linked: without the check the pipeline would
// stay in PREROLLING for ever.
GST_START_TEST(test_unlinked_pad_is_an_error_naming_it) {
  const RunResult r = RunPipeline(
      Source(5, I420(25).c_str()) + " ! cmp.ref_sink ssimulacra2cmp name=cmp ! fakesink name=out",
      {"link-timeout=300000000"});
  fail_unless(!r.errors.empty());
  fail_unless(Contains(r.errors, "dist_sink") && Contains(r.errors, "cmp.dist_sink"),
              "error: %s", r.errors[0].c_str());
}
GST_END_TEST;

// Pads that decodebin links once it has found its input's type are linked
// after the element went to PAUSED: no error, every pair scored.
GST_START_TEST(test_pads_linked_late_by_decodebin_are_fine) {
  const s2c::test::TempDir dir("element");
  const std::string png = dir / "frame.png";
  const RunResult made = RunPipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,width=64,height=48 ! tee name=t "
      "t. ! queue ! pngenc ! filesink location=" + png +
      " t. ! queue ! cmp.ref_sink t. ! queue ! cmp.dist_sink ssimulacra2cmp name=cmp ! "
      "fakesink name=out");
  fail_unless(made.errors.empty());
  const std::string decoded = "filesrc location=" + png + " ! decodebin ! videoconvert";
  const RunResult r = RunPipeline(decoded + " ! cmp.ref_sink " + decoded +
                                      " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
                                  {"link-timeout=5000000000"});
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 1);
  s2c_test::AssertBits(r.frames[0].score, 100.0);
}
GST_END_TEST;

// Reference frames 3 to 5 become GAP events: they leave as GAP events, so
// videoconvert and videoscale downstream see no empty buffers and post no
// warnings; they are counted, and the frames around them are scored.
GST_START_TEST(test_reference_gaps_leave_as_gap_events) {
  const RunResult r = RunPipeline(
      Source(8, I420(25).c_str()) + " ! identity name=gaps ! cmp.ref_sink " +
          Source(8, I420(25).c_str()) +
          " ! cmp.dist_sink ssimulacra2cmp name=cmp ! videoconvert ! videoscale ! "
          "video/x-raw,width=32,height=24 ! fakesink name=out",
      {}, [](GstElement* pipeline) {
        GstElement* gaps = gst_bin_get_by_name(GST_BIN(pipeline), "gaps");
        GstPad* pad = gst_element_get_static_pad(gaps, "src");
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, BuffersToGaps, nullptr, nullptr);
        gst_object_unref(pad);
        gst_object_unref(gaps);
      });
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless(r.warnings.empty(), "warning downstream: %s",
              r.warnings.empty() ? "" : r.warnings[0].c_str());
  fail_unless_equals_int(r.out.size(), 5);
  fail_unless_equals_int(r.frames.size(), 5);
  const s2c::SummaryMessage& m = r.summaries.back();
  fail_unless_equals_uint64(m.ref_gaps, 3);
  fail_unless_equals_uint64(m.dist_unpaired, 3);
}
GST_END_TEST;

static Suite* failures_suite() {
  Suite* s = suite_create("ssimulacra2cmp-failures");
  TCase* tc = tcase_create("failures");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_unlinked_pad_is_an_error_naming_it);
  tcase_add_test(tc, test_pads_linked_late_by_decodebin_are_fine);
  tcase_add_test(tc, test_reference_gaps_leave_as_gap_events);
  return s;
}

GST_CHECK_MAIN(failures)
