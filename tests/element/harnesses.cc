// SPDX-License-Identifier: BSD-3-Clause
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include "harnesses.h"

#include <gst/check/gstcheck.h>

#include "score_meta.h"

namespace s2c_test {

Harnesses MakeHarnesses(const std::vector<std::string>& props, const char* caps) {
  Harnesses h;
  GstElement* element = gst_element_factory_make("ssimulacra2cmp", nullptr);
  fail_unless(element != nullptr, "ssimulacra2cmp not found: is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg(G_OBJECT(element), "backend", TestBackend());
  gst_util_set_object_arg(G_OBJECT(element), "live-policy", "wait");
  for (const std::string& prop : props) {
    const size_t eq = prop.find('=');
    gst_util_set_object_arg(G_OBJECT(element), prop.substr(0, eq).c_str(),
                            prop.substr(eq + 1).c_str());
  }
  h.bus = gst_bus_new();
  gst_element_set_bus(element, h.bus);
  h.ref = gst_harness_new_with_element(element, "ref_sink", "src");
  h.dist = gst_harness_new_with_element(element, "dist_sink", nullptr);
  gst_object_unref(element);
  gst_harness_set_src_caps_str(h.ref, caps);
  gst_harness_set_src_caps_str(h.dist, caps);
  return h;
}

GstTestClock* ElementClock(const Harnesses& h) {
  GstClock* clock = gst_element_get_clock(h.ref->element);
  fail_unless(clock != nullptr && GST_IS_TEST_CLOCK(clock), "the element has no test clock");
  return GST_TEST_CLOCK(clock);
}

void Poll(Harnesses* h) {
  while (GstMessage* m = gst_bus_pop(h->bus)) {
    Collect(m, &h->seen);
    gst_message_unref(m);
  }
}

void Teardown(Harnesses* h) {
  gst_element_set_bus(h->ref->element, nullptr);
  gst_harness_teardown(h->dist);
  gst_harness_teardown(h->ref);
  gst_object_unref(h->bus);
}

GstBuffer* Frame(int seed, GstClockTime pts, int width, int height) {
  GstBuffer* b = gst_buffer_new_allocate(nullptr, static_cast<gsize>(width) * height * 3, nullptr);
  GstMapInfo map;
  gst_buffer_map(b, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; ++i) map.data[i] = static_cast<guint8>((i * 7 + seed * 53) & 0xff);
  gst_buffer_unmap(b, &map);
  GST_BUFFER_PTS(b) = pts;
  GST_BUFFER_DURATION(b) = kFrame;
  return b;
}

void PushPair(Harnesses* h, int ref_seed, int dist_seed, GstClockTime pts) {
  fail_unless_equals_int(gst_harness_push(h->ref, Frame(ref_seed, pts)), GST_FLOW_OK);
  fail_unless_equals_int(gst_harness_push(h->dist, Frame(dist_seed, pts)), GST_FLOW_OK);
}

void EndBoth(Harnesses* h) {
  gst_harness_push_event(h->ref, gst_event_new_eos());
  gst_harness_push_event(h->dist, gst_event_new_eos());
}

void FlushBoth(Harnesses* h) {
  GstEvent* start = gst_event_new_flush_start();
  const guint32 seqnum = gst_event_get_seqnum(start);
  GstEvent* start2 = gst_event_new_flush_start();
  gst_event_set_seqnum(start2, seqnum);
  fail_unless(gst_harness_push_event(h->ref, start));
  fail_unless(gst_harness_push_event(h->dist, start2));
  GstEvent* stop = gst_event_new_flush_stop(TRUE);
  GstEvent* stop2 = gst_event_new_flush_stop(TRUE);
  gst_event_set_seqnum(stop, seqnum);
  gst_event_set_seqnum(stop2, seqnum);
  fail_unless(gst_harness_push_event(h->ref, stop));
  fail_unless(gst_harness_push_event(h->dist, stop2));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  fail_unless(gst_harness_push_event(h->ref, gst_event_new_segment(&segment)));
  fail_unless(gst_harness_push_event(h->dist, gst_event_new_segment(&segment)));
}

std::vector<OutBuffer> PullOut(Harnesses* h, int n) {
  std::vector<OutBuffer> out;
  for (int i = 0; i < n; ++i) {
    GstBuffer* b = gst_harness_pull(h->ref);
    fail_unless(b != nullptr, "output buffer %d missing", i);
    OutBuffer o;
    o.pts = GST_BUFFER_PTS(b);
    o.has_meta = s2c::GetScoreMeta(b, &o.meta);
    out.push_back(o);
    gst_buffer_unref(b);
  }
  return out;
}

void WaitForSummary(Harnesses* h, size_t n) {
  for (int i = 0; i < 1000 && h->seen.summaries.size() < n; ++i) {
    Poll(h);
    if (h->seen.summaries.size() < n) g_usleep(10000);
  }
  fail_unless(h->seen.summaries.size() >= n, "%zu summary messages, expected %zu",
              h->seen.summaries.size(), n);
}

std::string WaitForError(Harnesses* h) {
  for (int i = 0; i < 1000 && h->seen.errors.empty(); ++i) {
    Poll(h);
    if (h->seen.errors.empty()) g_usleep(10000);
  }
  return h->seen.errors.empty() ? "" : h->seen.errors[0];
}

std::string WaitForWarning(Harnesses* h, const std::string& needle) {
  for (int i = 0; i < 1000; ++i) {
    Poll(h);
    for (const std::string& w : h->seen.warnings) {
      if (w.find(needle) != std::string::npos) return w;
    }
    g_usleep(10000);
  }
  return "";
}

}  // namespace s2c_test
