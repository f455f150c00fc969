// SPDX-License-Identifier: BSD-3-Clause
// Coverage (min-coverage): the share of reference frames scored, over
// windows of running time. A window in which less than min-coverage were
// scored is reported with why, from how much the segment's counters grew
// over it: references skipped (the backend did not keep up, or the two
// streams' frame sizes differ), references already past their deadline
// when paired (the streaming thread was held up), frames that did not pair
// (with the closest offset between the pads seen), references passed on
// before their partner came, gaps in the distorted feed. Pure logic, fed in
// output order (score_fanout.cc) and by the pairing decisions
// (frame_flow.cc).
#ifndef S2C_GST_COVERAGE_H_
#define S2C_GST_COVERAGE_H_

#include <gst/gst.h>

#include <cstdint>
#include <string>

#include "score_message.h"
#include "window_summary.h"

namespace s2c {

// The segment's counters (Results) that explain unscored references.
struct LossCounts {
  uint64_t ref_skipped = 0;
  uint64_t ref_overdue = 0;
  uint64_t ref_unpaired = 0;
  uint64_t dist_unpaired = 0;
  uint64_t ref_late = 0;
};

class CoverageWatch {
 public:
  // Two timed frames did not pair: the distorted one's running time minus
  // the reference's.
  void NoteMiss(int64_t dist_minus_ref);
  // A GAP event on dist_sink.
  void NoteDistGap() { ++dist_gaps_; }
  // A pair skipped because the reference is `ref_width`x`ref_height` and
  // the distorted frame `dist_width`x`dist_height` (it counts in
  // ref-skipped too).
  void NoteSizesDiffer(int ref_width, int ref_height, int dist_width, int dist_height);

  // A reference frame left (gaps aside) at `running_time` (NONE: not
  // counted), scored or not; `counts` are the segment's counters now. With
  // min_coverage <= 0 nothing is counted. True when the frame closed a
  // window of `interval` in which less than `min_coverage` of the frames
  // were scored: `closed` then describes it (origin and pairing tolerance
  // left to the caller).
  bool Add(GstClockTime interval, double min_coverage, GstClockTime running_time, bool scored,
           const LossCounts& counts, CoverageMessage* closed);

  // A new segment: its counters start from zero.
  void Reset() { *this = CoverageWatch(); }

 private:
  TimeWindows windows_;
  uint64_t ref_frames_ = 0;
  uint64_t scored_ = 0;
  uint64_t dist_gaps_ = 0;
  uint64_t size_skipped_ = 0;
  int sizes_[4] = {0, 0, 0, 0};  // the last pair of two sizes: reference's, distorted's
  LossCounts at_start_;  // the counters when the window began
  bool has_miss_ = false;
  int64_t closest_miss_ = 0;
};

// The warning's text for a window that fell short: how many were scored,
// the cause and what to do about it.
std::string ExplainCoverage(const CoverageMessage& m);

}  // namespace s2c

#endif  // S2C_GST_COVERAGE_H_
