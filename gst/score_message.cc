// SPDX-License-Identifier: BSD-3-Clause
#include "score_message.h"

#include <cstring>

namespace s2c {

const char kMessageName[] = "ssimulacra2cmp";

namespace {

constexpr char kType[] = "type";
constexpr char kTypeFrame[] = "frame";
constexpr char kTypeSummary[] = "summary";
constexpr char kTypeThreshold[] = "threshold";
constexpr char kTypeThresholdCleared[] = "threshold-cleared";

constexpr char kScore[] = "score";
constexpr char kFrameIndex[] = "frame-index";
constexpr char kTimestamp[] = "timestamp";
constexpr char kStreamTime[] = "stream-time";
constexpr char kRunningTime[] = "running-time";
constexpr char kDuration[] = "duration";
constexpr char kDistTimestamp[] = "dist-timestamp";

constexpr char kReason[] = "reason";
constexpr char kFramesScored[] = "frames-scored";
constexpr char kRefUnpaired[] = "ref-unpaired";
constexpr char kDistUnpaired[] = "dist-unpaired";
constexpr char kRefLate[] = "ref-late";
constexpr char kRefSkipped[] = "ref-skipped";
constexpr char kRefGaps[] = "ref-gaps";
constexpr char kResultsLost[] = "results-lost";
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

}  // namespace

MessageType GetMessageType(const GstStructure* s) {
  if (s == nullptr) return MessageType::kUnknown;
  if (HasType(s, kTypeFrame)) return MessageType::kFrame;
  if (HasType(s, kTypeSummary)) return MessageType::kSummary;
  if (HasType(s, kTypeThreshold)) return MessageType::kThreshold;
  if (HasType(s, kTypeThresholdCleared)) return MessageType::kThresholdCleared;
  return MessageType::kUnknown;
}

GstStructure* FrameMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeFrame);
  gst_structure_set(s, kScore, G_TYPE_DOUBLE, score,
                    kFrameIndex, G_TYPE_UINT64, guint64{frame_index},
                    kTimestamp, G_TYPE_UINT64, guint64{timestamp},
                    kStreamTime, G_TYPE_UINT64, guint64{stream_time},
                    kRunningTime, G_TYPE_UINT64, guint64{running_time},
                    kDuration, G_TYPE_UINT64, guint64{duration},
                    kDistTimestamp, G_TYPE_UINT64, guint64{dist_timestamp},
                    nullptr);
  return s;
}

bool FrameMessage::FromStructure(const GstStructure* s, FrameMessage* out) {
  return HasType(s, kTypeFrame) &&
         gst_structure_get_double(s, kScore, &out->score) &&
         GetU64(s, kFrameIndex, &out->frame_index) &&
         GetU64(s, kTimestamp, &out->timestamp) &&
         GetU64(s, kStreamTime, &out->stream_time) &&
         GetU64(s, kRunningTime, &out->running_time) &&
         GetU64(s, kDuration, &out->duration) &&
         GetU64(s, kDistTimestamp, &out->dist_timestamp);
}

GstStructure* SummaryMessage::ToStructure() const {
  GstStructure* s = NewMessageStructure(kTypeSummary);
  gst_structure_set(s, kReason, G_TYPE_STRING, reason.c_str(),
                    kFramesScored, G_TYPE_UINT64, guint64{scores.frames},
                    kRefUnpaired, G_TYPE_UINT64, guint64{ref_unpaired},
                    kDistUnpaired, G_TYPE_UINT64, guint64{dist_unpaired},
                    kRefLate, G_TYPE_UINT64, guint64{ref_late},
                    kRefSkipped, G_TYPE_UINT64, guint64{ref_skipped},
                    kRefGaps, G_TYPE_UINT64, guint64{ref_gaps},
                    kResultsLost, G_TYPE_UINT64, guint64{results_lost},
                    kMean, G_TYPE_DOUBLE, scores.mean,
                    kMin, G_TYPE_DOUBLE, scores.min,
                    kMax, G_TYPE_DOUBLE, scores.max,
                    kHarmonicMean, G_TYPE_DOUBLE, scores.harmonic_mean,
                    kPercentileFrames, G_TYPE_UINT64, guint64{scores.percentile_frames},
                    kP1, G_TYPE_DOUBLE, scores.p1,
                    kP5, G_TYPE_DOUBLE, scores.p5,
                    kP10, G_TYPE_DOUBLE, scores.p10,
                    kP25, G_TYPE_DOUBLE, scores.p25,
                    kMedian, G_TYPE_DOUBLE, scores.median,
                    kP75, G_TYPE_DOUBLE, scores.p75,
                    kP95, G_TYPE_DOUBLE, scores.p95,
                    kStddev, G_TYPE_DOUBLE, scores.stddev, nullptr);
  return s;
}

bool SummaryMessage::FromStructure(const GstStructure* s,
                                   SummaryMessage* out) {
  if (!HasType(s, kTypeSummary)) return false;
  const char* reason = gst_structure_get_string(s, kReason);
  if (reason == nullptr) return false;
  out->reason = reason;
  ScoreSummary& v = out->scores;
  return GetU64(s, kFramesScored, &v.frames) &&
         GetU64(s, kRefUnpaired, &out->ref_unpaired) &&
         GetU64(s, kDistUnpaired, &out->dist_unpaired) &&
         GetU64(s, kRefLate, &out->ref_late) &&
         GetU64(s, kRefSkipped, &out->ref_skipped) &&
         GetU64(s, kRefGaps, &out->ref_gaps) &&
         GetU64(s, kResultsLost, &out->results_lost) &&
         gst_structure_get_double(s, kMean, &v.mean) &&
         gst_structure_get_double(s, kMin, &v.min) &&
         gst_structure_get_double(s, kMax, &v.max) &&
         gst_structure_get_double(s, kHarmonicMean, &v.harmonic_mean) &&
         GetU64(s, kPercentileFrames, &v.percentile_frames) &&
         gst_structure_get_double(s, kP1, &v.p1) &&
         gst_structure_get_double(s, kP5, &v.p5) &&
         gst_structure_get_double(s, kP10, &v.p10) &&
         gst_structure_get_double(s, kP25, &v.p25) &&
         gst_structure_get_double(s, kMedian, &v.median) &&
         gst_structure_get_double(s, kP75, &v.p75) &&
         gst_structure_get_double(s, kP95, &v.p95) &&
         gst_structure_get_double(s, kStddev, &v.stddev);
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
         GetU64(s, kRunningTime, &out->running_time);
}

}  // namespace s2c
