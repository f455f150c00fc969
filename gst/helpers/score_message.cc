// SPDX-License-Identifier: BSD-3-Clause
#include "score_message.h"

#include <cstdio>
#include <cstring>

namespace s2c {

const char kMessageName[] = "ssimulacra2cmp";

namespace {

constexpr char kType[] = "type";
constexpr char kTypeFrame[] = "frame";
constexpr char kTypeSummary[] = "summary";
constexpr char kTypeThreshold[] = "threshold";
constexpr char kTypeThresholdCleared[] = "threshold-cleared";
constexpr char kTypeFeed[] = "feed";
constexpr char kTypeWindow[] = "window";
constexpr char kTypeCoverage[] = "coverage";
constexpr char kTypeAlignment[] = "alignment";

constexpr char kScore[] = "score";
constexpr char kFrameIndex[] = "frame-index";
constexpr char kTimestamp[] = "timestamp";
constexpr char kStreamTime[] = "stream-time";
constexpr char kRunningTime[] = "running-time";
constexpr char kDuration[] = "duration";
constexpr char kDistTimestamp[] = "dist-timestamp";
constexpr char kDistFrameIndex[] = "dist-frame-index";
constexpr char kAlignFlagged[] = "align-flagged";
constexpr char kSegment[] = "segment";

constexpr char kReason[] = "reason";
constexpr char kFramesScored[] = "frames-scored";
constexpr char kRefUnpaired[] = "ref-unpaired";
constexpr char kDistUnpaired[] = "dist-unpaired";
constexpr char kRefLate[] = "ref-late";
constexpr char kRefSkipped[] = "ref-skipped";
constexpr char kRefOverdue[] = "ref-overdue";
constexpr char kRefGaps[] = "ref-gaps";
constexpr char kResultsLost[] = "results-lost";
constexpr char kRealignments[] = "realignments";
constexpr char kOffsets[] = "offsets";
constexpr char kColorimetryMode[] = "colorimetry-mode";
constexpr char kColorimetryAdopted[] = "colorimetry-adopted";
constexpr char kMean[] = "mean";
constexpr char kMin[] = "min";
constexpr char kMax[] = "max";
constexpr char kHarmonicMean[] = "harmonic-mean";
constexpr char kPercentileFrames[] = "percentile-frames";
constexpr char kP1[] = "p1";
constexpr char kP5[] = "p5";
constexpr char kP10[] = "p10";
constexpr char kP25[] = "p25";
constexpr char kMedian[] = "median";
constexpr char kP75[] = "p75";
constexpr char kP95[] = "p95";
constexpr char kStddev[] = "stddev";

constexpr char kThreshold[] = "threshold";

constexpr char kFeed[] = "feed";
constexpr char kFeedReference[] = "reference";
constexpr char kFeedDistorted[] = "distorted";
constexpr char kState[] = "state";
constexpr char kStateLost[] = "lost";
constexpr char kStateRestored[] = "restored";
constexpr char kTimeout[] = "timeout";

constexpr char kWindowStart[] = "window-start";
constexpr char kWindowEnd[] = "window-end";
constexpr char kRefFrames[] = "ref-frames";
constexpr char kScoredShare[] = "scored-share";

constexpr char kMinCoverage[] = "min-coverage";
constexpr char kDistGaps[] = "dist-gaps";
constexpr char kCause[] = "cause";
constexpr char kPadOffset[] = "pad-offset";
constexpr char kPairingTolerance[] = "pairing-tolerance";
constexpr char kSizeSkipped[] = "size-skipped";
constexpr char kRefWidth[] = "ref-width";
constexpr char kRefHeight[] = "ref-height";
constexpr char kDistWidth[] = "dist-width";
constexpr char kDistHeight[] = "dist-height";

constexpr char kOffsetFrames[] = "offset-frames";
constexpr char kOffsetNs[] = "offset-ns";
constexpr char kConfidence[] = "confidence";
constexpr char kDecided[] = "decided";

constexpr char kLabel[] = "label";
constexpr char kUtc[] = "utc";

// SSIM (metrics with ssim): the frame's values, and the summary's statistics
// under the same names as SSIMULACRA 2's with this prefix.
constexpr char kSsim[] = "ssim";
constexpr char kSsimDb[] = "ssim-db";
constexpr char kSsimPlane[3][8] = {"ssim-y", "ssim-cb", "ssim-cr"};
constexpr char kSsimPrefix[] = "ssim-";

GstStructure* NewMessageStructure(const char* type) {
  return gst_structure_new(kMessageName, kType, G_TYPE_STRING, type, nullptr);
}

bool HasType(const GstStructure* s, const char* type) {
  if (!gst_structure_has_name(s, kMessageName)) return false;
  const char* t = gst_structure_get_string(s, kType);
  return t != nullptr && std::strcmp(t, type) == 0;
}

bool GetU64(const GstStructure* s, const char* field, uint64_t* out) {
  guint64 v = 0;
  if (!gst_structure_get_uint64(s, field, &v)) return false;
  *out = v;
  return true;
}

bool GetString(const GstStructure* s, const char* field, std::string* out) {
  const char* v = gst_structure_get_string(s, field);
  if (v == nullptr) return false;
  *out = v;
  return true;
}

// The origin goes last, after every field a reader may read by position.
void SetOrigin(GstStructure* s, const MessageOrigin& origin) {
  gst_structure_set(s, kLabel, G_TYPE_STRING, origin.label.c_str(), kUtc, G_TYPE_STRING,
                    origin.utc.c_str(), nullptr);
}

bool GetOrigin(const GstStructure* s, MessageOrigin* origin) {
  return GetString(s, kLabel, &origin->label) && GetString(s, kUtc, &origin->utc);
}

}  // namespace

std::string UtcNow() {
  GDateTime* now = g_date_time_new_now_utc();
  gchar* seconds = g_date_time_format(now, "%Y-%m-%dT%H:%M:%S");
  char text[64];
  std::snprintf(text, sizeof(text), "%s.%03dZ", seconds, g_date_time_get_microsecond(now) / 1000);
  g_free(seconds);
  g_date_time_unref(now);
  return text;
}

MessageType GetMessageType(const GstStructure* s) {
  if (s == nullptr) return MessageType::kUnknown;
  if (HasType(s, kTypeFrame)) return MessageType::kFrame;
  if (HasType(s, kTypeSummary)) return MessageType::kSummary;
  if (HasType(s, kTypeThreshold)) return MessageType::kThreshold;
  if (HasType(s, kTypeThresholdCleared)) return MessageType::kThresholdCleared;
  if (HasType(s, kTypeFeed)) return MessageType::kFeed;
  if (HasType(s, kTypeWindow)) return MessageType::kWindow;
  if (HasType(s, kTypeCoverage)) return MessageType::kCoverage;
  if (HasType(s, kTypeAlignment)) return MessageType::kAlignment;
  return MessageType::kUnknown;
}

GstStructure* FrameMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeFrame);
  if (metrics & kMetricSsimulacra2) gst_structure_set(s, kScore, G_TYPE_DOUBLE, score, nullptr);
  if (metrics & kMetricSsim) {
    gst_structure_set(s, kSsim, G_TYPE_DOUBLE, ssim.combined, kSsimDb, G_TYPE_DOUBLE,
                      ssim.combined_db, nullptr);
    for (int k = 0; k < 3; ++k) {
      gst_structure_set(s, kSsimPlane[k], G_TYPE_DOUBLE, ssim.plane[k], nullptr);
    }
  }
  gst_structure_set(s, kFrameIndex, G_TYPE_UINT64, guint64{frame_index},
                    kSegment, G_TYPE_UINT64, guint64{segment},
                    kTimestamp, G_TYPE_UINT64, guint64{timestamp},
                    kStreamTime, G_TYPE_UINT64, guint64{stream_time},
                    kRunningTime, G_TYPE_UINT64, guint64{running_time},
                    kDuration, G_TYPE_UINT64, guint64{duration},
                    kDistTimestamp, G_TYPE_UINT64, guint64{dist_timestamp},
                    kDistFrameIndex, G_TYPE_UINT64, guint64{dist_frame_index},
                    kAlignFlagged, G_TYPE_BOOLEAN, gboolean{align_flagged},
                    nullptr);
  SetOrigin(s, origin);
  return s;
}

bool FrameMessage::FromStructure(const GstStructure* s, FrameMessage* out) {
  if (!HasType(s, kTypeFrame)) return false;
  out->metrics = 0;
  if (gst_structure_has_field(s, kScore)) {
    if (!gst_structure_get_double(s, kScore, &out->score)) return false;
    out->metrics |= kMetricSsimulacra2;
  }
  if (gst_structure_has_field(s, kSsim)) {
    if (!gst_structure_get_double(s, kSsim, &out->ssim.combined) ||
        !gst_structure_get_double(s, kSsimDb, &out->ssim.combined_db)) {
      return false;
    }
    for (int k = 0; k < 3; ++k) {
      if (!gst_structure_get_double(s, kSsimPlane[k], &out->ssim.plane[k])) return false;
    }
    out->metrics |= kMetricSsim;
  }
  gboolean flagged = FALSE;
  if (!gst_structure_get_boolean(s, kAlignFlagged, &flagged)) return false;
  out->align_flagged = flagged;
  return out->metrics != 0 &&
         GetU64(s, kFrameIndex, &out->frame_index) &&
         GetU64(s, kSegment, &out->segment) &&
         GetU64(s, kTimestamp, &out->timestamp) &&
         GetU64(s, kStreamTime, &out->stream_time) &&
         GetU64(s, kRunningTime, &out->running_time) &&
         GetU64(s, kDuration, &out->duration) &&
         GetU64(s, kDistTimestamp, &out->dist_timestamp) &&
         GetU64(s, kDistFrameIndex, &out->dist_frame_index) && GetOrigin(s, &out->origin);
}

namespace {

// A summary's statistics fields, under `prefix` ("" for SSIMULACRA 2's).
struct StatField {
  const char* name;
  double ScoreSummary::*value;
};
constexpr StatField kStatFields[] = {
    {kMean, &ScoreSummary::mean},     {kMin, &ScoreSummary::min},
    {kMax, &ScoreSummary::max},       {kHarmonicMean, &ScoreSummary::harmonic_mean},
    {kP1, &ScoreSummary::p1},         {kP5, &ScoreSummary::p5},
    {kP10, &ScoreSummary::p10},       {kP25, &ScoreSummary::p25},
    {kMedian, &ScoreSummary::median}, {kP75, &ScoreSummary::p75},
    {kP95, &ScoreSummary::p95},       {kStddev, &ScoreSummary::stddev}};

void SetStats(GstStructure* s, const std::string& prefix, const ScoreSummary& v) {
  gst_structure_set(s, (prefix + kPercentileFrames).c_str(), G_TYPE_UINT64,
                    guint64{v.percentile_frames}, nullptr);
  for (const StatField& f : kStatFields) {
    gst_structure_set(s, (prefix + f.name).c_str(), G_TYPE_DOUBLE, v.*f.value, nullptr);
  }
}

bool GetStats(const GstStructure* s, const std::string& prefix, ScoreSummary* v) {
  if (!GetU64(s, (prefix + kPercentileFrames).c_str(), &v->percentile_frames)) return false;
  for (const StatField& f : kStatFields) {
    if (!gst_structure_get_double(s, (prefix + f.name).c_str(), &(v->*f.value))) return false;
  }
  return true;
}

}  // namespace

GstStructure* SummaryMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeSummary);
  gst_structure_set(s, kReason, G_TYPE_STRING, reason.c_str(),
                    kFramesScored, G_TYPE_UINT64, guint64{frames_scored()},
                    kRefUnpaired, G_TYPE_UINT64, guint64{ref_unpaired},
                    kDistUnpaired, G_TYPE_UINT64, guint64{dist_unpaired},
                    kRefLate, G_TYPE_UINT64, guint64{ref_late},
                    kRefSkipped, G_TYPE_UINT64, guint64{ref_skipped},
                    kRefOverdue, G_TYPE_UINT64, guint64{ref_overdue},
                    kRefGaps, G_TYPE_UINT64, guint64{ref_gaps},
                    kResultsLost, G_TYPE_UINT64, guint64{results_lost},
                    kAlignFlagged, G_TYPE_UINT64, guint64{align_flagged},
                    kRealignments, G_TYPE_UINT64, guint64{realignments},
                    kOffsets, G_TYPE_STRING, offsets.c_str(), nullptr);
  if (metrics & kMetricSsimulacra2) SetStats(s, "", scores);
  if (metrics & kMetricSsim) SetStats(s, kSsimPrefix, ssim);
  gst_structure_set(s, kColorimetryMode, G_TYPE_STRING, colorimetry_mode.c_str(),
                    kColorimetryAdopted, G_TYPE_STRING, colorimetry_adopted.c_str(), nullptr);
  // Last: a reader that prints every field in order (the CLI's summary
  // line) keeps its columns.
  gst_structure_set(s, kSegment, G_TYPE_UINT64, guint64{segment}, nullptr);
  SetOrigin(s, origin);
  return s;
}

bool SummaryMessage::FromStructure(const GstStructure* s,
                                   SummaryMessage* out) {
  if (!HasType(s, kTypeSummary)) return false;
  const char* reason = gst_structure_get_string(s, kReason);
  const char* mode = gst_structure_get_string(s, kColorimetryMode);
  const char* adopted = gst_structure_get_string(s, kColorimetryAdopted);
  const char* offsets = gst_structure_get_string(s, kOffsets);
  if (reason == nullptr || mode == nullptr || adopted == nullptr || offsets == nullptr) {
    return false;
  }
  out->reason = reason;
  out->offsets = offsets;
  out->colorimetry_mode = mode;
  out->colorimetry_adopted = adopted;
  uint64_t frames = 0;
  if (!GetU64(s, kSegment, &out->segment) ||
      !GetU64(s, kFramesScored, &frames) ||
      !GetU64(s, kRefUnpaired, &out->ref_unpaired) ||
      !GetU64(s, kDistUnpaired, &out->dist_unpaired) ||
      !GetU64(s, kRefLate, &out->ref_late) ||
      !GetU64(s, kRefSkipped, &out->ref_skipped) ||
      !GetU64(s, kRefOverdue, &out->ref_overdue) ||
      !GetU64(s, kRefGaps, &out->ref_gaps) ||
      !GetU64(s, kResultsLost, &out->results_lost) ||
      !GetU64(s, kAlignFlagged, &out->align_flagged) ||
      !GetU64(s, kRealignments, &out->realignments) || !GetOrigin(s, &out->origin)) {
    return false;
  }
  out->metrics = 0;
  if (gst_structure_has_field(s, kMean)) {
    if (!GetStats(s, "", &out->scores)) return false;
    out->metrics |= kMetricSsimulacra2;
  }
  if (gst_structure_has_field(s, (std::string(kSsimPrefix) + kMean).c_str())) {
    if (!GetStats(s, kSsimPrefix, &out->ssim)) return false;
    out->metrics |= kMetricSsim;
  }
  out->scores.frames = (out->metrics & kMetricSsimulacra2) ? frames : 0;
  out->ssim.frames = (out->metrics & kMetricSsim) ? frames : 0;
  return out->metrics != 0;
}

GstStructure* ThresholdMessage::ToStructure() const {
  GstStructure* s =
      NewMessageStructure(cleared ? kTypeThresholdCleared : kTypeThreshold);
  gst_structure_set(s, kScore, G_TYPE_DOUBLE, score,
                    kThreshold, G_TYPE_DOUBLE, threshold,
                    kFrameIndex, G_TYPE_UINT64, guint64{frame_index},
                    kTimestamp, G_TYPE_UINT64, guint64{timestamp},
                    kRunningTime, G_TYPE_UINT64, guint64{running_time},
                    nullptr);
  SetOrigin(s, origin);
  return s;
}

bool ThresholdMessage::FromStructure(const GstStructure* s,
                                     ThresholdMessage* out) {
  const MessageType type = GetMessageType(s);
  if (type != MessageType::kThreshold &&
      type != MessageType::kThresholdCleared) {
    return false;
  }
  out->cleared = type == MessageType::kThresholdCleared;
  return gst_structure_get_double(s, kScore, &out->score) &&
         gst_structure_get_double(s, kThreshold, &out->threshold) &&
         GetU64(s, kFrameIndex, &out->frame_index) &&
         GetU64(s, kTimestamp, &out->timestamp) &&
         GetU64(s, kRunningTime, &out->running_time) && GetOrigin(s, &out->origin);
}

GstStructure* FeedMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeFeed);
  gst_structure_set(s, kFeed, G_TYPE_STRING, distorted ? kFeedDistorted : kFeedReference,
                    kState, G_TYPE_STRING, lost ? kStateLost : kStateRestored,
                    kTimeout, G_TYPE_UINT64, guint64{timeout}, nullptr);
  SetOrigin(s, origin);
  return s;
}

bool FeedMessage::FromStructure(const GstStructure* s, FeedMessage* out) {
  if (!HasType(s, kTypeFeed)) return false;
  const char* feed = gst_structure_get_string(s, kFeed);
  const char* state = gst_structure_get_string(s, kState);
  if (feed == nullptr || state == nullptr) return false;
  const bool distorted = std::strcmp(feed, kFeedDistorted) == 0;
  const bool lost = std::strcmp(state, kStateLost) == 0;
  if ((!distorted && std::strcmp(feed, kFeedReference) != 0) ||
      (!lost && std::strcmp(state, kStateRestored) != 0)) {
    return false;
  }
  out->distorted = distorted;
  out->lost = lost;
  return GetU64(s, kTimeout, &out->timeout) && GetOrigin(s, &out->origin);
}

GstStructure* WindowMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeWindow);
  gst_structure_set(s, kWindowStart, G_TYPE_UINT64, guint64{start},
                    kWindowEnd, G_TYPE_UINT64, guint64{end},
                    kRefFrames, G_TYPE_UINT64, guint64{ref_frames},
                    kFramesScored, G_TYPE_UINT64, guint64{scores.frames},
                    kScoredShare, G_TYPE_DOUBLE, scored_share(),
                    kMean, G_TYPE_DOUBLE, scores.mean,
                    kMin, G_TYPE_DOUBLE, scores.min,
                    kMax, G_TYPE_DOUBLE, scores.max,
                    kP5, G_TYPE_DOUBLE, scores.p5, nullptr);
  SetOrigin(s, origin);
  return s;
}

bool WindowMessage::FromStructure(const GstStructure* s, WindowMessage* out) {
  double share = 0.0;
  return HasType(s, kTypeWindow) && GetU64(s, kWindowStart, &out->start) &&
         GetU64(s, kWindowEnd, &out->end) && GetU64(s, kRefFrames, &out->ref_frames) &&
         GetU64(s, kFramesScored, &out->scores.frames) &&
         gst_structure_get_double(s, kScoredShare, &share) &&
         gst_structure_get_double(s, kMean, &out->scores.mean) &&
         gst_structure_get_double(s, kMin, &out->scores.min) &&
         gst_structure_get_double(s, kMax, &out->scores.max) &&
         gst_structure_get_double(s, kP5, &out->scores.p5) && GetOrigin(s, &out->origin);
}

namespace {

constexpr struct {
  CoverageCause cause;
  const char* name;
} kCoverageCauses[] = {
    {CoverageCause::kUnknown, "unknown"},     {CoverageCause::kSizeMismatch, "size-mismatch"},
    {CoverageCause::kOverloaded, "overloaded"}, {CoverageCause::kHeldUp, "held-up"},
    {CoverageCause::kLate, "late"},           {CoverageCause::kGaps, "gaps"},
    {CoverageCause::kNotPairing, "not-pairing"},
};

}  // namespace

const char* CoverageCauseName(CoverageCause cause) {
  for (const auto& c : kCoverageCauses) {
    if (c.cause == cause) return c.name;
  }
  return "unknown";
}

bool CoverageCauseFromName(const std::string& name, CoverageCause* out) {
  for (const auto& c : kCoverageCauses) {
    if (name == c.name) {
      *out = c.cause;
      return true;
    }
  }
  return false;
}

GstStructure* CoverageMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeCoverage);
  gst_structure_set(s, kWindowStart, G_TYPE_UINT64, guint64{start},
                    kWindowEnd, G_TYPE_UINT64, guint64{end},
                    kRefFrames, G_TYPE_UINT64, guint64{ref_frames},
                    kFramesScored, G_TYPE_UINT64, guint64{frames_scored},
                    kScoredShare, G_TYPE_DOUBLE, scored_share(),
                    kMinCoverage, G_TYPE_DOUBLE, min_coverage,
                    kCause, G_TYPE_STRING, CoverageCauseName(cause),
                    kRefSkipped, G_TYPE_UINT64, guint64{ref_skipped},
                    kRefOverdue, G_TYPE_UINT64, guint64{ref_overdue},
                    kRefUnpaired, G_TYPE_UINT64, guint64{ref_unpaired},
                    kDistUnpaired, G_TYPE_UINT64, guint64{dist_unpaired},
                    kRefLate, G_TYPE_UINT64, guint64{ref_late},
                    kDistGaps, G_TYPE_UINT64, guint64{dist_gaps},
                    kSizeSkipped, G_TYPE_UINT64, guint64{size_skipped},
                    kPairingTolerance, G_TYPE_INT64, gint64{pairing_tolerance}, nullptr);
  if (has_pad_offset) gst_structure_set(s, kPadOffset, G_TYPE_INT64, gint64{pad_offset}, nullptr);
  if (size_skipped > 0) {
    gst_structure_set(s, kRefWidth, G_TYPE_INT, ref_width, kRefHeight, G_TYPE_INT, ref_height,
                      kDistWidth, G_TYPE_INT, dist_width, kDistHeight, G_TYPE_INT, dist_height,
                      nullptr);
  }
  SetOrigin(s, origin);
  return s;
}

bool CoverageMessage::FromStructure(const GstStructure* s, CoverageMessage* out) {
  double share = 0.0;
  gint64 tolerance = 0;
  gint64 offset = 0;
  std::string cause;
  if (!HasType(s, kTypeCoverage)) return false;
  out->has_pad_offset = gst_structure_get_int64(s, kPadOffset, &offset);
  out->pad_offset = offset;
  const bool ok =
      GetU64(s, kWindowStart, &out->start) && GetU64(s, kWindowEnd, &out->end) &&
      GetU64(s, kRefFrames, &out->ref_frames) && GetU64(s, kFramesScored, &out->frames_scored) &&
      gst_structure_get_double(s, kScoredShare, &share) &&
      gst_structure_get_double(s, kMinCoverage, &out->min_coverage) &&
      GetString(s, kCause, &cause) && CoverageCauseFromName(cause, &out->cause) &&
      GetU64(s, kRefSkipped, &out->ref_skipped) &&
      GetU64(s, kRefOverdue, &out->ref_overdue) &&
      GetU64(s, kRefUnpaired, &out->ref_unpaired) &&
      GetU64(s, kDistUnpaired, &out->dist_unpaired) && GetU64(s, kRefLate, &out->ref_late) &&
      GetU64(s, kDistGaps, &out->dist_gaps) && GetU64(s, kSizeSkipped, &out->size_skipped) &&
      gst_structure_get_int64(s, kPairingTolerance, &tolerance) && GetOrigin(s, &out->origin);
  out->pairing_tolerance = tolerance;
  if (out->size_skipped > 0) {
    return ok && gst_structure_get_int(s, kRefWidth, &out->ref_width) &&
           gst_structure_get_int(s, kRefHeight, &out->ref_height) &&
           gst_structure_get_int(s, kDistWidth, &out->dist_width) &&
           gst_structure_get_int(s, kDistHeight, &out->dist_height);
  }
  return ok;
}

GstStructure* AlignmentMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeAlignment);
  gst_structure_set(s, kOffsetFrames, G_TYPE_INT64, gint64{offset_frames},
                    kOffsetNs, G_TYPE_INT64, gint64{offset_ns},
                    kConfidence, G_TYPE_DOUBLE, confidence,
                    kReason, G_TYPE_STRING, reason.c_str(),
                    kDecided, G_TYPE_BOOLEAN, gboolean{decided},
                    kFrameIndex, G_TYPE_UINT64, guint64{frame_index}, nullptr);
  SetOrigin(s, origin);
  return s;
}

bool AlignmentMessage::FromStructure(const GstStructure* s, AlignmentMessage* out) {
  gint64 frames = 0;
  gint64 ns = 0;
  gboolean decided = FALSE;
  if (!HasType(s, kTypeAlignment) || !gst_structure_get_int64(s, kOffsetFrames, &frames) ||
      !gst_structure_get_int64(s, kOffsetNs, &ns) ||
      !gst_structure_get_double(s, kConfidence, &out->confidence) ||
      !GetString(s, kReason, &out->reason) || !gst_structure_get_boolean(s, kDecided, &decided) ||
      !GetU64(s, kFrameIndex, &out->frame_index) || !GetOrigin(s, &out->origin)) {
    return false;
  }
  out->offset_frames = frames;
  out->offset_ns = ns;
  out->decided = decided;
  return true;
}

}  // namespace s2c
