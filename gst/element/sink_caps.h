// SPDX-License-Identifier: BSD-3-Clause
// The caps the element's pads take: the exactness contract's formats that
// the chosen metrics score (SSIM: YUV only), progressive, in a colorimetry
// the front end reads, in system memory and, in builds with CUDA, in CUDA
// memory. One check (CheckSinkCaps) answers both the CAPS event and the
// ACCEPT_CAPS query, so the two agree; the CAPS query offers what it
// accepts, and on dist_sink prefers the reference's size and frame rate.
#ifndef S2C_GST_SINK_CAPS_H_
#define S2C_GST_SINK_CAPS_H_

#include <gst/video/video.h>

#include "status.h"
#include "steps/frame.h"

namespace s2c {

// (transfer full) Every GStreamer raw format the metric library's
// PixelFormatFromName() knows and every metric of `metrics` (Metric bits)
// scores, width and height from 8. With kMetricSsimulacra2 alone: all of
// them (the pad templates).
GstCaps* SupportedCaps(unsigned metrics);

// The reference's negotiated size and frame rate, which the CAPS query of
// dist_sink offers first (fps_n 0: a variable rate, not offered).
struct FollowedFormat {
  int width = 0;
  int height = 0;
  int fps_n = 0;
  int fps_d = 1;
};

// Which parts of a followed format an answer to a CAPS query kept.
struct FollowedParts {
  bool size = false;
  bool rate = false;
};

// (transfer full) The answer to a CAPS query: SupportedCaps(metrics),
// progressive, within `filter` (may be null) in the filter's order of
// preference, without the filter's colorimetries that no format reads.
// With `follow` (dist_sink once the reference has caps), the first of:
// the reference's size and rate, its size, its rate, any; the first that
// the filter leaves non-empty, so that a videoscale or videorate upstream
// converts, and a source that cannot still negotiates and hears why (the
// CAPS event's size error, the frame-rate warning); `kept` (may be null)
// says which. Without a filter, the reference's size and rate first, then
// any.
GstCaps* QueryCaps(unsigned metrics, GstCaps* filter, const FollowedFormat* follow,
                   FollowedParts* kept = nullptr);

// (transfer full) The caps of SupportedCaps(metrics), progressive, at
// `follow`'s size (with `size`) and rate (with `rate`): what dist_sink
// asks of a branch it wants to renegotiate.
GstCaps* FollowingCaps(unsigned metrics, const FollowedFormat& follow, bool size, bool rate);

// Whether fixed `caps` are ones the pad takes: raw video GStreamer can
// describe (into *info), in system or (CUDA builds) CUDA memory, that
// DescribeVideoInfo accepts (into *desc). Otherwise the refusal, whose
// message names `pad_name` and the element to insert.
Status CheckSinkCaps(GstCaps* caps, const char* pad_name, GstVideoInfo* info, FrameDesc* desc);

// True for video/x-raw(memory:CUDAMemory).
bool HasCudaMemoryFeature(GstCaps* caps);

}  // namespace s2c

#endif  // S2C_GST_SINK_CAPS_H_
