// SPDX-License-Identifier: BSD-3-Clause
#include "sink_caps.h"

#include <string>

#include "frontend.h"
#include "ssim_planes.h"
#include "video_desc.h"

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

// SupportedCaps, progressive only, and with `size` and `rate` the
// followed format's where it has them.
GstCaps* OfferedCaps(unsigned metrics, const FollowedFormat* follow, bool size, bool rate) {
  GstCaps* caps = SupportedCaps(metrics);
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    GstStructure* s = gst_caps_get_structure(caps, i);
    gst_structure_set(s, "interlace-mode", G_TYPE_STRING, "progressive", nullptr);
    if (follow != nullptr && size) {
      gst_structure_set(s, "width", G_TYPE_INT, follow->width, "height", G_TYPE_INT,
                        follow->height, nullptr);
    }
    if (follow != nullptr && rate && follow->fps_n > 0) {
      gst_structure_set(s, "framerate", GST_TYPE_FRACTION, follow->fps_n, follow->fps_d,
                        nullptr);
    }
  }
  return caps;
}

// Drops the colorimetries of a filter's structure that no format reads (an
// upstream that states PQ is offered nothing for it); false when none is
// left. A structure without colorimetry leaves the choice to upstream.
bool KeepReadableColorimetry(GstStructure* s) {
  const GValue* value = gst_structure_get_value(s, "colorimetry");
  if (value == nullptr) return true;
  if (G_VALUE_HOLDS_STRING(value)) return IsReadableColorimetry(g_value_get_string(value));
  if (!GST_VALUE_HOLDS_LIST(value)) return true;
  GValue kept = G_VALUE_INIT;
  gst_value_list_init(&kept, 0);
  for (guint i = 0; i < gst_value_list_get_size(value); ++i) {
    const GValue* v = gst_value_list_get_value(value, i);
    if (!G_VALUE_HOLDS_STRING(v) || IsReadableColorimetry(g_value_get_string(v))) {
      gst_value_list_append_value(&kept, v);
    }
  }
  const guint left = gst_value_list_get_size(&kept);
  if (left == 1) {
    gst_structure_set_value(s, "colorimetry", gst_value_list_get_value(&kept, 0));
  } else if (left > 1) {
    gst_structure_set_value(s, "colorimetry", &kept);
  }
  g_value_unset(&kept);
  return left > 0;
}

// `offered` (taken) within `filter`, less what KeepReadableColorimetry drops.
GstCaps* Within(GstCaps* offered, GstCaps* filter) {
  if (filter == nullptr) return offered;
  GstCaps* both = gst_caps_intersect_full(filter, offered, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref(offered);
  both = gst_caps_make_writable(both);
  for (guint i = gst_caps_get_size(both); i > 0; --i) {
    if (!KeepReadableColorimetry(gst_caps_get_structure(both, i - 1))) {
      gst_caps_remove_structure(both, i - 1);
    }
  }
  return both;
}

bool IsRawVideo(GstCaps* caps) {
  return gst_caps_get_size(caps) > 0 &&
         gst_structure_has_name(gst_caps_get_structure(caps, 0), "video/x-raw");
}

// System memory, or (CUDA builds) CUDA memory alone.
bool InReadableMemory(GstCaps* caps) {
  GstCapsFeatures* features = gst_caps_get_features(caps, 0);
  if (features == nullptr ||
      gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
    return true;
  }
#ifdef S2C_GST_CUDA
  return HasCudaMemoryFeature(caps) && gst_caps_features_get_size(features) == 1;
#else
  return false;
#endif
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

GstCaps* FollowingCaps(unsigned metrics, const FollowedFormat& follow, bool size, bool rate) {
  return OfferedCaps(metrics, &follow, size, rate);
}

GstCaps* QueryCaps(unsigned metrics, GstCaps* filter, const FollowedFormat* follow,
                   FollowedParts* kept) {
  if (follow == nullptr) return Within(OfferedCaps(metrics, nullptr, false, false), filter);
  if (filter == nullptr) {
    return gst_caps_merge(OfferedCaps(metrics, follow, true, true),
                          OfferedCaps(metrics, nullptr, false, false));
  }
  // Size and rate, size, rate, neither: the first the filter leaves.
  const FollowedParts levels[4] = {{true, true}, {true, false}, {false, true}, {false, false}};
  GstCaps* caps = nullptr;
  for (const FollowedParts& level : levels) {
    if (caps != nullptr) gst_caps_unref(caps);
    caps = Within(OfferedCaps(metrics, follow, level.size, level.rate), filter);
    if (kept != nullptr) *kept = level;
    if (!gst_caps_is_empty(caps)) break;
  }
  return caps;
}

Status CheckSinkCaps(GstCaps* caps, const char* pad_name, GstVideoInfo* info, FrameDesc* desc) {
  const std::string pad(pad_name);
  if (caps == nullptr || !gst_caps_is_fixed(caps)) {
    return InvalidArgument(pad + ": caps are not fixed");
  }
  if (!IsRawVideo(caps)) {
    return Status(StatusCode::kUnsupported,
                  pad + ": caps are not raw video; insert a decoder and videoconvert before "
                        "this pad");
  }
  if (!InReadableMemory(caps)) {
    gchar* features = gst_caps_features_to_string(gst_caps_get_features(caps, 0));
    const Status refused(StatusCode::kUnsupported,
                         pad + ": raw video in " + features +
                             " is not read; insert a download element (e.g. gldownload, "
                             "cudadownload) before this pad");
    g_free(features);
    return refused;
  }
  if (!gst_video_info_from_caps(info, caps)) {
    // GstVideoInfo refuses frames of 2 GiB or more, among others.
    return InvalidArgument(pad +
                           ": GStreamer cannot describe these raw video caps (a frame of 2 "
                           "GiB or more?); insert videoscale before this pad");
  }
  return DescribeVideoInfo(*info, pad_name, desc);
}

}  // namespace s2c
