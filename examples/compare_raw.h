// SPDX-License-Identifier: BSD-3-Clause
// Raw video files (.yuv) for ssimulacra2cmp-compare: what --size,
// --pixel-format and --fps say about them, and rawvideoparse set up to read
// them as written by other tools, planes tightly packed (ffmpeg's rawvideo,
// a Y4M file's frames without their headers).
#ifndef S2C_EXAMPLES_COMPARE_RAW_H_
#define S2C_EXAMPLES_COMPARE_RAW_H_

#include <gst/gst.h>
#include <gst/video/video.h>

typedef struct {
  gint width, height;
  GstVideoFormat format;
  gint fps_n, fps_d;
  // The packed layout (ParseRawVideo fills it in).
  guint planes;
  guint64 strides[GST_VIDEO_MAX_PLANES];  // bytes
  guint64 offsets[GST_VIDEO_MAX_PLANES];  // bytes from the frame's start
  guint64 frame_size;                     // bytes, below 2 GiB
} RawVideo;

// TRUE for a file name that ends in ".yuv" (any case): read with
// rawvideoparse instead of decodebin.
gboolean IsRawVideoFile(const char* location);

// Fills `raw` from the options' texts: `size` "WxH", `format` a GStreamer
// format name (I420, Y444, I420_10LE, NV12, ...), `fps` "N/D" or "N" (NULL:
// 25/1, rawvideoparse's default, until StatedFrameRate gives the other
// input's). FALSE with `error` set when one is wrong.
gboolean ParseRawVideo(const char* size, const char* format, const char* fps, RawVideo* raw,
                       GError** error);

// The frame rate the first video stream of `location` (a file name or a
// URI) states, as GStreamer's discoverer reads it: TRUE with the rate.
// FALSE for a variable or unstated rate (`*video` set: the input is a moving
// picture), a still image, or an input the discoverer cannot read (the run
// then says why).
gboolean StatedFrameRate(const char* location, gint* fps_n, gint* fps_d, gboolean* video);

// (transfer floating) rawvideoparse reading `raw`'s packed frames, or NULL
// when the element is missing.
GstElement* MakeRawVideoParse(const RawVideo* raw);

#endif  // S2C_EXAMPLES_COMPARE_RAW_H_
