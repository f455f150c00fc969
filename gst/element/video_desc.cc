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

std::string Nick(GType type, int value) {
  GEnumClass* klass = static_cast<GEnumClass*>(g_type_class_ref(type));
  const GEnumValue* v = g_enum_get_value(klass, value);
  const std::string nick = v != nullptr ? v->value_nick : std::to_string(value);
  g_type_class_unref(klass);
  return nick;
}

// The fragment that converts to what the front end reads, keeping the
// format: GStreamer's videoconvert (1.20 on) remaps transfer functions with
// gamma-mode=remap and converts primaries with primaries-mode=fast when the
// caps after it name another colorimetry.
std::string ConvertFragment(const GstVideoInfo& info, const char* mode,
                            const char* yuv_colorimetry) {
  const char* format = gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&info));
  return std::string("insert videoconvert ") + mode + " ! video/x-raw,format=" + format +
         ",colorimetry=" + (GST_VIDEO_INFO_IS_YUV(&info) ? yuv_colorimetry : "sRGB") +
         " before this pad";
}

bool IsHdr(GstVideoTransferFunction t) {
  return t == GST_VIDEO_TRANSFER_SMPTE2084 || t == GST_VIDEO_TRANSFER_ARIB_STD_B67;
}

// Linear light and the logarithmic curves: no SDR gamma curve.
bool IsLinearOrLog(GstVideoTransferFunction t) {
  return t == GST_VIDEO_TRANSFER_GAMMA10 || t == GST_VIDEO_TRANSFER_LOG100 ||
         t == GST_VIDEO_TRANSFER_LOG316;
}

bool IsReadablePrimaries(GstVideoColorPrimaries p) {
  switch (p) {
    case GST_VIDEO_COLOR_PRIMARIES_UNKNOWN:
    case GST_VIDEO_COLOR_PRIMARIES_BT709:
    case GST_VIDEO_COLOR_PRIMARIES_BT470M:
    case GST_VIDEO_COLOR_PRIMARIES_BT470BG:
    case GST_VIDEO_COLOR_PRIMARIES_SMPTE170M:
    case GST_VIDEO_COLOR_PRIMARIES_SMPTE240M:
    case GST_VIDEO_COLOR_PRIMARIES_BT2020:
      return true;
    default:
      return false;
  }
}

// SDR curves are read as sRGB's (frontend.md, 4); HDR, linear and
// logarithmic transfers are refused.
Status CheckTransfer(const GstVideoInfo& info, const char* pad_name) {
  const GstVideoTransferFunction t = info.colorimetry.transfer;
  const std::string name = Nick(GST_TYPE_VIDEO_TRANSFER_FUNCTION, t);
  if (IsHdr(t)) {
    return Refuse(StatusCode::kUnsupported, pad_name,
                  "HDR transfer functions (PQ, HLG) are not scored (" + name +
                      "); to compare the streams mapped to SDR (a remap of the transfer "
                      "function, not a tone map)",
                  ConvertFragment(info, "gamma-mode=remap", "bt2020"));
  }
  if (IsLinearOrLog(t)) {
    return Refuse(StatusCode::kUnsupported, pad_name,
                  "the transfer function " + name +
                      " is not an SDR gamma curve, which the front end reads",
                  ConvertFragment(info, "gamma-mode=remap", "bt709"));
  }
  return Status::Ok();
}

// BT.2020 is converted (frontend.md, 9); BT.709, the SD primaries, SMPTE
// 240M and unknown ones are read as BT.709's; wider ones are refused.
Status ReadPrimaries(const GstVideoInfo& info, const char* pad_name, RgbPrimaries* out) {
  const GstVideoColorPrimaries p = info.colorimetry.primaries;
  if (!IsReadablePrimaries(p)) {
    return Refuse(StatusCode::kUnsupported, pad_name,
                  "the primaries " + Nick(GST_TYPE_VIDEO_COLOR_PRIMARIES, p) +
                      " are not converted (BT.709, the SD primaries and BT.2020 are)",
                  ConvertFragment(info, "primaries-mode=fast", "bt709"));
  }
  *out = p == GST_VIDEO_COLOR_PRIMARIES_BT2020 ? RgbPrimaries::kBT2020 : RgbPrimaries::kBT709;
  return Status::Ok();
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
  S2C_RETURN_IF_ERROR(CheckTransfer(info, pad_name));
  if (!GST_VIDEO_INFO_IS_GRAY(&info)) {
    S2C_RETURN_IF_ERROR(ReadPrimaries(info, pad_name, &desc.primaries));
  }
  const GstVideoColorimetry& c = info.colorimetry;
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

bool IsReadableColorimetry(const char* colorimetry) {
  GstVideoColorimetry c;
  if (colorimetry == nullptr || !gst_video_colorimetry_from_string(&c, colorimetry)) {
    return true;  // GStreamer reads it as its default
  }
  return !IsHdr(c.transfer) && !IsLinearOrLog(c.transfer) && IsReadablePrimaries(c.primaries);
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
