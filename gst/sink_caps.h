// SPDX-License-Identifier: BSD-3-Clause
// The caps the element offers on its pads: the exactness contract's formats
// in system memory and, in builds with CUDA, in CUDA memory.
#ifndef S2C_GST_SINK_CAPS_H_
#define S2C_GST_SINK_CAPS_H_

#include <gst/gst.h>

namespace s2c {

// (transfer full) Every GStreamer raw format the metric library's
// PixelFormatFromName() knows, width and height from 8.
GstCaps* SupportedCaps();

// Fixed raw video caps in a memory the element can read, whatever the
// format; the CAPS event handler then refuses unsupported details with a
// message saying what to insert.
bool IsAcceptableRawVideo(GstCaps* caps);

// True for video/x-raw(memory:CUDAMemory).
bool HasCudaMemoryFeature(GstCaps* caps);

}  // namespace s2c

#endif  // S2C_GST_SINK_CAPS_H_
