// SPDX-License-Identifier: BSD-3-Clause
// The element's settings while it runs, and the caps they make it offer:
// every writable property either takes effect at once in PAUSED and
// PLAYING (GST_PARAM_MUTABLE_PLAYING) or keeps its value there, with a
// warning, so that reading it back always gives the value in effect; with
// SSIM the pads offer YUV formats only, so that a videoconvert upstream
// negotiates one. Runs on S2C_TEST_BACKEND (cpu by default).
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <set>
#include <string>
#include <vector>

#include <gst/video/video.h>

#include "harnesses.h"
#include "pipeline_run.h"
#include "test_pipelines.h"

#include <gst/check/gstcheck.h>

using s2c_test::Harnesses;
using s2c_test::kFrame;

namespace {

// The properties the streaming thread reads for every pair; all others are
// read at start only (docs/element.md, "Properties").
const std::set<std::string> kChangeableWhilePlaying = {
    "post-messages", "threshold", "threshold-hysteresis", "threshold-hold",
    "results-write-failure", "min-coverage"};

// A valid value of `pspec` other than `current`, in `other` (initialised
// here). A property of a type not handled here fails the test, so that a
// new property cannot escape the audit.
void OtherValue(GParamSpec* pspec, const GValue* current, GValue* other) {
  g_value_init(other, G_PARAM_SPEC_VALUE_TYPE(pspec));
  if (G_IS_PARAM_SPEC_BOOLEAN(pspec)) {
    g_value_set_boolean(other, !g_value_get_boolean(current));
  } else if (G_IS_PARAM_SPEC_INT(pspec)) {
    const GParamSpecInt* s = G_PARAM_SPEC_INT(pspec);
    g_value_set_int(other, g_value_get_int(current) != s->minimum ? s->minimum : s->maximum);
  } else if (G_IS_PARAM_SPEC_UINT(pspec)) {
    const GParamSpecUInt* s = G_PARAM_SPEC_UINT(pspec);
    g_value_set_uint(other, g_value_get_uint(current) != s->minimum ? s->minimum : s->maximum);
  } else if (G_IS_PARAM_SPEC_INT64(pspec)) {
    const GParamSpecInt64* s = G_PARAM_SPEC_INT64(pspec);
    g_value_set_int64(other,
                      g_value_get_int64(current) != s->minimum ? s->minimum : s->maximum);
  } else if (G_IS_PARAM_SPEC_UINT64(pspec)) {
    const GParamSpecUInt64* s = G_PARAM_SPEC_UINT64(pspec);
    g_value_set_uint64(other,
                       g_value_get_uint64(current) != s->minimum ? s->minimum : s->maximum);
  } else if (G_IS_PARAM_SPEC_DOUBLE(pspec)) {
    const GParamSpecDouble* s = G_PARAM_SPEC_DOUBLE(pspec);
    g_value_set_double(other,
                       g_value_get_double(current) != s->minimum ? s->minimum : s->maximum);
  } else if (G_IS_PARAM_SPEC_ENUM(pspec)) {
    const GEnumClass* k = G_PARAM_SPEC_ENUM(pspec)->enum_class;
    for (guint i = 0; i < k->n_values; ++i) {
      if (k->values[i].value != g_value_get_enum(current)) {
        g_value_set_enum(other, k->values[i].value);
        break;
      }
    }
  } else if (G_IS_PARAM_SPEC_FLAGS(pspec)) {
    const GFlagsClass* k = G_PARAM_SPEC_FLAGS(pspec)->flags_class;
    const guint rest = k->mask & ~g_value_get_flags(current);
    g_value_set_flags(other, rest != 0 ? rest : k->values[0].value);
  } else if (G_IS_PARAM_SPEC_STRING(pspec)) {
    g_value_set_string(other, g_value_get_string(current) != nullptr
                                  ? nullptr
                                  : "/nonexistent/ssimulacra2cmp-settings.jsonl");
  } else {
    fail("property %s has type %s, which this test cannot change: add it",
         g_param_spec_get_name(pspec), g_type_name(G_PARAM_SPEC_VALUE_TYPE(pspec)));
  }
  fail_if(g_param_values_cmp(pspec, current, other) == 0, "no other value for %s",
          g_param_spec_get_name(pspec));
}

// The element's own writable properties (not GstAggregator's).
std::vector<GParamSpec*> OwnWritableProperties(GstElement* element) {
  guint n = 0;
  GParamSpec** all = g_object_class_list_properties(G_OBJECT_GET_CLASS(element), &n);
  std::vector<GParamSpec*> own;
  for (guint i = 0; i < n; ++i) {
    if (all[i]->owner_type == G_OBJECT_TYPE(element) && (all[i]->flags & G_PARAM_WRITABLE)) {
      own.push_back(all[i]);
    }
  }
  g_free(all);
  return own;
}

// Sets every own property to another value and reads it back: the new
// value when `live` (the element runs) is false or the property is
// changeable while playing; otherwise the old one, and a warning that
// names the property.
void SetEveryProperty(GstElement* element, GstBus* bus, bool live) {
  for (GParamSpec* pspec : OwnWritableProperties(element)) {
    const char* name = g_param_spec_get_name(pspec);
    GValue before = G_VALUE_INIT, other = G_VALUE_INIT, after = G_VALUE_INIT;
    g_value_init(&before, G_PARAM_SPEC_VALUE_TYPE(pspec));
    g_value_init(&after, G_PARAM_SPEC_VALUE_TYPE(pspec));
    g_object_get_property(G_OBJECT(element), name, &before);
    OtherValue(pspec, &before, &other);
    g_object_set_property(G_OBJECT(element), name, &other);
    g_object_get_property(G_OBJECT(element), name, &after);
    const bool applies = !live || kChangeableWhilePlaying.count(name) > 0;
    gchar* want = g_strdup_value_contents(applies ? &other : &before);
    gchar* got = g_strdup_value_contents(&after);
    fail_unless(g_param_values_cmp(pspec, &after, applies ? &other : &before) == 0,
                "%s set while %s reads back %s, not %s", name, live ? "running" : "stopped",
                got, want);
    g_free(want);
    g_free(got);
    s2c_test::RunResult seen;
    while (GstMessage* m = gst_bus_pop(bus)) {
      s2c_test::Collect(m, &seen);
      gst_message_unref(m);
    }
    fail_unless(s2c_test::Contains(seen.warnings, name) == !applies,
                "%s: %zu warnings, none or one naming it expected", name, seen.warnings.size());
    g_value_unset(&before);
    g_value_unset(&other);
    g_value_unset(&after);
  }
}

}  // namespace

// The GParamSpec flags say which properties change while the element runs,
// and they are the documented ones.
GST_START_TEST(test_mutability_flags_match_the_documented_choice) {
  GstElement* element = gst_element_factory_make("ssimulacra2cmp", nullptr);
  fail_unless(element != nullptr);
  for (GParamSpec* pspec : OwnWritableProperties(element)) {
    const GParamFlags mutability = static_cast<GParamFlags>(
        pspec->flags & (GST_PARAM_MUTABLE_READY | GST_PARAM_MUTABLE_PAUSED |
                        GST_PARAM_MUTABLE_PLAYING));
    const bool playing = kChangeableWhilePlaying.count(g_param_spec_get_name(pspec)) > 0;
    fail_unless(mutability == (playing ? GST_PARAM_MUTABLE_PLAYING : GST_PARAM_MUTABLE_READY),
                "%s: mutability flags 0x%x", g_param_spec_get_name(pspec), mutability);
  }
  gst_object_unref(element);
}
GST_END_TEST;

// Every property set in PAUSED and in PLAYING reads back the value in
// effect (a backend set to cuda while the CPU scores read "cuda" here);
// in READY again, every one takes its new value.
GST_START_TEST(test_properties_read_back_the_value_in_effect) {
  GstElement* element = gst_element_factory_make("ssimulacra2cmp", nullptr);
  fail_unless(element != nullptr);
  gst_util_set_object_arg(G_OBJECT(element), "backend", s2c_test::TestBackend());
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  fail_unless(gst_element_set_state(element, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
  SetEveryProperty(element, bus, true);
  fail_unless(gst_element_set_state(element, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  SetEveryProperty(element, bus, true);
  fail_unless(gst_element_set_state(element, GST_STATE_READY) == GST_STATE_CHANGE_SUCCESS);
  SetEveryProperty(element, bus, false);
  gst_element_set_state(element, GST_STATE_NULL);
  gst_element_set_bus(element, nullptr);
  gst_object_unref(bus);
  gst_object_unref(element);
}
GST_END_TEST;

// A threshold changed while playing applies from the next pair on.
GST_START_TEST(test_threshold_changed_while_playing_takes_effect) {
  Harnesses h = s2c_test::MakeHarnesses({"max-in-flight=1"});
  s2c_test::PushPair(&h, 0, 9, 0);
  s2c_test::PullOut(&h, 1);
  g_object_set(h.element(), "threshold", 100.0, nullptr);
  s2c_test::PushPair(&h, 0, 9, kFrame);
  s2c_test::EndBoth(&h);
  s2c_test::PullOut(&h, 1);
  s2c_test::WaitForSummary(&h);
  fail_unless_equals_int(h.seen.alarms.size(), 1);
  fail_unless_equals_uint64(h.seen.alarms[0].frame_index, 1);
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// device-memory-limit (bytes, 0: none) round-trips; device-memory is read
// only, and 0 on the CPU backend, stopped and while it scores, whatever
// the limit, which only the CUDA backend takes.
GST_START_TEST(test_device_memory_properties) {
  GstElement* element = gst_element_factory_make("ssimulacra2cmp", nullptr);
  GObjectClass* klass = G_OBJECT_GET_CLASS(element);
  GParamSpec* limit = g_object_class_find_property(klass, "device-memory-limit");
  fail_unless(limit != nullptr && G_IS_PARAM_SPEC_UINT64(limit) &&
              (limit->flags & G_PARAM_WRITABLE));
  fail_unless_equals_uint64(G_PARAM_SPEC_UINT64(limit)->default_value, 0);
  GParamSpec* held = g_object_class_find_property(klass, "device-memory");
  fail_unless(held != nullptr && G_IS_PARAM_SPEC_UINT64(held));
  fail_unless((held->flags & G_PARAM_READABLE) && !(held->flags & G_PARAM_WRITABLE));
  guint64 bytes = 1;
  g_object_set(element, "device-memory-limit", G_GUINT64_CONSTANT(3) << 30, nullptr);
  g_object_get(element, "device-memory-limit", &bytes, nullptr);
  fail_unless_equals_uint64(bytes, G_GUINT64_CONSTANT(3) << 30);
  g_object_get(element, "device-memory", &bytes, nullptr);
  fail_unless_equals_uint64(bytes, 0);
  gst_object_unref(element);

  Harnesses h = s2c_test::MakeHarnesses({"backend=cpu", "max-in-flight=1", "device-memory-limit=1"});
  s2c_test::PushPair(&h, 0, 9, 0);
  s2c_test::PullOut(&h, 1);
  bytes = 1;
  g_object_get(h.element(), "device-memory", &bytes, nullptr);
  fail_unless_equals_uint64(bytes, 0);
  s2c_test::EndBoth(&h);
  s2c_test::WaitForSummary(&h);
  fail_unless(h.seen.errors.empty() && h.seen.warnings.empty(),
              "the CPU backend with a device memory limit: %s",
              h.seen.errors.empty() ? h.seen.warnings[0].c_str() : h.seen.errors[0].c_str());
  s2c_test::Teardown(&h);
}
GST_END_TEST;

// The formats a CAPS query on `pad_name` offers.
std::vector<GstVideoFormat> OfferedFormats(GstElement* element, const char* pad_name) {
  GstPad* pad = gst_element_get_static_pad(element, pad_name);
  GstCaps* caps = gst_pad_query_caps(pad, nullptr);
  std::vector<GstVideoFormat> formats;
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    const GValue* list = gst_structure_get_value(gst_caps_get_structure(caps, i), "format");
    for (guint j = 0; j < gst_value_list_get_size(list); ++j) {
      formats.push_back(
          gst_video_format_from_string(g_value_get_string(gst_value_list_get_value(list, j))));
    }
  }
  gst_caps_unref(caps);
  gst_object_unref(pad);
  return formats;
}

GST_START_TEST(test_ssim_offers_yuv_formats_only) {
  GstElement* element = gst_element_factory_make("ssimulacra2cmp", nullptr);
  for (const char* pad : {"ref_sink", "dist_sink", "src"}) {
    const std::vector<GstVideoFormat> all = OfferedFormats(element, pad);
    bool rgb = false;
    for (GstVideoFormat f : all) rgb |= f == GST_VIDEO_FORMAT_RGB;
    fail_unless(rgb, "%s: SSIMULACRA 2 alone does not offer RGB", pad);
  }
  for (const char* metrics : {"ssim", "ssimulacra2+ssim"}) {
    gst_util_set_object_arg(G_OBJECT(element), "metrics", metrics);
    for (const char* pad : {"ref_sink", "dist_sink", "src"}) {
      const std::vector<GstVideoFormat> yuv = OfferedFormats(element, pad);
      bool i420 = false;
      for (GstVideoFormat f : yuv) {
        fail_unless(GST_VIDEO_FORMAT_INFO_IS_YUV(gst_video_format_get_info(f)),
                    "metrics=%s: %s offers %s", metrics, pad, gst_video_format_to_string(f));
        i420 |= f == GST_VIDEO_FORMAT_I420;
      }
      fail_unless(i420, "metrics=%s: %s does not offer I420", metrics, pad);
    }
  }
  gst_object_unref(element);
}
GST_END_TEST;

// videotestsrc ! videoconvert into both pads with metrics=ssim: the
// converters pick a YUV format (they picked RGB before, and the element
// then asked for the videoconvert that was there) and every pair scores.
GST_START_TEST(test_videoconvert_upstream_negotiates_yuv_for_ssim) {
  const std::string raw = "video/x-raw,width=64,height=48,framerate=25/1";
  for (const char* metrics : {"metrics=ssim", "metrics=ssimulacra2+ssim"}) {
    const s2c_test::RunResult r = s2c_test::RunPipeline(
        s2c_test::TwoSources(s2c_test::Source(3, raw.c_str()) + " ! videoconvert",
                             s2c_test::Source(3, raw.c_str(), "ball") + " ! videoconvert"),
        {metrics});
    fail_unless(r.errors.empty(), "%s: %s", metrics, r.errors.empty() ? "" : r.errors[0].c_str());
    fail_unless_equals_int(r.frames.size(), 3);
    for (const s2c::FrameMessage& f : r.frames) {
      fail_unless(f.metrics & s2c::kMetricSsim);
      fail_unless(f.ssim.combined < 1.0, "%s: different frames have ssim %.17g", metrics,
                  f.ssim.combined);
    }
  }
}
GST_END_TEST;

static Suite* settings_suite() {
  Suite* s = suite_create("ssimulacra2cmp-settings");
  TCase* tc = tcase_create("settings");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_mutability_flags_match_the_documented_choice);
  tcase_add_test(tc, test_properties_read_back_the_value_in_effect);
  tcase_add_test(tc, test_threshold_changed_while_playing_takes_effect);
  tcase_add_test(tc, test_device_memory_properties);
  tcase_add_test(tc, test_ssim_offers_yuv_formats_only);
  tcase_add_test(tc, test_videoconvert_upstream_negotiates_yuv_for_ssim);
  return s;
}

GST_CHECK_MAIN(settings)
