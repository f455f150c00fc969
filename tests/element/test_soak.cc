// SPDX-License-Identifier: BSD-3-Clause
// A CI-sized soak test for 24/7 runs: 20,000 small frame pairs through
// the element, the memory the process holds sampled every 1,000 output
// buffers. Past the first few thousand frames (buffer pools, caches and the
// first allocations), memory must stay flat: a leak of even 100 bytes a
// pair would show as 1.5 MB. The statistics' percentile window grows by 8
// bytes a score up to its bound (gst/helpers/stats.h), so up to 120 KB of
// growth is theirs; 1 MiB is allowed in all. The memory held is the resident
// set; under AddressSanitizer, whose quarantine keeps freed memory resident
// by design, it is the heap the sanitizer's allocator has handed out.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "pipeline_run.h"
#include "test_pipelines.h"

#if defined(__SANITIZE_ADDRESS__)
#define S2C_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define S2C_UNDER_ASAN 1
#endif
#endif
#ifdef S2C_UNDER_ASAN
#include <sanitizer/allocator_interface.h>
#endif

namespace {

constexpr int kPairs = 20000;
constexpr int kSettled = 5000;  // pairs after which memory must be flat
constexpr long kAllowedGrowth = 1 << 20;

// The bytes the process holds, -1 where unknown.
long HeldBytes() {
#ifdef S2C_UNDER_ASAN
  return static_cast<long>(__sanitizer_get_current_allocated_bytes());
#else
  long pages_total = 0, pages_resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return -1;
  const int n = std::fscanf(f, "%ld %ld", &pages_total, &pages_resident);
  std::fclose(f);
  return n == 2 ? pages_resident * sysconf(_SC_PAGESIZE) : -1;
#endif
}

struct Samples {
  int buffers = 0;
  std::vector<long> held;  // at 1000, 2000, ... buffers
};

void OnHandoff(GstElement*, GstBuffer*, GstPad*, gpointer data) {
  auto* samples = static_cast<Samples*>(data);
  if (++samples->buffers % 1000 == 0) samples->held.push_back(HeldBytes());
}

}  // namespace

GST_START_TEST(test_memory_is_flat_over_20000_pairs) {
  fail_unless(HeldBytes() >= 0, "the memory held cannot be read (no /proc/self/statm)");
  const std::string description =
      "videotestsrc num-buffers=" + std::to_string(kPairs) +
      " pattern=ball ! video/x-raw,format=I420,width=16,height=16,framerate=60/1 ! tee name=t "
      "t. ! queue ! cmp.ref_sink t. ! queue ! videobalance saturation=0.5 ! cmp.dist_sink "
      "ssimulacra2cmp name=cmp post-messages=false ! fakesink name=out signal-handoffs=true";
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  fail_unless(pipeline != nullptr, "%s", error != nullptr ? error->message : "");
  GstElement* cmp = gst_bin_get_by_name(GST_BIN(pipeline), "cmp");
  gst_util_set_object_arg(G_OBJECT(cmp), "backend", s2c_test::TestBackend());
  gst_object_unref(cmp);
  GstElement* out = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  Samples samples;
  g_signal_connect(out, "handoff", G_CALLBACK(OnHandoff), &samples);
  gst_object_unref(out);

  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* end = gst_bus_timed_pop_filtered(
      bus, 600 * GST_SECOND,
      static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  fail_unless(end != nullptr && GST_MESSAGE_TYPE(end) == GST_MESSAGE_EOS, "no EOS");
  gst_message_unref(end);
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);

  fail_unless_equals_int(samples.buffers, kPairs);
  const size_t settled = kSettled / 1000 - 1;
  long highest = 0;
  for (size_t i = settled; i < samples.held.size(); ++i) {
    highest = std::max(highest, samples.held[i]);
  }
  const long growth = highest - samples.held[settled];
  std::printf("held: %ld KiB after %d pairs, at most %ld KiB after that (+%ld KiB)\n",
              samples.held[settled] / 1024, kSettled, highest / 1024, growth / 1024);
  fail_unless(growth <= kAllowedGrowth, "the memory held grew by %ld bytes over %d pairs",
              growth, kPairs - kSettled);
}
GST_END_TEST;

static Suite* soak_suite() {
  Suite* s = suite_create("ssimulacra2cmp-soak");
  TCase* tc = tcase_create("soak");
  tcase_set_timeout(tc, 600);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_memory_is_flat_over_20000_pairs);
  return s;
}

GST_CHECK_MAIN(soak)
