// SPDX-License-Identifier: BSD-3-Clause
#include "results_writer.h"

#include <cinttypes>

namespace s2c {

namespace {

// A GstClockTime as a JSON value or CSV cell: the number, or null / empty.
std::string TimeField(GstClockTime t, ResultsFormat format) {
  if (!GST_CLOCK_TIME_IS_VALID(t)) {
    return format == ResultsFormat::kJsonLines ? "null" : "";
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRIu64, static_cast<uint64_t>(t));
  return buf;
}

}  // namespace

bool ResultsWriter::Open(const std::string& path, ResultsFormat format) {
  Close();
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) return false;
  format_ = format;
  if (format_ == ResultsFormat::kCsv) {
    std::fputs("frame,timestamp,running_time,dist_timestamp,score\n", file_);
    std::fflush(file_);
  }
  return true;
}

void ResultsWriter::Close() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
}

bool ResultsWriter::Write(const FrameMessage& f) {
  if (file_ == nullptr) return false;
  const std::string ts = TimeField(f.timestamp, format_);
  const std::string rt = TimeField(f.running_time, format_);
  const std::string dts = TimeField(f.dist_timestamp, format_);
  const uint64_t index = f.frame_index;
  int n;
  if (format_ == ResultsFormat::kJsonLines) {
    n = std::fprintf(file_,
                     "{\"frame\":%" PRIu64 ",\"timestamp\":%s,"
                     "\"running_time\":%s,\"dist_timestamp\":%s,"
                     "\"score\":%.17g}\n",
                     index, ts.c_str(), rt.c_str(), dts.c_str(), f.score);
  } else {
    n = std::fprintf(file_, "%" PRIu64 ",%s,%s,%s,%.17g\n", index, ts.c_str(),
                     rt.c_str(), dts.c_str(), f.score);
  }
  return n > 0 && std::fflush(file_) == 0;
}

}  // namespace s2c
