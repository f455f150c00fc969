// SPDX-License-Identifier: BSD-3-Clause
#include "compare_raw.h"

#include <gst/pbutils/pbutils.h>
#include <string.h>

gboolean IsRawVideoFile(const char* location) {
  const size_t n = strlen(location);
  return n >= 4 && g_ascii_strcasecmp(location + n - 4, ".yuv") == 0;
}

static gboolean ParsePositive(const char* text, gint* out) {
  gint64 v = 0;
  if (!g_ascii_string_to_signed(text, 10, 1, G_MAXINT, &v, NULL)) return FALSE;
  *out = (gint)v;
  return TRUE;
}

// "A<sep>B" with A and B whole numbers from 1; with `optional_second`, "A"
// alone means A<sep>1.
static gboolean ParsePair(const char* text, const char* sep, gboolean optional_second, gint* a,
                          gint* b) {
  gchar** parts = g_strsplit(text, sep, 3);
  const guint n = g_strv_length(parts);
  gboolean ok = (n == 2 || (n == 1 && optional_second)) && ParsePositive(parts[0], a);
  if (ok && n == 2) ok = ParsePositive(parts[1], b);
  if (ok && n == 1) *b = 1;
  g_strfreev(parts);
  return ok;
}

// The packed layout of one frame: each plane's rows back to back at its
// components' own width (rounded up for subsampled chroma), the planes one
// after another. GStreamer's default layout pads rows to 4 bytes instead,
// which differs for widths such as 1366 (683 chroma samples a row). FALSE
// for formats that pixel strides do not describe (tiled, palette, v210-like
// packing) and for frames of 2 GiB or more.
static gboolean PackedLayout(RawVideo* raw) {
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(raw->format);
  if (finfo == NULL || GST_VIDEO_FORMAT_INFO_N_PLANES(finfo) == 0 ||
      GST_VIDEO_FORMAT_INFO_IS_TILED(finfo) || GST_VIDEO_FORMAT_INFO_IS_COMPLEX(finfo) ||
      GST_VIDEO_FORMAT_INFO_HAS_PALETTE(finfo)) {
    return FALSE;
  }
  raw->planes = GST_VIDEO_FORMAT_INFO_N_PLANES(finfo);
  raw->frame_size = 0;
  for (guint p = 0; p < raw->planes; ++p) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component(finfo, p, comp);
    const gint pixel_stride = comp[0] < 0 ? 0 : GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, comp[0]);
    if (pixel_stride <= 0) return FALSE;
    const guint64 stride =
        (guint64)GST_VIDEO_FORMAT_INFO_SCALE_WIDTH(finfo, comp[0], raw->width) * pixel_stride;
    if (stride > G_MAXINT) return FALSE;
    raw->strides[p] = stride;
    raw->offsets[p] = raw->frame_size;
    raw->frame_size +=
        stride * (guint64)GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(finfo, comp[0], raw->height);
  }
  return raw->frame_size <= G_MAXINT;
}

gboolean ParseRawVideo(const char* size, const char* format, const char* fps, RawVideo* raw,
                       GError** error) {
  const char* wrong = NULL;
  raw->fps_n = 25;
  raw->fps_d = 1;
  raw->format = format != NULL ? gst_video_format_from_string(format) : GST_VIDEO_FORMAT_UNKNOWN;
  if (size == NULL || !ParsePair(size, "x", FALSE, &raw->width, &raw->height)) {
    wrong = "--size: WIDTHxHEIGHT, e.g. 1920x1080";
  } else if (raw->format == GST_VIDEO_FORMAT_UNKNOWN) {
    wrong = "--pixel-format: a GStreamer format name, e.g. I420, Y444, I420_10LE, NV12";
  } else if (fps != NULL && !ParsePair(fps, "/", TRUE, &raw->fps_n, &raw->fps_d)) {
    wrong = "--fps: N/D or N, both whole numbers from 1, e.g. 30000/1001";
  }
  if (wrong == NULL && !PackedLayout(raw)) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--pixel-format %s --size %dx%d: no packed raw layout (a tiled or palette "
                "format, or a frame of 2 GiB or more)",
                format, raw->width, raw->height);
    return FALSE;
  }
  if (wrong != NULL) {
    g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, wrong);
    return FALSE;
  }
  return TRUE;
}

gboolean StatedFrameRate(const char* location, gint* fps_n, gint* fps_d, gboolean* video) {
  *video = FALSE;
  gchar* uri = strstr(location, "://") != NULL ? g_strdup(location)
                                               : gst_filename_to_uri(location, NULL);
  GstDiscoverer* discoverer = uri != NULL ? gst_discoverer_new(30 * GST_SECOND, NULL) : NULL;
  GstDiscovererInfo* info =
      discoverer != NULL ? gst_discoverer_discover_uri(discoverer, uri, NULL) : NULL;
  GList* streams = info != NULL ? gst_discoverer_info_get_video_streams(info) : NULL;
  gboolean stated = FALSE;
  if (streams != NULL) {
    GstDiscovererVideoInfo* first = streams->data;
    *video = !gst_discoverer_video_info_is_image(first);
    *fps_n = (gint)gst_discoverer_video_info_get_framerate_num(first);
    *fps_d = (gint)gst_discoverer_video_info_get_framerate_denom(first);
    stated = *video && *fps_n > 0 && *fps_d > 0;
  }
  gst_discoverer_stream_info_list_free(streams);
  if (info != NULL) gst_discoverer_info_unref(info);
  if (discoverer != NULL) g_object_unref(discoverer);
  g_free(uri);
  return stated;
}

// "<a,b,c>", the form of rawvideoparse's array properties.
static gchar* ArrayText(const guint64* values, guint n) {
  GString* s = g_string_new("<");
  for (guint i = 0; i < n; ++i) {
    g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i > 0 ? "," : "", values[i]);
  }
  g_string_append_c(s, '>');
  return g_string_free(s, FALSE);
}

GstElement* MakeRawVideoParse(const RawVideo* raw) {
  GstElement* parse = gst_element_factory_make("rawvideoparse", NULL);
  if (parse == NULL) return NULL;
  g_object_set(parse, "width", raw->width, "height", raw->height, "format", raw->format,
               "framerate", raw->fps_n, raw->fps_d, "frame-size", (guint)raw->frame_size,
               NULL);
  gchar* text = ArrayText(raw->strides, raw->planes);
  gst_util_set_object_arg(G_OBJECT(parse), "plane-strides", text);
  g_free(text);
  text = ArrayText(raw->offsets, raw->planes);
  gst_util_set_object_arg(G_OBJECT(parse), "plane-offsets", text);
  g_free(text);
  return parse;
}
