// SPDX-License-Identifier: BSD-3-Clause
#include "results_writer.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <utility>
#include <vector>

namespace s2c {

namespace {

constexpr char kMetric[] = "ssimulacra2";
constexpr char kSsimMetric[] = "ssim";

// A GstClockTime as a JSON value or CSV cell: the number, or null / empty.
std::string TimeField(GstClockTime t, ResultsFormat format) {
  if (!GST_CLOCK_TIME_IS_VALID(t)) return format == ResultsFormat::kCsv ? "" : "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRIu64, static_cast<uint64_t>(t));
  return buf;
}

// A double with %.17g's digits, which read back as the same double, and
// '.' whatever the locale (g_ascii_formatd); NaN and the infinities as
// JSON and CSV can hold them (results_writer.h).
std::string Value(double v, ResultsFormat format) {
  const bool csv = format == ResultsFormat::kCsv;
  if (std::isnan(v)) return csv ? "" : "null";
  if (std::isinf(v)) return csv ? (v > 0 ? "inf" : "-inf") : "null";
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_ascii_formatd(buf, sizeof(buf), "%.17g", v);
}

std::string Number(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRIu64, v);
  return buf;
}

// A flag as JSON's true or false, or a CSV cell's 1 or 0.
std::string Flag(bool v, ResultsFormat format) {
  if (format == ResultsFormat::kCsv) return v ? "1" : "0";
  return v ? "true" : "false";
}

// A string as a JSON string literal, or a CSV cell: as it is, or quoted as
// RFC 4180 says when it holds a comma, a quote or a line break. Control
// characters are left out of both.
std::string Text(const std::string& s, ResultsFormat format) {
  const bool csv = format == ResultsFormat::kCsv;
  if (csv && s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += csv ? '"' : '\\';
    if (c == '\\' && !csv) out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

using Fields = std::vector<std::pair<const char*, std::string>>;

// Which element wrote the record and when, after everything else.
Fields OriginFields(const MessageOrigin& origin, ResultsFormat format) {
  return {{"label", Text(origin.label, format)}, {"utc", Text(origin.utc, format)}};
}

// The pooled statistics of one metric, in file order.
Fields PooledFields(const ScoreSummary& s, ResultsFormat format) {
  Fields out;
  for (const auto& f : {std::make_pair("min", s.min), std::make_pair("max", s.max),
                        std::make_pair("mean", s.mean),
                        std::make_pair("harmonic_mean", s.harmonic_mean),
                        std::make_pair("p1", s.p1), std::make_pair("p5", s.p5),
                        std::make_pair("p10", s.p10), std::make_pair("p25", s.p25),
                        std::make_pair("median", s.median), std::make_pair("p75", s.p75),
                        std::make_pair("p95", s.p95), std::make_pair("stddev", s.stddev)}) {
    out.push_back({f.first, Value(f.second, format)});
  }
  return out;
}

// The metrics' values of one frame, in file order.
Fields MetricFields(const FrameMessage& f, unsigned metrics, ResultsFormat format) {
  Fields out;
  if (metrics & kMetricSsimulacra2) out.push_back({kMetric, Value(f.score, format)});
  if (metrics & kMetricSsim) {
    out.push_back({kSsimMetric, Value(f.ssim.combined, format)});
    out.push_back({"ssim_db", Value(f.ssim.combined_db, format)});
    out.push_back({"ssim_y", Value(f.ssim.plane[0], format)});
    out.push_back({"ssim_cb", Value(f.ssim.plane[1], format)});
    out.push_back({"ssim_cr", Value(f.ssim.plane[2], format)});
  }
  return out;
}

// A frame's fields before its scores, in file order.
Fields FrameFields(const FrameMessage& f, ResultsFormat format) {
  return {{"frameNum", Number(f.frame_index)},
          {"segment", Number(f.segment)},
          {"timestamp", TimeField(f.timestamp, format)},
          {"running_time", TimeField(f.running_time, format)},
          {"dist_timestamp", TimeField(f.dist_timestamp, format)},
          {"dist_frameNum", Number(f.dist_frame_index)},
          {"alignFlagged", Flag(f.align_flagged, format)}};
}

// The "summary" object: which segment, why it ended, the counts, and
// which element wrote it when.
Fields CountFields(const SummaryMessage& m, ResultsFormat format) {
  const ScoreSummary& any = (m.metrics & kMetricSsimulacra2) ? m.scores : m.ssim;
  Fields out = {{"segment", Number(m.segment)},
          {"reason", Text(m.reason, format)},
          {"frames_scored", Number(m.frames_scored())},
          {"percentile_frames", Number(any.percentile_frames)},
          {"ref_unpaired", Number(m.ref_unpaired)},
          {"dist_unpaired", Number(m.dist_unpaired)},
          {"ref_late", Number(m.ref_late)},
          {"ref_skipped", Number(m.ref_skipped)},
          {"ref_overdue", Number(m.ref_overdue)},
          {"ref_gaps", Number(m.ref_gaps)},
          {"results_lost", Number(m.results_lost)},
          {"align_flagged", Number(m.align_flagged)},
          {"realignments", Number(m.realignments)},
          {"offsets", Text(m.offsets, format)},
          {"colorimetry_mode", Text(m.colorimetry_mode, format)},
          {"colorimetry_adopted", Text(m.colorimetry_adopted, format)}};
  const Fields origin = OriginFields(m.origin, format);
  out.insert(out.end(), origin.begin(), origin.end());
  return out;
}

std::string JsonObject(const Fields& fields) {
  std::string out = "{";
  for (const auto& f : fields) {
    if (out.size() > 1) out += ",";
    out += "\"" + std::string(f.first) + "\":" + f.second;
  }
  return out + "}";
}

// A segment's summary as json members (no braces around); json has
// libvmaf's "aggregate_metrics" too, which nothing here fills.
std::string SummaryMembers(const SummaryMessage& m, double fps, ResultsFormat format) {
  Fields pooled;
  if (m.metrics & kMetricSsimulacra2) {
    pooled.push_back({kMetric, JsonObject(PooledFields(m.scores, format))});
  }
  if (m.metrics & kMetricSsim) {
    pooled.push_back({kSsimMetric, JsonObject(PooledFields(m.ssim, format))});
  }
  std::string out = "\"fps\":" + Value(fps, format) + ",\"pooled_metrics\":" + JsonObject(pooled);
  if (format == ResultsFormat::kJson) out += ",\"aggregate_metrics\":{}";
  return out + ",\"summary\":" + JsonObject(CountFields(m, format));
}

// A segment's summary as csv comment lines, in the order of the json.
std::string SummaryLines(const SummaryMessage& m, double fps) {
  const ResultsFormat csv = ResultsFormat::kCsv;
  std::string lines = "# fps," + Value(fps, csv) + "\n";
  if (m.metrics & kMetricSsimulacra2) {
    for (const auto& f : PooledFields(m.scores, csv)) {
      lines += "# " + std::string(f.first) + "," + f.second + "\n";
    }
  }
  if (m.metrics & kMetricSsim) {
    for (const auto& f : PooledFields(m.ssim, csv)) {
      lines += "# ssim_" + std::string(f.first) + "," + f.second + "\n";
    }
  }
  for (const auto& f : CountFields(m, csv)) {
    lines += "# " + std::string(f.first) + "," + f.second + "\n";
  }
  return lines;
}

// A segment's summary record in jsonl or csv.
std::string SummaryRecord(const SummaryMessage& m, double fps, ResultsFormat format) {
  return format == ResultsFormat::kCsv ? SummaryLines(m, fps)
                                       : "{" + SummaryMembers(m, fps, format) + "}\n";
}

// How much of a kept file's end is read to find its last record: many
// times the longest (a csv summary with SSIM's lines, about 2 KiB).
constexpr size_t kTailBytes = 64 * 1024;

// `text` as a segment number.
bool SegmentNumber(const std::string& text, uint64_t* segment) {
  return g_ascii_string_to_unsigned(text.c_str(), 10, 0, G_MAXUINT64, segment, nullptr);
}

// The segment of the last record in `tail`, the end of a jsonl or csv file
// (`whole`: the whole file, else it may begin mid-line). False when the
// file does not end in a whole record.
bool LastSegment(const std::string& tail, bool whole, ResultsFormat format, uint64_t* segment) {
  if (tail.empty() || tail.back() != '\n') return false;
  // The whole lines of the tail, last first; a first line cut off by the
  // tail's start is left out.
  std::vector<std::string> lines;
  size_t end = tail.size() - 1;  // the line's '\n'
  while (true) {
    const size_t newline = end == 0 ? std::string::npos : tail.rfind('\n', end - 1);
    if (newline == std::string::npos) {
      if (whole) lines.push_back(tail.substr(0, end));
      break;
    }
    lines.push_back(tail.substr(newline + 1, end - newline - 1));
    end = newline;
  }
  if (lines.empty()) return false;
  if (format == ResultsFormat::kJsonLines) {
    // A frame's record and a summary alike have one "segment" member, the
    // frame's before any string.
    static const std::string kKey = "\"segment\":";
    const std::string& last = lines.front();
    const size_t at = last.find(kKey);
    if (last.empty() || last.front() != '{' || last.back() != '}' || at == std::string::npos) {
      return false;
    }
    const size_t digits = at + kKey.size();
    return SegmentNumber(last.substr(digits, last.find_first_not_of("0123456789", digits) - digits),
                         segment);
  }
  // csv: a frame's row has the segment second; a summary's lines, each
  // "# name,value", have a "# segment," line and end with "# utc,".
  if (lines.front().rfind("# ", 0) == 0 && lines.front().rfind("# utc,", 0) != 0) return false;
  for (const std::string& line : lines) {
    if (line.rfind("# ", 0) != 0) {
      if (&line != &lines.front()) return false;  // a summary cut short
      const size_t comma = line.find(',');
      return comma != std::string::npos &&
             SegmentNumber(line.substr(comma + 1, line.find(',', comma + 1) - comma - 1), segment);
    }
    if (line.rfind("# segment,", 0) == 0) return SegmentNumber(line.substr(10), segment);
  }
  return false;
}

}  // namespace

RecordFile::OpenResult ResultsWriter::Open(const std::string& path, ResultsFormat format,
                                            const std::string& version, unsigned metrics,
                                            bool append) {
  Close();
  const RecordFile::OpenResult opened = file_.Open(path, append);
  if (opened != RecordFile::OpenResult::kOk) return opened;
  first_segment_ = 0;
  why_not_continued_.clear();
  format_ = format;
  metrics_ = metrics;
  earlier_segments_.clear();
  wrote_frame_ = false;
  finished_ = false;
  summary_written_ = false;
  switch (format_) {
    case ResultsFormat::kCsv: {
      header_.clear();
      for (const auto& f : FrameFields(FrameMessage(), format_)) {
        header_ += (header_.empty() ? "" : ",") + std::string(f.first);
      }
      for (const auto& f : MetricFields(FrameMessage(), metrics_, format_)) {
        header_ += "," + std::string(f.first);
      }
      for (const auto& f : OriginFields(MessageOrigin(), format_)) {
        header_ += "," + std::string(f.first);
      }
      header_ += "\n";
      break;
    }
    case ResultsFormat::kJson:
      header_ = "{\"version\":" + Text(version, format_) + ",\"frames\":[\n";
      break;
    case ResultsFormat::kJsonLines:
      header_.clear();
      break;
  }
  if (file_.kept_bytes() > 0 && !Continue()) {
    file_.Close();
    return RecordFile::OpenResult::kCannotContinue;
  }
  return opened;
}

bool ResultsWriter::Continue() {
  if (format_ == ResultsFormat::kJson) {
    why_not_continued_ = "a json document cannot be continued (jsonl or csv can)";
    return false;
  }
  const off_t size = file_.kept_bytes();
  std::string head;
  if (format_ == ResultsFormat::kCsv) {
    const size_t n = std::min(header_.size(), static_cast<size_t>(size));
    if (!file_.ReadKept(0, n, &head)) {
      why_not_continued_ = g_strerror(errno);
      return false;
    }
    if (head != header_) {
      why_not_continued_ = "its columns are not this run's: " + header_.substr(0, header_.size() - 1);
      return false;
    }
    const bool header_alone = static_cast<size_t>(size) == header_.size();
    header_.clear();
    if (header_alone) return true;  // nothing scored yet: segment 0
  }
  const off_t from = size > static_cast<off_t>(kTailBytes) ? size - kTailBytes : 0;
  std::string tail;
  uint64_t last = 0;
  if (!file_.ReadKept(from, static_cast<size_t>(size - from), &tail)) {
    why_not_continued_ = g_strerror(errno);
    return false;
  }
  if (!LastSegment(tail, from == 0, format_, &last)) {
    why_not_continued_ = std::string("it does not end in a whole ") +
                         (format_ == ResultsFormat::kCsv ? "csv" : "jsonl") + " record";
    return false;
  }
  first_segment_ = last + 1;
  return true;
}

bool ResultsWriter::WriteHeader() { return Put(""); }

bool ResultsWriter::Write(const FrameMessage& f) {
  if (finished_) {
    errno = EBADF;
    return false;
  }
  Fields fields = FrameFields(f, format_);
  const Fields metrics = MetricFields(f, metrics_, format_);
  const Fields origin = OriginFields(f.origin, format_);
  std::string record;
  switch (format_) {
    case ResultsFormat::kCsv:
      fields.insert(fields.end(), metrics.begin(), metrics.end());
      fields.insert(fields.end(), origin.begin(), origin.end());
      for (const auto& field : fields) record += (record.empty() ? "" : ",") + field.second;
      record += "\n";
      break;
    case ResultsFormat::kJsonLines:
      fields.insert(fields.end(), metrics.begin(), metrics.end());
      fields.insert(fields.end(), origin.begin(), origin.end());
      record = JsonObject(fields) + "\n";
      break;
    case ResultsFormat::kJson:
      // A comma before every frame in the file but the first: the file
      // stays a prefix of the finished document, complete up to its last
      // frame.
      fields.push_back({"metrics", JsonObject(metrics)});
      fields.insert(fields.end(), origin.begin(), origin.end());
      record = std::string(wrote_frame_ ? "," : "") + JsonObject(fields) + "\n";
      break;
  }
  if (!Put(record)) return false;
  wrote_frame_ = true;
  return true;
}

bool ResultsWriter::EndSegment(const SummaryMessage& m, double fps) {
  if (finished_) {
    errno = EBADF;
    return false;
  }
  if (format_ != ResultsFormat::kJson) return Put(SummaryRecord(m, fps, format_));
  earlier_segments_ +=
      (earlier_segments_.empty() ? "{" : ",{") + SummaryMembers(m, fps, format_) + "}";
  return true;
}

bool ResultsWriter::Finish(const SummaryMessage& m, double fps) {
  if (finished_) {
    errno = EBADF;
    return false;
  }
  finished_ = true;
  summary_written_ =
      Put(format_ == ResultsFormat::kJson
              ? "],\n\"segments\":[" + earlier_segments_ + "]," +
                    SummaryMembers(m, fps, format_) + "}\n"
              : SummaryRecord(m, fps, format_));
  return summary_written_;
}

void ResultsWriter::Close() {
  if (!file_.is_open()) return;
  if (format_ == ResultsFormat::kJson && !summary_written_) Put("]}\n");
  file_.Close();
}

// The header, while it is not in the file, goes in front of the record.
bool ResultsWriter::Put(const std::string& record) {
  if (!file_.Write(header_ + record)) return false;
  header_.clear();
  return true;
}

}  // namespace s2c
