// SPDX-License-Identifier: BSD-3-Clause
// The caps the element offers on its pads: the exactness contract's formats
// that the chosen metrics score (SSIM: YUV only), in system memory and, in
// builds with CUDA, in CUDA memory.
#ifndef S2C_GST_SINK_CAPS_H_
#define S2C_GST_SINK_CAPS_H_

#include <gst/gst.h>

namespace s2c {

// (transfer full) Every GStreamer raw format the metric library's
// PixelFormatFromName() knows and every metric of `metrics` (Metric bits)
// scores, width and height from 8. With kMetricSsimulacra2 alone: all of
// them (the pad templates).
GstCaps* SupportedCaps(unsigned metrics);

// (transfer full) The answer to a CAPS query: SupportedCaps(metrics) within
// `filter` (may be null), in the filter's order of preference.
GstCaps* QueryCaps(unsigned metrics, GstCaps* filter);

// Fixed raw video caps in a memory the element can read, whatever the
// format; the CAPS event handler then refuses unsupported details with a
// message saying what to insert.
bool IsAcceptableRawVideo(GstCaps* caps);

// True for video/x-raw(memory:CUDAMemory).
bool HasCudaMemoryFeature(GstCaps* caps);

}  // namespace s2c

#endif  // S2C_GST_SINK_CAPS_H_
