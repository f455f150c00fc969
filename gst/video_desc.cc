// SPDX-License-Identifier: BSD-3-Clause
#include "video_desc.h"

#include <string>

#include "frontend.h"

namespace s2c {

namespace {

// GStreamer's own default when the caps leave the matrix unknown
// (video-info.c, set_default_colorimetry), so a stream scores the same
// whether or not upstream spelled the default out.
YuvMatrix DefaultMatrix(int height) {
  if (height >= 2160) return YuvMatrix::kBT2020;
  if (height > 576) return YuvMatrix::kBT709;
  return YuvMatrix::kBT601;
}

Status Refuse(StatusCode code, const char* pad_name, const std::string& what,
              const std::string& fix) {
  return Status(code, std::string(pad_name) + ": " + what + "; " + fix);
}

}  // namespace

Status DescribeVideoInfo(const GstVideoInfo& info, const char* pad_name,
                         FrameDesc* out) {
  const char* format_name = gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&info));
  FrameDesc desc;
  desc.format = PixelFormatFromName(format_name != nullptr ? format_name : "");
  if (desc.format == PixelFormat::kUnknown) {
    return Refuse(StatusCode::kUnsupported, pad_name,
                  std::string("format ") + (format_name ? format_name : "?") +
                      " is not supported",
                  "insert videoconvert before this pad");
  }
  desc.width = GST_VIDEO_INFO_WIDTH(&info);
  desc.height = GST_VIDEO_INFO_HEIGHT(&info);
  // SSIM's horizontal window follows the pixel aspect (square when unset).
  if (GST_VIDEO_INFO_PAR_N(&info) > 0 && GST_VIDEO_INFO_PAR_D(&info) > 0) {
    desc.pixel_aspect =
        static_cast<double>(GST_VIDEO_INFO_PAR_N(&info)) / GST_VIDEO_INFO_PAR_D(&info);
  }
  if (desc.width < kMinSide || desc.height < kMinSide) {
    return Refuse(StatusCode::kInvalidArgument, pad_name,
                  "frames of " + SizeText(desc.width, desc.height) +
                      " are below the 8x8 minimum",
                  "insert videoscale before this pad");
  }
  if (GST_VIDEO_INFO_IS_INTERLACED(&info)) {
    return Refuse(StatusCode::kUnsupported, pad_name,
                  "interlaced video is not supported",
                  "insert deinterlace before this pad");
  }
  const GstVideoColorimetry& c = info.colorimetry;
  if (c.transfer == GST_VIDEO_TRANSFER_SMPTE2084 ||
      c.transfer == GST_VIDEO_TRANSFER_ARIB_STD_B67) {
    return Refuse(StatusCode::kUnsupported, pad_name,
                  "HDR transfer functions (PQ, HLG) are not supported",
                  "tone-map to SDR before this pad");
  }
  if (GST_VIDEO_INFO_IS_YUV(&info)) {
    switch (c.matrix) {
      case GST_VIDEO_COLOR_MATRIX_BT601: desc.matrix = YuvMatrix::kBT601; break;
      case GST_VIDEO_COLOR_MATRIX_BT709: desc.matrix = YuvMatrix::kBT709; break;
      case GST_VIDEO_COLOR_MATRIX_BT2020: desc.matrix = YuvMatrix::kBT2020; break;
      case GST_VIDEO_COLOR_MATRIX_UNKNOWN:
        desc.matrix = DefaultMatrix(desc.height);
        break;
      default:
        return Refuse(StatusCode::kUnsupported, pad_name,
                      "only BT.601, BT.709 and BT.2020 YUV matrices are supported",
                      "insert videoconvert ! video/x-raw,colorimetry=bt709 "
                      "before this pad");
    }
    desc.range = c.range == GST_VIDEO_COLOR_RANGE_0_255 ? YuvRange::kFull
                                                         : YuvRange::kLimited;
    if (info.chroma_site != GST_VIDEO_CHROMA_SITE_UNKNOWN) {
      desc.siting.h_cosited = (info.chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED) != 0;
      desc.siting.v_cosited = (info.chroma_site & GST_VIDEO_CHROMA_SITE_V_COSITED) != 0;
    }
  }
  *out = desc;
  return Status::Ok();
}

FrameView ViewOfVideoFrame(const GstVideoFrame& frame, const FrameDesc& desc) {
  FrameView view;
  view.desc = desc;
  const guint planes = GST_VIDEO_FRAME_N_PLANES(&frame);
  for (guint i = 0; i < planes && i < static_cast<guint>(kMaxPlanes); ++i) {
    view.data[i] = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, i));
    view.stride[i] = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, i);
  }
  return view;
}

}  // namespace s2c
