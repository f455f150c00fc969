// SPDX-License-Identifier: BSD-3-Clause
// What gst-inspect-1.0 shows of the plugin and the element: the factory's
// author and the plugin's origin are no placeholders, every property's
// blurb stands on its own (no file of this source tree to look up), and
// pairing-tolerance's default is -1, auto, which reading it shows.
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <string>

#include <gst/check/gstcheck.h>

namespace {

GstElement* MakeElement() {
  GstElement* element = gst_element_factory_make("ssimulacra2cmp", nullptr);
  fail_unless(element != nullptr, "ssimulacra2cmp not found: is GST_PLUGIN_PATH set?");
  return element;
}

}  // namespace

GST_START_TEST(test_factory_names_its_authors_and_origin) {
  GstElementFactory* factory = gst_element_factory_find("ssimulacra2cmp");
  fail_unless(factory != nullptr);
  fail_unless_equals_string(
      gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_AUTHOR),
      "ssimulacra2cmp developers");
  GstPlugin* plugin = gst_plugin_feature_get_plugin(GST_PLUGIN_FEATURE(factory));
  fail_unless_equals_string(gst_plugin_get_package(plugin), "ssimulacra2cmp");
  // The meson option package-origin, GStreamer's default unless a packager
  // set a URL.
  fail_unless_equals_string(gst_plugin_get_origin(plugin), S2C_PACKAGE_ORIGIN);
  gst_object_unref(plugin);
  gst_object_unref(factory);
}
GST_END_TEST;

GST_START_TEST(test_blurbs_cite_no_file) {
  GstElement* element = MakeElement();
  guint n = 0;
  GParamSpec** specs = g_object_class_list_properties(G_OBJECT_GET_CLASS(element), &n);
  for (guint i = 0; i < n; ++i) {
    const std::string blurb = g_param_spec_get_blurb(specs[i]);
    fail_unless(blurb.find("docs/") == std::string::npos && blurb.find(".md") == std::string::npos,
                "%s: \"%s\"", g_param_spec_get_name(specs[i]), blurb.c_str());
  }
  g_free(specs);
  gst_object_unref(element);
}
GST_END_TEST;

// -1 reads back as -1 (auto: the tolerance in effect is in the debug log
// and the coverage message); a set value reads back as set, -1 again
// returns to auto.
GST_START_TEST(test_pairing_tolerance_defaults_to_auto) {
  GstElement* element = MakeElement();
  GParamSpec* spec =
      g_object_class_find_property(G_OBJECT_GET_CLASS(element), "pairing-tolerance");
  fail_unless(G_IS_PARAM_SPEC_INT64(spec));
  fail_unless_equals_int64(G_PARAM_SPEC_INT64(spec)->default_value, -1);
  fail_unless_equals_int64(G_PARAM_SPEC_INT64(spec)->minimum, -1);
  gint64 tolerance = 0;
  g_object_get(element, "pairing-tolerance", &tolerance, nullptr);
  fail_unless_equals_int64(tolerance, -1);
  g_object_set(element, "pairing-tolerance", gint64{5 * GST_MSECOND}, nullptr);
  g_object_get(element, "pairing-tolerance", &tolerance, nullptr);
  fail_unless_equals_int64(tolerance, 5 * GST_MSECOND);
  gst_util_set_object_arg(G_OBJECT(element), "pairing-tolerance", "-1");
  g_object_get(element, "pairing-tolerance", &tolerance, nullptr);
  fail_unless_equals_int64(tolerance, -1);
  gst_object_unref(element);
}
GST_END_TEST;

static Suite* inspect_suite() {
  Suite* s = suite_create("ssimulacra2cmp-inspect");
  TCase* tc = tcase_create("inspect");
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_factory_names_its_authors_and_origin);
  tcase_add_test(tc, test_blurbs_cite_no_file);
  tcase_add_test(tc, test_pairing_tolerance_defaults_to_auto);
  return s;
}

GST_CHECK_MAIN(inspect);
