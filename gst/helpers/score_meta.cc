// SPDX-License-Identifier: BSD-3-Clause
#include "score_meta.h"

#include "ssimulacra2cmp-meta.h"  // the names, public for applications

namespace s2c {

const char kScoreMetaName[] = SSIMULACRA2CMP_META_NAME;

namespace {
constexpr char kScore[] = SSIMULACRA2CMP_META_SCORE;
constexpr char kFrameIndex[] = SSIMULACRA2CMP_META_FRAME_INDEX;
constexpr char kDistTimestamp[] = SSIMULACRA2CMP_META_DIST_TIMESTAMP;
constexpr char kDistFrameIndex[] = SSIMULACRA2CMP_META_DIST_FRAME_INDEX;
constexpr char kSsim[] = SSIMULACRA2CMP_META_SSIM;
constexpr char kSsimDb[] = SSIMULACRA2CMP_META_SSIM_DB;
}  // namespace

void RegisterScoreMeta() {
  static gsize once = 0;
  if (g_once_init_enter(&once)) {
    // No tags and no transform function: GStreamer then copies the structure
    // on every copy transform and keeps the meta through conversions.
    const gchar* tags[] = {nullptr};
    gst_meta_register_custom(kScoreMetaName, tags, nullptr, nullptr, nullptr);
    g_once_init_leave(&once, 1);
  }
}

void AddScoreMeta(GstBuffer* buffer, const ScoreMeta& meta) {
  GstCustomMeta* custom = gst_buffer_get_custom_meta(buffer, kScoreMetaName);
  if (custom == nullptr) {
    custom = gst_buffer_add_custom_meta(buffer, kScoreMetaName);
  }
  GstStructure* s = gst_custom_meta_get_structure(custom);
  if (meta.metrics & kMetricSsimulacra2) {
    gst_structure_set(s, kScore, G_TYPE_DOUBLE, meta.score, nullptr);
  }
  if (meta.metrics & kMetricSsim) {
    gst_structure_set(s, kSsim, G_TYPE_DOUBLE, meta.ssim, kSsimDb, G_TYPE_DOUBLE, meta.ssim_db,
                      nullptr);
  }
  gst_structure_set(s, kFrameIndex, G_TYPE_UINT64, guint64{meta.frame_index},
                    kDistTimestamp, G_TYPE_UINT64, guint64{meta.dist_timestamp},
                    kDistFrameIndex, G_TYPE_UINT64, guint64{meta.dist_frame_index}, nullptr);
}

bool GetScoreMeta(GstBuffer* buffer, ScoreMeta* out) {
  GstCustomMeta* custom = gst_buffer_get_custom_meta(buffer, kScoreMetaName);
  if (custom == nullptr) return false;
  const GstStructure* s = gst_custom_meta_get_structure(custom);
  guint64 index = 0;
  guint64 dist_ts = 0;
  guint64 dist_index = 0;
  out->metrics = 0;
  if (gst_structure_get_double(s, kScore, &out->score)) out->metrics |= kMetricSsimulacra2;
  if (gst_structure_get_double(s, kSsim, &out->ssim) &&
      gst_structure_get_double(s, kSsimDb, &out->ssim_db)) {
    out->metrics |= kMetricSsim;
  }
  if (out->metrics == 0 || !gst_structure_get_uint64(s, kFrameIndex, &index) ||
      !gst_structure_get_uint64(s, kDistTimestamp, &dist_ts) ||
      !gst_structure_get_uint64(s, kDistFrameIndex, &dist_index)) {
    return false;
  }
  out->frame_index = index;
  out->dist_timestamp = dist_ts;
  out->dist_frame_index = dist_index;
  return true;
}

}  // namespace s2c
