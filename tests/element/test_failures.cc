// SPDX-License-Identifier: BSD-3-Clause
// The element when something is wrong around it: an unlinked pad, gaps in
// the reference, frames too large for memory, no GPU. Each gives a clear
// message and loses nothing. (A results file that cannot be written:
// test_results.cc.)
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <glib/gstdio.h>

#include "pipeline_run.h"
#include "test_pipelines.h"

using s2c_test::Contains;
using s2c_test::I420;
using s2c_test::RunPipeline;
using s2c_test::RunResult;
using s2c_test::Source;
using s2c_test::TwoSources;

namespace {

// MemAvailable of /proc/meminfo in MiB, 0 where unknown.
long long AvailableMiB() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  long long kib = 0;
  while (in >> key >> kib) {
    if (key == "MemAvailable:") return kib / 1024;
    in.ignore(64, '\n');
  }
  return 0;
}

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
  gchar* dir = g_dir_make_tmp("s2c-element-XXXXXX", nullptr);
  const std::string png = std::string(dir) + "/frame.png";
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
  g_remove(png.c_str());
  g_rmdir(dir);
  g_free(dir);
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

// Frames whose planes cannot fit in memory: a clear element error naming
// the size and the memory, before anything is allocated (the buffers here
// are a few bytes: the backend is configured before a frame is mapped).
// 30000x30000 is about the largest I420 frame GStreamer describes (2 GiB);
// the CPU backend needs 122 GB for it.
GST_START_TEST(test_frames_too_large_for_memory_are_an_error) {
  if (std::string(s2c_test::TestBackend()) == "cpu" && AvailableMiB() > 125000) {
    std::printf("skipped: more than 125000 MiB of memory available\n");
    return;
  }
  const std::string caps =
      "video/x-raw,format=I420,width=30000,height=30000,framerate=25/1";
  const RunResult r = RunPipeline(
      "appsrc name=r format=time caps=" + caps + " ! cmp.ref_sink appsrc name=d format=time caps=" +
          caps + " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
      {}, [](GstElement* pipeline) {
        for (const char* name : {"r", "d"}) {
          GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), name);
          GstBuffer* b = gst_buffer_new_allocate(nullptr, 16, nullptr);
          GST_BUFFER_PTS(b) = 0;
          GstFlowReturn flow;
          g_signal_emit_by_name(src, "push-buffer", b, &flow);
          g_signal_emit_by_name(src, "end-of-stream", &flow);
          gst_buffer_unref(b);
          gst_object_unref(src);
        }
      });
  fail_unless(!r.errors.empty());
  fail_unless(Contains(r.errors, "30000x30000") && Contains(r.errors, "MiB"),
              "error: %s", r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 0);
}
GST_END_TEST;

GST_START_TEST(test_backend_cuda_without_gpu_fails_at_start) {
  if (std::strcmp(s2c_test::TestBackend(), "cuda") == 0) return;  // has a GPU
  const RunResult r = RunPipeline(TwoSources(Source(2, I420(25).c_str()),
                                             Source(2, I420(25).c_str())),
                                  {"backend=cuda"});
  // Only meaningful where no CUDA device works; with one, it scores.
  if (!r.frames.empty()) return;
  fail_unless(Contains(r.errors, "backend=cpu"), "error: %s",
              r.errors.empty() ? "(none)" : r.errors[0].c_str());
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
  tcase_add_test(tc, test_frames_too_large_for_memory_are_an_error);
  tcase_add_test(tc, test_backend_cuda_without_gpu_fails_at_start);
  return s;
}

GST_CHECK_MAIN(failures)
