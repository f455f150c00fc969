// SPDX-License-Identifier: BSD-3-Clause
// The results file (the element's results-location, the CLI's --output):
// one schema in three formats, the same field names in each.
//
// - json: libvmaf's layout, which VMAF tooling reads: {"version", "frames":
//   [{"frameNum", the timestamps, "metrics": {"ssimulacra2"}}],
//   "pooled_metrics": {"ssimulacra2": {min, max, mean, harmonic_mean, the
//   percentiles, stddev}}, "summary": {the counts}}. With SSIM, each frame's
//   metrics also hold "ssim", "ssim_db" (null for +inf), "ssim_y", "ssim_cb"
//   and "ssim_cr", and pooled_metrics "ssim" (of the raw combined values);
//   without SSIMULACRA 2 its fields are absent.
// - jsonl: one object per frame with the same fields flattened
//   ({"frameNum", ..., "ssimulacra2", "ssim", ...}), then one object with
//   "pooled_metrics" and "summary".
// - csv: a header line, one row per frame, then the summary as lines that
//   start with '#' ("# name,value").
//   With SSIM the rows have its five columns after ssimulacra2's, and the
//   summary its statistics as "# ssim_name,value" lines.
//
// Each frame is written and flushed when it is scored, and the summary when
// the stream ends, so a crash loses nothing already scored: a json file then
// ends after its last complete frame object (append "]}" to parse it), a
// jsonl or csv file after its last complete line.
#ifndef S2C_GST_RESULTS_WRITER_H_
#define S2C_GST_RESULTS_WRITER_H_

#include <cstdio>
#include <string>

#include "score_message.h"

namespace s2c {

enum class ResultsFormat { kJsonLines, kCsv, kJson };

class ResultsWriter {
 public:
  ResultsWriter() = default;
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;
  ~ResultsWriter() { Close(); }

  // Truncates `path` and writes what comes before the first frame (the csv
  // header, the json document's start with `version`). False (errno set) on
  // failure.
  bool Open(const std::string& path, ResultsFormat format, const std::string& version,
            unsigned metrics = kMetricSsimulacra2);
  bool is_open() const { return file_ != nullptr; }

  // One frame: frame index, timestamps in ns (null / empty when unknown),
  // score with 17 significant digits (the double round-trips).
  bool Write(const FrameMessage& frame);

  // The summary, which ends the document; later frames are not written.
  bool Finish(const SummaryMessage& summary);

  // Ends a json document that was not finished, so that it still parses,
  // and closes the file.
  void Close();

 private:
  bool Put(const std::string& text);

  std::FILE* file_ = nullptr;
  ResultsFormat format_ = ResultsFormat::kJsonLines;
  unsigned metrics_ = kMetricSsimulacra2;  // the columns each frame has
  bool wrote_frame_ = false;
  bool finished_ = false;
};

}  // namespace s2c

#endif  // S2C_GST_RESULTS_WRITER_H_
