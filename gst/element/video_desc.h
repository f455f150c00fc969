// SPDX-License-Identifier: BSD-3-Clause
// From negotiated GStreamer video caps to the metric library's frame
// description, refusing what the metric cannot score with a sentence that
// tells the user which element to insert.
#ifndef S2C_GST_VIDEO_DESC_H_
#define S2C_GST_VIDEO_DESC_H_

#include <gst/video/video.h>

#include "status.h"
#include "steps/frame.h"

namespace s2c {

// Fills *out from `info`, or returns InvalidArgument/Unsupported whose
// message names the pad (`pad_name`) and the fix: videoconvert for a format
// outside the contract, deinterlace for interlaced video, videoscale below
// 8x8, videoconvert with gamma-mode=remap (and the format and colorimetry
// to convert to) for an HDR, linear or logarithmic transfer function, and
// with primaries-mode=fast for primaries other than BT.709's, the SD ones
// and BT.2020's (frontend.md, 9).
Status DescribeVideoInfo(const GstVideoInfo& info, const char* pad_name,
                         FrameDesc* out);

// Whether a caps colorimetry string names a transfer function and
// primaries that DescribeVideoInfo reads (true for a string GStreamer does
// not parse: it falls back to its default).
bool IsReadableColorimetry(const char* colorimetry);

// The planes of a mapped frame (host or CUDA pointers, as it was mapped).
FrameView ViewOfVideoFrame(const GstVideoFrame& frame, const FrameDesc& desc);

}  // namespace s2c

#endif  // S2C_GST_VIDEO_DESC_H_
