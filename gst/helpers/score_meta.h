// SPDX-License-Identifier: BSD-3-Clause
// The score attached to each scored reference buffer: a GstCustomMeta named
// "Ssimulacra2CmpMeta" whose GstStructure holds score (gdouble, SSIMULACRA
// 2), ssim and ssim-db (gdouble, with SSIM on), frame-index (guint64),
// dist-timestamp (guint64, GstClockTime) and dist-frame-index (guint64). It has no tags, so
// videoconvert, tee and queue keep it; applications read it with
// gst_buffer_get_custom_meta() and gst_custom_meta_get_structure() from C or
// Python, or with the installed C header ssimulacra2cmp-meta.h, which also
// holds the names. These helpers are the plugin's typed view.
#ifndef S2C_GST_SCORE_META_H_
#define S2C_GST_SCORE_META_H_

#include <gst/gst.h>

#include <cstdint>

#include "metrics.h"

namespace s2c {

extern const char kScoreMetaName[];  // "Ssimulacra2CmpMeta"

struct ScoreMeta {
  unsigned metrics = kMetricSsimulacra2;  // which of the scores it holds
  double score = 0.0;    // SSIMULACRA 2
  double ssim = 0.0;     // SSIM, combined, raw
  double ssim_db = 0.0;  // and in dB
  uint64_t frame_index = 0;
  GstClockTime dist_timestamp = GST_CLOCK_TIME_NONE;
  uint64_t dist_frame_index = 0;
};

// Registers the meta once per process; safe to call again.
void RegisterScoreMeta();

// Adds (or updates) the meta on a writable buffer.
void AddScoreMeta(GstBuffer* buffer, const ScoreMeta& meta);

// False when the buffer carries no such meta (or a malformed one).
bool GetScoreMeta(GstBuffer* buffer, ScoreMeta* out);

}  // namespace s2c

#endif  // S2C_GST_SCORE_META_H_
