// SPDX-License-Identifier: BSD-3-Clause
// The results-location file: one line per scored frame, written and flushed
// as the frame is scored, so a crash or a kill loses nothing already scored.
#ifndef S2C_GST_RESULTS_WRITER_H_
#define S2C_GST_RESULTS_WRITER_H_

#include <cstdio>
#include <string>

#include "score_message.h"

namespace s2c {

enum class ResultsFormat { kJsonLines, kCsv };

class ResultsWriter {
 public:
  ResultsWriter() = default;
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;
  ~ResultsWriter() { Close(); }

  // Truncates `path`; CSV gets its header line. False (errno set) on failure.
  bool Open(const std::string& path, ResultsFormat format);
  void Close();
  bool is_open() const { return file_ != nullptr; }

  // One line: frame index, timestamps in ns (null / empty when unknown),
  // score with 17 significant digits (the double round-trips).
  bool Write(const FrameMessage& frame);

 private:
  std::FILE* file_ = nullptr;
  ResultsFormat format_ = ResultsFormat::kJsonLines;
};

}  // namespace s2c

#endif  // S2C_GST_RESULTS_WRITER_H_
