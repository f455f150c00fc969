// SPDX-License-Identifier: BSD-3-Clause
// The element's results file (results-location): opened at start, a record
// for each scored frame, a summary where each segment ends, the last one
// saying how the run ended; and what a record that the file cannot take
// does (results-write-failure).
#ifndef S2C_GST_RESULTS_OUTPUT_H_
#define S2C_GST_RESULTS_OUTPUT_H_

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "colour_interpretation.h"
#include "element_settings.h"
#include "gstssimulacra2cmp.h"
#include "metrics.h"
#include "results_writer.h"
#include "score_message.h"
#include "stats.h"

namespace s2c {

// Per-segment results, read by the application through properties.
struct Results {
  uint64_t segment = 0;      // 0 from start, one more after each flush
  gint64 started_us = 0;     // g_get_monotonic_time() when it began, for fps
  ScoreStats stats;       // SSIMULACRA 2's scores
  ScoreStats ssim_stats;  // SSIM's combined raw values
  uint64_t ref_unpaired = 0;
  uint64_t dist_unpaired = 0;
  uint64_t ref_late = 0;
  uint64_t ref_skipped = 0;
  uint64_t ref_overdue = 0;
  uint64_t ref_gaps = 0;
  uint64_t results_lost = 0;
  uint64_t align_flagged = 0;  // pairs scored flagged (FrameMessage::align_flagged)
  uint64_t realignments = 0;   // decided alignments after the segment's first
  // Pairs made at each offset (frames), in the order the offsets were first
  // seen (SummaryMessage::offsets).
  std::vector<std::pair<int64_t, uint64_t>> offsets;
  double last_score = std::numeric_limits<double>::quiet_NaN();
};

// The results: the segment's counters and statistics, which the element's
// files add to and the application reads through properties, what the
// summaries say of the run, and the results file.
struct ResultsOutputState {
  ResultsWriter writer;
  bool warned_results = false;  // since start: one warning for a failing file
  // Since start: the element posted an error (the results file's last
  // summary says so). Set from whichever thread posts.
  std::atomic<bool> posted_error{false};

  std::mutex results_lock;  // guards what follows against property reads
  Results results;
  // The backend's (Metric bits), set at start: written under the lock,
  // which the stats property takes, and read without it by the streaming
  // thread, since nothing else writes it.
  unsigned metrics = kMetricSsimulacra2;
  // The label in effect since start (the label property, else the
  // element's name), which the stats property reads.
  std::string label;
  // colorimetry-mode since start, and what the distorted stream's reading
  // took from the reference's (DistReading::adopted), for the summaries.
  ColorimetryMode colorimetry_mode = ColorimetryMode::kReference;
  std::string colorimetry_adopted;
};

// Opens `location`, when set (to append with results-append), and writes
// the header. False after posting an element error.
bool OpenResults(GstSsimulacra2Cmp* self, const ElementSettings& s, const std::string& location);

// A scored frame's record. GST_FLOW_ERROR after posting an element error
// (results-write-failure=error); otherwise a record not written is counted
// in results-lost.
GstFlowReturn WriteFrameResults(GstSsimulacra2Cmp* self, const FrameMessage& frame);

// Ends the segment for `reason`, "flush" or "eos": its summary goes to the
// file and is posted. A flush begins the next segment; EOS completes the
// file. GST_FLOW_ERROR after posting an element error.
GstFlowReturn EndSegment(GstSsimulacra2Cmp* self, const char* reason);

// At stop: a file that EOS did not complete gets the last segment's
// summary, reason "error" when the element posted an error, else "stop";
// then it is closed.
void CloseResults(GstSsimulacra2Cmp* self);

}  // namespace s2c

#endif  // S2C_GST_RESULTS_OUTPUT_H_
