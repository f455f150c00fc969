// SPDX-License-Identifier: BSD-3-Clause
#include "colour_interpretation.h"

#include <gst/video/video.h>

#include "frontend.h"

namespace s2c {
namespace {

// The names GStreamer gives these values in caps and enums.
const char* MatrixName(YuvMatrix m) {
  switch (m) {
    case YuvMatrix::kBT601: return "bt601";
    case YuvMatrix::kBT709: return "bt709";
    case YuvMatrix::kBT2020: return "bt2020";
  }
  return "?";
}

const char* RangeName(YuvRange r) { return r == YuvRange::kFull ? "0-255" : "16-235"; }

const char* PrimariesName(RgbPrimaries p) {
  return p == RgbPrimaries::kBT2020 ? "bt2020" : "bt709";
}

std::string SitingName(const ChromaSiting& s) {
  int flags = 0;
  if (s.h_cosited) flags |= GST_VIDEO_CHROMA_SITE_H_COSITED;
  if (s.v_cosited) flags |= GST_VIDEO_CHROMA_SITE_V_COSITED;
  if (flags == 0) flags = GST_VIDEO_CHROMA_SITE_NONE;  // centred: "jpeg"
  gchar* name = gst_video_chroma_site_to_string(static_cast<GstVideoChromaSite>(flags));
  const std::string out = name != nullptr ? name : "?";
  g_free(name);
  return out;
}

void Note(std::string* adopted, const char* what, const std::string& own,
          const std::string& ref) {
  if (own == ref) return;
  if (!adopted->empty()) *adopted += ", ";
  *adopted += std::string(what) + " " + own + " -> " + ref;
}

}  // namespace

const char* ColorimetryModeName(ColorimetryMode mode) {
  return mode == ColorimetryMode::kPerStream ? "per-stream" : "reference";
}

DistReading ReadDist(const FrameDesc& ref, const FrameDesc& dist, ColorimetryMode mode) {
  DistReading out;
  out.desc = dist;
  FrameLayout r, d;
  if (mode == ColorimetryMode::kPerStream || !DescribeFormat(ref, &r).ok() ||
      !DescribeFormat(dist, &d).ok()) {
    return out;
  }
  FrameDesc& read = out.desc;
  if (r.model == ColorModel::kYuv && d.model == ColorModel::kYuv) {
    read.matrix = ref.matrix;
    read.range = ref.range;
    if (r.chroma_shift_x > 0 && d.chroma_shift_x > 0) read.siting.h_cosited = ref.siting.h_cosited;
    if (r.chroma_shift_y > 0 && d.chroma_shift_y > 0) read.siting.v_cosited = ref.siting.v_cosited;
    Note(&out.adopted, "matrix", MatrixName(dist.matrix), MatrixName(read.matrix));
    Note(&out.adopted, "range", RangeName(dist.range), RangeName(read.range));
    Note(&out.adopted, "chroma-site", SitingName(dist.siting), SitingName(read.siting));
  }
  if (r.model != ColorModel::kGray && d.model != ColorModel::kGray) {
    read.primaries = ref.primaries;
    Note(&out.adopted, "primaries", PrimariesName(dist.primaries), PrimariesName(read.primaries));
  }
  return out;
}

}  // namespace s2c
