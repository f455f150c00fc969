/* SPDX-License-Identifier: BSD-3-Clause
 *
 * Reading the ssimulacra2cmp element's score from a buffer, in C.
 *
 * Each scored reference buffer leaving the element carries a GstCustomMeta
 * named "Ssimulacra2CmpMeta" whose GstStructure holds the SSIMULACRA 2 score
 * (gdouble, exactly the backend's double) when the element's "metrics"
 * include ssimulacra2, SSIM raw and in dB (gdoubles) when they include ssim,
 * the frame index (guint64: the reference frame's number when its buffer
 * has one, offset N with offset_end N + 1, else the scored pair's index in
 * the segment, from 0), the PTS of the distorted buffer it was paired
 * with (guint64, a GstClockTime) and that buffer's number at the element's
 * dist_sink (guint64, "dist-frame-index": from 0 in the segment after
 * dist-start-frame). Buffers that went out unscored carry no
 * such meta. The plugin registers the meta when it is loaded; this header
 * adds nothing to link against (pkg-config --cflags ssimulacra2cmp).
 *
 * Installed by `meson install` as <ssimulacra2cmp/ssimulacra2cmp-meta.h>;
 * the plugin itself spells the names only here. docs/element-messages.md, "Meta".
 */
#ifndef SSIMULACRA2CMP_META_H_
#define SSIMULACRA2CMP_META_H_

#include <gst/gst.h>

G_BEGIN_DECLS

#define SSIMULACRA2CMP_META_NAME "Ssimulacra2CmpMeta"
#define SSIMULACRA2CMP_META_SCORE "score"
#define SSIMULACRA2CMP_META_FRAME_INDEX "frame-index"
#define SSIMULACRA2CMP_META_DIST_TIMESTAMP "dist-timestamp"
#define SSIMULACRA2CMP_META_DIST_FRAME_INDEX "dist-frame-index"
#define SSIMULACRA2CMP_META_SSIM "ssim"
#define SSIMULACRA2CMP_META_SSIM_DB "ssim-db"

/* The SSIMULACRA 2 score of a buffer the element scored: TRUE and the three
 * values (any pointer may be NULL), or FALSE when the buffer carries no such
 * score (unscored, or metrics without ssimulacra2). */
static inline gboolean ssimulacra2cmp_buffer_get_score(GstBuffer *buffer, gdouble *score,
                                                       guint64 *frame_index,
                                                       GstClockTime *dist_timestamp) {
  GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, SSIMULACRA2CMP_META_NAME);
  const GstStructure *s;
  gdouble v = 0.0;
  guint64 index = 0, dist = 0;
  if (meta == NULL) return FALSE;
  s = gst_custom_meta_get_structure(meta);
  if (!gst_structure_get_double(s, SSIMULACRA2CMP_META_SCORE, &v) ||
      !gst_structure_get_uint64(s, SSIMULACRA2CMP_META_FRAME_INDEX, &index) ||
      !gst_structure_get_uint64(s, SSIMULACRA2CMP_META_DIST_TIMESTAMP, &dist)) {
    return FALSE;
  }
  if (score != NULL) *score = v;
  if (frame_index != NULL) *frame_index = index;
  if (dist_timestamp != NULL) *dist_timestamp = dist;
  return TRUE;
}

/* SSIM of a buffer the element scored with metrics including ssim: TRUE
 * and the combined value raw and in dB (+inf for identical frames; either
 * pointer may be NULL), or FALSE when the buffer carries no SSIM. */
static inline gboolean ssimulacra2cmp_buffer_get_ssim(GstBuffer *buffer, gdouble *ssim,
                                                      gdouble *ssim_db) {
  GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, SSIMULACRA2CMP_META_NAME);
  const GstStructure *s;
  gdouble raw = 0.0, db = 0.0;
  if (meta == NULL) return FALSE;
  s = gst_custom_meta_get_structure(meta);
  if (!gst_structure_get_double(s, SSIMULACRA2CMP_META_SSIM, &raw) ||
      !gst_structure_get_double(s, SSIMULACRA2CMP_META_SSIM_DB, &db)) {
    return FALSE;
  }
  if (ssim != NULL) *ssim = raw;
  if (ssim_db != NULL) *ssim_db = db;
  return TRUE;
}

G_END_DECLS

#endif /* SSIMULACRA2CMP_META_H_ */
