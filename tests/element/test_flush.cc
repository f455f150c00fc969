// SPDX-License-Identifier: BSD-3-Clause
// A flushing seek and a stop do not wait for the pairs in flight: with
// eight 1080p pairs on the CPU backend (about 2.4 s of work on two cores,
// far more under a sanitizer) each returns within 0.2 s, because the
// backend abandons the pairs between stages of its work; a pair scored
// after the flush gets the same bits as in an element that never flushed.
// On a machine so loaded (or instrumented) that one pair takes longer than
// 0.8 s, the bound is a quarter of that pair's time instead: either way
// the flush does not wait for one pair, let alone eight. meson runs this
// test alone (is_parallel: false).
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "harnesses.h"
#include "test_pipelines.h"

#include <gst/check/gstcheck.h>

using s2c_test::Frame;
using s2c_test::Harnesses;
using s2c_test::kFrame;

namespace {

constexpr int kWidth = 1920;
constexpr int kHeight = 1080;
constexpr int kInFlight = 8;
constexpr double kBoundSeconds = 0.2;
const char kCaps[] = "video/x-raw,format=RGB,width=1920,height=1080,framerate=25/1";

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Harnesses MakeElement() {
  return s2c_test::MakeHarnesses({"max-in-flight=" + std::to_string(kInFlight)}, kCaps);
}

// Puts kInFlight pairs on the backend. The frames are made first, so that
// the pushes follow each other at once. A push returns once the pad's
// previous buffer was taken, so when the extra pair is in, the last of the
// kInFlight pairs has been handed to the backend, and the streaming thread
// waits for the oldest.
void FillBackend(Harnesses* h) {
  std::vector<GstBuffer*> ref, dist;
  for (int i = 0; i <= kInFlight; ++i) {
    ref.push_back(Frame(i, i * kFrame, kWidth, kHeight));
    dist.push_back(Frame(i + 1, i * kFrame, kWidth, kHeight));
  }
  for (int i = 0; i <= kInFlight; ++i) {
    fail_unless_equals_int(gst_harness_push(h->ref, ref[i]), GST_FLOW_OK);
    fail_unless_equals_int(gst_harness_push(h->dist, dist[i]), GST_FLOW_OK);
  }
}

struct Scored {
  double score = 0.0;
  double seconds = 0.0;  // from the first push to the scored buffer
};

// Scores the pair (seed 20, seed 21) at 1080p in `h`, then ends the stream.
Scored ScoreOnePair(Harnesses* h) {
  GstBuffer* ref = Frame(20, 0, kWidth, kHeight);
  GstBuffer* dist = Frame(21, 0, kWidth, kHeight);
  const double start = Now();
  fail_unless_equals_int(gst_harness_push(h->ref, ref), GST_FLOW_OK);
  fail_unless_equals_int(gst_harness_push(h->dist, dist), GST_FLOW_OK);
  s2c_test::EndBoth(h);
  const std::vector<s2c_test::OutBuffer> out = s2c_test::PullOut(h, 1);
  Scored s;
  s.seconds = Now() - start;
  fail_unless(out[0].has_meta, "the pair was not scored");
  s.score = out[0].meta.score;
  return s;
}

// `what` took `seconds`, where one pair took `pair` seconds.
void ExpectNoWait(const char* what, double seconds, double pair) {
  const double bound = std::max(kBoundSeconds, pair / 4);
  std::printf("%s with %d pairs of %dx%d in flight: %.3f s (one pair: %.3f s; bound %.3f s)\n",
              what, kInFlight, kWidth, kHeight, seconds, pair, bound);
  fail_unless(seconds <= bound, "%s took %.3f s, more than %.3f s (one pair: %.3f s)", what,
              seconds, bound, pair);
}

}  // namespace

GST_START_TEST(test_flush_does_not_wait_for_pairs_in_flight) {
  Harnesses h = MakeElement();
  FillBackend(&h);
  const double start = Now();
  s2c_test::FlushBoth(&h);
  const double flush = Now() - start;
  s2c_test::WaitForSummary(&h);
  fail_unless(h.seen.summaries[0].reason == "flush");
  // Nothing of the abandoned pairs is reported, and the element scores on.
  const Scored after = ScoreOnePair(&h);
  s2c_test::Poll(&h);
  fail_unless(h.seen.errors.empty(), "error: %s",
              h.seen.errors.empty() ? "" : h.seen.errors[0].c_str());
  s2c_test::Teardown(&h);
  ExpectNoWait("the flush", flush, after.seconds);

  Harnesses fresh = MakeElement();
  s2c_test::AssertBits(after.score, ScoreOnePair(&fresh).score);
  s2c_test::Teardown(&fresh);
}
GST_END_TEST;

GST_START_TEST(test_stop_does_not_wait_for_pairs_in_flight) {
  Harnesses h = MakeElement();
  FillBackend(&h);
  const double start = Now();
  fail_unless_equals_int(gst_element_set_state(h.element(), GST_STATE_READY),
                         GST_STATE_CHANGE_SUCCESS);
  const double stop = Now() - start;
  s2c_test::Poll(&h);
  fail_unless(h.seen.errors.empty(), "error: %s",
              h.seen.errors.empty() ? "" : h.seen.errors[0].c_str());
  s2c_test::Teardown(&h);

  Harnesses timing = MakeElement();
  ExpectNoWait("going to READY", stop, ScoreOnePair(&timing).seconds);
  s2c_test::Teardown(&timing);
}
GST_END_TEST;

static Suite* flush_suite() {
  Suite* s = suite_create("ssimulacra2cmp-flush");
  TCase* tc = tcase_create("flush");
  tcase_set_timeout(tc, 240);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_flush_does_not_wait_for_pairs_in_flight);
  tcase_add_test(tc, test_stop_does_not_wait_for_pairs_in_flight);
  return s;
}

GST_CHECK_MAIN(flush)
