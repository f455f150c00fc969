// SPDX-License-Identifier: BSD-3-Clause
// The element's bus messages, one typed struct per kind. Every message is an
// element message whose structure is named "ssimulacra2cmp" and carries a
// string field "type". Field names are spelled only in score_message.cc;
// the element builds messages and the tests read them through these structs.
// docs/element-messages.md lists every field.
#ifndef S2C_GST_SCORE_MESSAGE_H_
#define S2C_GST_SCORE_MESSAGE_H_

#include <gst/gst.h>

#include <cstdint>
#include <string>

#include "metrics.h"
#include "stats.h"

namespace s2c {

extern const char kMessageName[];  // "ssimulacra2cmp"

enum class MessageType { kUnknown, kFrame, kSummary, kThreshold, kThresholdCleared, kFeed,
                         kWindow, kCoverage, kAlignment };

// The kind of an element message, kUnknown for anything not ours.
MessageType GetMessageType(const GstStructure* s);

// The wall-clock time now in UTC, ISO 8601 to the millisecond
// ("2024-05-01T12:34:56.789Z"): the "utc" field of every message and
// results record.
std::string UtcNow();

// Which element said it and when, in every message: "label" (the element's
// label property, by default its name) and "utc" (UtcNow() when it was
// posted). The last fields of each message.
struct MessageOrigin {
  std::string label;
  std::string utc;
};

// type="frame": one per scored pair, in output order.
struct FrameMessage {
  // Which of the scores below the pair has (the element's "metrics"):
  // "score" is SSIMULACRA 2's, the "ssim*" fields SSIM's.
  unsigned metrics = kMetricSsimulacra2;
  double score = 0.0;  // exactly the backend's double
  SsimResult ssim;     // combined, combined_db and the planes
  uint64_t frame_index = 0;  // the reference frame's number (score_fanout.cc, FrameIndex)
  uint64_t segment = 0;      // 0 from start, one more after each flush
  // Of the scored reference buffer (GST_CLOCK_TIME_NONE when unknown).
  GstClockTime timestamp = GST_CLOCK_TIME_NONE;
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  // PTS of the distorted buffer it was paired with, before dist-offset.
  GstClockTime dist_timestamp = GST_CLOCK_TIME_NONE;
  // That buffer's number at dist_sink, from 0 in the segment after
  // dist-start-frame (gaps are not frames), in every align mode.
  uint64_t dist_frame_index = 0;
  // align=auto: the pair was scored while the offset was being
  // (re)established, or against its frames' own evidence (frame_aligner.h).
  bool align_flagged = false;
  MessageOrigin origin;

  GstStructure* ToStructure() const;  // (transfer full)
  static bool FromStructure(const GstStructure* s, FrameMessage* out);
};

// type="summary": at EOS (before EOS leaves the element), on flush, and as
// the "stats" property (reason "running").
struct SummaryMessage {
  // "eos", "flush" or "running"; the results file's last summary also has
  // "error" (the element posted an error) and "stop" (stopped before EOS).
  std::string reason;
  uint64_t segment = 0;  // as FrameMessage's
  // Which statistics it holds; frames-scored is the pairs scored, which
  // every metric's statistics count.
  unsigned metrics = kMetricSsimulacra2;
  ScoreSummary scores;  // SSIMULACRA 2's (unprefixed fields)
  ScoreSummary ssim;    // SSIM's combined raw value ("ssim-" fields)
  uint64_t frames_scored() const {
    return (metrics & kMetricSsimulacra2) ? scores.frames : ssim.frames;
  }
  uint64_t ref_unpaired = 0;   // reference frames passed through unscored
  uint64_t dist_unpaired = 0;  // distorted frames dropped without a partner
  uint64_t ref_late = 0;       // live: references passed on at the deadline
  uint64_t ref_skipped = 0;    // live: paired references not scored in time
  uint64_t ref_overdue = 0;    // live: paired references already past their deadline
  uint64_t ref_gaps = 0;       // GAP events on ref_sink, passed on as GAP events
  // Records of the segment that results-location could not take: its
  // frames', and in the message also its own summary's.
  uint64_t results_lost = 0;
  // With align other than off: the pairs scored flagged (FrameMessage::
  // align_flagged), the offsets decided after the segment's first, and the
  // offsets pairs were made at, "offset:pairs" in the order first seen,
  // joined by ',' ("0:25,-1:34"; "" with align=off).
  uint64_t align_flagged = 0;
  uint64_t realignments = 0;
  std::string offsets;
  // The colorimetry-mode property in effect ("reference" or "per-stream"),
  // and what the distorted stream's reading took from the reference's
  // colour description ("matrix bt601 -> bt709, ..."; "" for nothing:
  // gst/element/colour_interpretation.h).
  std::string colorimetry_mode = "reference";
  std::string colorimetry_adopted;
  MessageOrigin origin;

  GstStructure* ToStructure() const;
  static bool FromStructure(const GstStructure* s, SummaryMessage* out);
};

// type="threshold" when a score falls below the threshold, and
// type="threshold-cleared" when scores are back at or above threshold +
// hysteresis.
struct ThresholdMessage {
  bool cleared = false;
  double score = 0.0;
  double threshold = 0.0;
  uint64_t frame_index = 0;
  GstClockTime timestamp = GST_CLOCK_TIME_NONE;
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  MessageOrigin origin;

  GstStructure* ToStructure() const;
  static bool FromStructure(const GstStructure* s, ThresholdMessage* out);
};

// type="window": the summary of one summary-interval of running time.
struct WindowMessage {
  GstClockTime start = 0;  // "window-start", running time
  GstClockTime end = 0;    // "window-end", exclusive
  uint64_t ref_frames = 0;  // reference frames that left in it
  ScoreSummary scores;      // SSIMULACRA 2's scores among them
  double scored_share() const {
    return ref_frames > 0 ? static_cast<double>(scores.frames) / ref_frames : 0.0;
  }
  MessageOrigin origin;

  GstStructure* ToStructure() const;
  static bool FromStructure(const GstStructure* s, WindowMessage* out);
};

// type="feed": a sink pad has had no buffer for feed-timeout ("lost"), or
// has one again ("restored").
struct FeedMessage {
  bool distorted = false;  // "feed": "reference" or "distorted"
  bool lost = false;       // "state": "lost" or "restored"
  GstClockTime timeout = 0;  // the feed-timeout property
  MessageOrigin origin;

  GstStructure* ToStructure() const;
  static bool FromStructure(const GstStructure* s, FeedMessage* out);
};

// Why a coverage window fell short: the counter that grew the most over
// it. Its name in the message's "cause" field is in the comments.
enum class CoverageCause {
  kUnknown,       // "unknown": no counter grew
  kSizeMismatch,  // "size-mismatch": size-skipped
  kOverloaded,    // "overloaded": the rest of ref-skipped
  kHeldUp,        // "held-up": ref-overdue
  kLate,          // "late": ref-late
  kGaps,          // "gaps": dist-gaps
  kNotPairing,    // "not-pairing": ref-unpaired and dist-unpaired
};
const char* CoverageCauseName(CoverageCause cause);
// False for a name that is not one of them.
bool CoverageCauseFromName(const std::string& name, CoverageCause* out);

// type="coverage": a window (summary-interval, else 10 s of running time)
// in which less than min-coverage of the reference frames were scored, with
// the counters that say why (coverage.h).
struct CoverageMessage {
  GstClockTime start = 0;  // "window-start", running time
  GstClockTime end = 0;    // "window-end", exclusive
  uint64_t ref_frames = 0;     // reference frames that left in it
  uint64_t frames_scored = 0;  // pairs among them that were scored
  double min_coverage = 0.0;   // the property
  // How much each of the segment's counters grew over the window, and the
  // GAP events on dist_sink ("dist-gaps").
  uint64_t ref_skipped = 0;
  uint64_t ref_overdue = 0;
  uint64_t ref_unpaired = 0;
  uint64_t dist_unpaired = 0;
  uint64_t ref_late = 0;
  uint64_t dist_gaps = 0;
  // The pairs among ref_skipped that were skipped because the two frames'
  // sizes differed ("size-skipped"), and, when there were any, the last
  // such pair's sizes ("ref-width", "ref-height", "dist-width",
  // "dist-height"; absent otherwise).
  uint64_t size_skipped = 0;
  int ref_width = 0;
  int ref_height = 0;
  int dist_width = 0;
  int dist_height = 0;
  // The main reason ("cause").
  CoverageCause cause = CoverageCause::kUnknown;
  // Frames that did not pair: the distorted running time (after
  // dist-offset) minus the reference's, at the closest miss of the window
  // ("pad-offset", ns; absent when no two timed frames missed), and the
  // pairing tolerance in effect.
  bool has_pad_offset = false;
  int64_t pad_offset = 0;
  int64_t pairing_tolerance = 0;
  double scored_share() const {
    return ref_frames > 0 ? static_cast<double>(frames_scored) / ref_frames : 0.0;
  }
  MessageOrigin origin;

  GstStructure* ToStructure() const;
  static bool FromStructure(const GstStructure* s, CoverageMessage* out);
};

// type="alignment" (align=auto or index): the distorted stream's offset in
// frames was decided, changed, or could not be decided (frame_aligner.h).
struct AlignmentMessage {
  int64_t offset_frames = 0;  // distorted index minus reference index
  // The distorted running time minus the reference's at the first pair of
  // that offset, or offset_frames reference frame periods where that pair
  // is not known (its frames are gone, or untimed).
  int64_t offset_ns = 0;
  double confidence = 0.0;  // 0..1
  std::string reason;  // start, drift, dropped-frame, repeated-frame, feed-restored, undecided
  bool decided = false;
  // The first reference frame it applies to: its number at ref_sink, from
  // 0 in the segment after ref-start-frame.
  uint64_t frame_index = 0;
  MessageOrigin origin;

  GstStructure* ToStructure() const;
  static bool FromStructure(const GstStructure* s, AlignmentMessage* out);
};

}  // namespace s2c

#endif  // S2C_GST_SCORE_MESSAGE_H_
