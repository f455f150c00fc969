// SPDX-License-Identifier: BSD-3-Clause
#include "sink_caps.h"

#include <gst/video/video.h>

#include "frontend.h"
#include "ssim_planes.h"

namespace s2c {

namespace {

// GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, spelled here so that the CPU-only
// build does not need the CUDA headers.
constexpr char kCudaMemoryFeature[] = "memory:CUDAMemory";

// Whether every metric of `metrics` scores frames of `format` (SSIM: YUV
// only, by the library's own check).
bool Scores(unsigned metrics, PixelFormat format) {
  if (format == PixelFormat::kUnknown) return false;
  if (!(metrics & kMetricSsim)) return true;
  return CheckSsimFormats(format, format).ok();
}

GstStructure* RawVideoStructure(unsigned metrics) {
  GValue formats = G_VALUE_INIT;
  gst_value_list_init(&formats, 0);
  guint count = 0;
  const GstVideoFormat* all = gst_video_formats_raw(&count);
  for (guint i = 0; i < count; ++i) {
    const char* name = gst_video_format_to_string(all[i]);
    if (name == nullptr || !Scores(metrics, PixelFormatFromName(name))) continue;
    GValue v = G_VALUE_INIT;
    g_value_init(&v, G_TYPE_STRING);
    g_value_set_string(&v, name);
    gst_value_list_append_and_take_value(&formats, &v);
  }
  GstStructure* s = gst_structure_new("video/x-raw", "width", GST_TYPE_INT_RANGE,
                                      kMinSide, G_MAXINT, "height", GST_TYPE_INT_RANGE,
                                      kMinSide, G_MAXINT, "framerate",
                                      GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1,
                                      nullptr);
  gst_structure_take_value(s, "format", &formats);
  return s;
}

}  // namespace

GstCaps* SupportedCaps(unsigned metrics) {
  GstCaps* caps = gst_caps_new_empty();
  gst_caps_append_structure(caps, RawVideoStructure(metrics));
#ifdef S2C_GST_CUDA
  gst_caps_append_structure_full(caps, RawVideoStructure(metrics),
                                 gst_caps_features_new(kCudaMemoryFeature, nullptr));
#endif
  return caps;
}

bool HasCudaMemoryFeature(GstCaps* caps) {
  if (caps == nullptr || gst_caps_get_size(caps) == 0) return false;
  GstCapsFeatures* features = gst_caps_get_features(caps, 0);
  return features != nullptr && gst_caps_features_contains(features, kCudaMemoryFeature);
}

GstCaps* QueryCaps(unsigned metrics, GstCaps* filter) {
  GstCaps* caps = SupportedCaps(metrics);
  if (filter == nullptr) return caps;
  GstCaps* both = gst_caps_intersect_full(filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref(caps);
  return both;
}

bool IsAcceptableRawVideo(GstCaps* caps) {
  if (caps == nullptr || !gst_caps_is_fixed(caps)) return false;
  if (!gst_structure_has_name(gst_caps_get_structure(caps, 0), "video/x-raw")) return false;
  GstCapsFeatures* features = gst_caps_get_features(caps, 0);
  if (features == nullptr || gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
    return true;
  }
#ifdef S2C_GST_CUDA
  return HasCudaMemoryFeature(caps) && gst_caps_features_get_size(features) == 1;
#else
  return false;
#endif
}

}  // namespace s2c
