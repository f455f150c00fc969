// SPDX-License-Identifier: BSD-3-Clause
// Format changes between the two pads: live, a resolution change that
// reaches one pad before the other skips the pairs of two sizes (counted in
// ref-skipped, one warning) until both agree, and never stops the stream;
// not live it stays a clear error; a pixel-aspect-ratio difference is a
// warning. Runs on S2C_TEST_BACKEND (cpu by default).
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <string>
#include <vector>

#include "harnesses.h"
#include "test_pipelines.h"

#include <gst/check/gstcheck.h>

using s2c_test::Frame;
using s2c_test::Harnesses;
using s2c_test::kFrame;

namespace {

std::string Rgb(int side, const char* par = "1/1") {
  return "video/x-raw,format=RGB,width=" + std::to_string(side) +
         ",height=" + std::to_string(side) + ",framerate=25/1,pixel-aspect-ratio=" + par;
}

void Push(GstHarness* h, int seed, GstClockTime pts, int side) {
  fail_unless_equals_int(gst_harness_push(h, Frame(seed, pts, side, side)), GST_FLOW_OK);
}

int Count(const std::vector<std::string>& texts, const char* needle) {
  int n = 0;
  for (const std::string& t : texts) n += t.find(needle) != std::string::npos;
  return n;
}

// One pair at 16x16; then the reference turns 32x32 two frames before the
// distorted stream does; then two pairs at 32x32.
void SwitchReferenceFirst(Harnesses* h) {
  Push(h->ref, 1, 0, 16);
  Push(h->dist, 2, 0, 16);
  gst_harness_set_src_caps_str(h->ref, Rgb(32).c_str());
  for (int i = 1; i <= 2; ++i) {
    Push(h->ref, 1, i * kFrame, 32);
    Push(h->dist, 2, i * kFrame, 16);
  }
  gst_harness_set_src_caps_str(h->dist, Rgb(32).c_str());
  for (int i = 3; i <= 4; ++i) {
    Push(h->ref, 1, i * kFrame, 32);
    Push(h->dist, 2, i * kFrame, 32);
  }
}

}  // namespace

GST_START_TEST(test_live_size_change_on_one_pad_first_skips_until_both_agree) {
  Harnesses h = s2c_test::MakeHarnesses({"max-in-flight=1"}, Rgb(16).c_str());
  // GstHarness's sources are live; the element learns it from the latency
  // query, as in a pipeline going to PLAYING.
  gst_harness_query_latency(h.ref);
  SwitchReferenceFirst(&h);
  s2c_test::EndBoth(&h);
  const std::vector<s2c_test::OutBuffer> out = s2c_test::PullOut(&h, 5);
  s2c_test::WaitForSummary(&h);
  fail_unless(h.seen.errors.empty(), "error: %s",
              h.seen.errors.empty() ? "" : h.seen.errors[0].c_str());
  const bool scored[] = {true, false, false, true, true};
  for (int i = 0; i < 5; ++i) {
    fail_unless(out[i].has_meta == scored[i], "frame %d %s", i,
                scored[i] ? "unscored" : "scored");
    fail_unless_equals_uint64(out[i].pts, i * kFrame);
  }
  const s2c::SummaryMessage& m = h.seen.summaries.back();
  fail_unless_equals_uint64(m.scores.frames, 3);
  fail_unless_equals_uint64(m.ref_skipped, 2);
  fail_unless_equals_uint64(m.ref_unpaired, 0);
  fail_unless_equals_int(Count(h.seen.warnings, "32x32 but the distorted stream is 16x16"), 1);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// Not live (files), two sizes in one pair remain a negotiation error that
// names videoscale.
GST_START_TEST(test_size_change_on_one_pad_is_an_error_when_not_live) {
  Harnesses h = s2c_test::MakeHarnesses({"max-in-flight=1"}, Rgb(16).c_str());
  // Sources that are not live, as files are.
  gst_harness_set_live(h.ref, FALSE);
  gst_harness_set_live(h.dist, FALSE);
  gst_harness_query_latency(h.ref);
  Push(h.ref, 1, 0, 16);
  Push(h.dist, 2, 0, 16);
  gst_harness_set_src_caps_str(h.ref, Rgb(32).c_str());
  gst_harness_push(h.ref, Frame(1, kFrame, 32, 32));
  gst_harness_push(h.dist, Frame(2, kFrame, 16, 16));
  const std::string error = s2c_test::WaitForError(&h);
  fail_unless(error.find("insert videoscale") != std::string::npos, "error: \"%s\"",
              error.c_str());
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// Pixels of two shapes in frames of one size: a warning, and every pair is
// scored.
GST_START_TEST(test_pixel_aspect_ratio_mismatch_is_a_warning) {
  Harnesses h = s2c_test::MakeHarnesses({"max-in-flight=1"}, Rgb(16).c_str());
  gst_harness_set_src_caps_str(h.dist, Rgb(16, "4/3").c_str());
  for (int i = 0; i < 2; ++i) {
    Push(h.ref, 1, i * kFrame, 16);
    Push(h.dist, 2, i * kFrame, 16);
  }
  s2c_test::EndBoth(&h);
  s2c_test::PullOut(&h, 2);
  s2c_test::WaitForSummary(&h);
  fail_unless(h.seen.errors.empty(), "error: %s",
              h.seen.errors.empty() ? "" : h.seen.errors[0].c_str());
  fail_unless_equals_uint64(h.seen.summaries.back().scores.frames, 2);
  fail_unless_equals_int(Count(h.seen.warnings, "pixel aspect ratio of 1/1"), 1);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

static Suite* format_changes_suite() {
  Suite* s = suite_create("ssimulacra2cmp-format-changes");
  TCase* tc = tcase_create("format-changes");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_live_size_change_on_one_pad_first_skips_until_both_agree);
  tcase_add_test(tc, test_size_change_on_one_pad_is_an_error_when_not_live);
  tcase_add_test(tc, test_pixel_aspect_ratio_mismatch_is_a_warning);
  return s;
}

GST_CHECK_MAIN(format_changes)
