// SPDX-License-Identifier: BSD-3-Clause
// The results file (the element's results-location, the CLI's --output):
// one schema in three formats, the same field names in each.
//
// A frame's record: "frameNum" (its index in the segment), "segment" (0 at
// start, one more after each flush), the timestamps, "dist_frameNum" (the
// distorted frame's number at its pad) and "alignFlagged" (true or false,
// in csv 1 or 0: scored while the alignment was being established), the
// scores, then "label" and "utc" (the message's origin, score_message.h).
// A segment's summary: "fps", "pooled_metrics" (each metric's min, max,
// mean, harmonic_mean, the percentiles, stddev) and "summary" (the segment,
// the reason it ended, the counts, the alignment's "align_flagged",
// "realignments" and "offsets", "label" and "utc").
//
// - json: libvmaf's layout, which VMAF tooling reads: {"version", "frames":
//   [{"frameNum", "segment", the timestamps, "dist_frameNum",
//   "alignFlagged", "metrics": {"ssimulacra2"}}],
//   "segments": [the summaries of the segments that flushes ended], then
//   the last segment's "fps", "pooled_metrics", "aggregate_metrics" (libvmaf's
//   key; always empty) and "summary"}. With SSIM, each frame's metrics also
//   hold "ssim", "ssim_db" (null for +inf), "ssim_y", "ssim_cb" and
//   "ssim_cr", and pooled_metrics "ssim" (of the raw combined values);
//   without SSIMULACRA 2 its fields are absent.
// - jsonl: one object per frame with the same fields flattened
//   ({"frameNum", ..., "ssimulacra2", "ssim", ...}), and one object with
//   "fps", "pooled_metrics" and "summary" where each segment ends.
// - csv: a header line, one row per frame, and where each segment ends its
//   summary as lines that start with '#' ("# name,value"). With SSIM the
//   rows have its five columns after ssimulacra2's, and the summary its
//   statistics as "# ssim_name,value" lines.
//
// Numbers are written in the same way in every locale: integers in
// decimal, doubles with %.17g's digits and '.', which read back as the same
// double. A value that is not a number (a statistic of a segment with
// nothing scored) is null, or an empty cell; an infinity (SSIM in dB of
// identical frames) is null, or "inf".
//
// Each record is written whole or not at all (record_file.h) when it is
// made, so a crash or a full disk loses nothing already written: a json
// file then ends after its last complete frame object (append "]}" to parse
// it), a jsonl or csv file after its last complete line.
#ifndef S2C_GST_RESULTS_WRITER_H_
#define S2C_GST_RESULTS_WRITER_H_

#include <string>

#include "record_file.h"
#include "score_message.h"

namespace s2c {

enum class ResultsFormat { kJsonLines, kCsv, kJson };

class ResultsWriter {
 public:
  ResultsWriter() = default;
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;
  ~ResultsWriter() { Close(); }

  // Opens `path` (record_file.h) for a file of the `metrics` columns;
  // nothing is written yet. With `append`, a file that holds records
  // already is continued where its format allows: jsonl, and csv with the
  // same columns (its header is not written again); its first segment is
  // then one after the file's last record's. A json document, other csv
  // columns, or a file that does not end in a whole record is
  // kCannotContinue and left as it is.
  RecordFile::OpenResult Open(const std::string& path, ResultsFormat format,
                               const std::string& version,
                               unsigned metrics = kMetricSsimulacra2, bool append = false);
  bool is_open() const { return file_.is_open(); }
  // The segment the file goes on with: one after the last in the file it
  // continues, else 0.
  uint64_t first_segment() const { return first_segment_; }
  // Why Open returned kCannotContinue.
  const std::string& why_not_continued() const { return why_not_continued_; }

  // What comes before the first frame (the csv header, the json document's
  // start). False (errno set) when the file cannot take it: it then goes
  // with the next record, so no record is ever written without it.
  bool WriteHeader();

  // One frame's record. False (errno set) when it was not written.
  bool Write(const FrameMessage& frame);

  // The summary of a segment that a flush ended, with the pairs it scored
  // per second (NaN: none): jsonl and csv write it now, json keeps it for
  // the document's "segments".
  bool EndSegment(const SummaryMessage& summary, double fps);

  // The last segment's summary, which ends the document: nothing is
  // written after it (Write and EndSegment fail). False when the file
  // could not take it.
  bool Finish(const SummaryMessage& summary, double fps);
  bool finished() const { return finished_; }

  // Ends a json document whose summary was not written, so that it still
  // parses, and closes the file.
  void Close();

 private:
  bool Put(const std::string& record);
  // Reads where the kept file ends: its segment, and its csv header. False,
  // with why_not_continued_ set, when it cannot be continued.
  bool Continue();

  RecordFile file_;
  ResultsFormat format_ = ResultsFormat::kJsonLines;
  unsigned metrics_ = kMetricSsimulacra2;  // the columns each frame has
  std::string header_;                     // not written yet
  std::string earlier_segments_;           // json: the "segments" so far
  bool wrote_frame_ = false;
  bool finished_ = false;
  bool summary_written_ = false;
  uint64_t first_segment_ = 0;
  std::string why_not_continued_;
};

}  // namespace s2c

#endif  // S2C_GST_RESULTS_WRITER_H_
