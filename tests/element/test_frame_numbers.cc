// SPDX-License-Identifier: BSD-3-Clause
// frame-index (frameNum in the results file) is the reference frame's
// number when its buffer carries one (offset N, offset_end N + 1), so that
// frames left unscored before it do not renumber it; without one it counts
// the scored pairs.
#include <string>

#include "pipeline_run.h"
#include "test_pipelines.h"

using s2c_test::I420;
using s2c_test::RunPipeline;
using s2c_test::RunResult;
using s2c_test::Source;
using s2c_test::TwoSources;

namespace {

constexpr int kFrames = 6;

// The distorted stream one frame late: reference frame 0 has no partner,
// distorted frame k pairs with reference frame k + 1.
RunResult RunOneFrameLate(const std::string& ref_tail) {
  const RunResult r = RunPipeline(
      TwoSources(Source(kFrames, I420(25).c_str()) + ref_tail,
                 Source(kFrames, I420(25).c_str(), "ball")),
      {"dist-offset=40000000"});
  fail_unless(r.errors.empty(), "error: %s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), kFrames - 1);
  fail_unless_equals_int(r.summaries.size(), 1);
  fail_unless_equals_uint64(r.summaries[0].ref_unpaired, 1);
  return r;
}

}  // namespace

// videotestsrc numbers its frames: the scored ones are 1 to 5, in the
// messages and in the meta.
GST_START_TEST(test_frame_numbers_of_the_reference_are_kept) {
  const RunResult r = RunOneFrameLate("");
  for (int i = 0; i < kFrames - 1; ++i) {
    fail_unless_equals_uint64(r.frames[i].frame_index, i + 1);
  }
  int scored = 0;
  for (const s2c_test::OutBuffer& o : r.out) {
    if (o.has_meta) fail_unless_equals_uint64(o.meta.frame_index, ++scored);
  }
  fail_unless_equals_int(scored, kFrames - 1);
}
GST_END_TEST;

// rawvideoparse's offsets count bytes (offset_end is no frame's end): not
// frame numbers, so the scored pairs are counted from 0.
GST_START_TEST(test_byte_offsets_are_not_frame_numbers) {
  const RunResult r = RunOneFrameLate(" ! rawvideoparse use-sink-caps=true");
  for (int i = 0; i < kFrames - 1; ++i) fail_unless_equals_uint64(r.frames[i].frame_index, i);
}
GST_END_TEST;

static Suite* frame_numbers_suite() {
  Suite* s = suite_create("ssimulacra2cmp-frame-numbers");
  TCase* tc = tcase_create("frame-numbers");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_frame_numbers_of_the_reference_are_kept);
  tcase_add_test(tc, test_byte_offsets_are_not_frame_numbers);
  return s;
}

GST_CHECK_MAIN(frame_numbers)
