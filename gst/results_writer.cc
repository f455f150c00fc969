// SPDX-License-Identifier: BSD-3-Clause
#include "results_writer.h"

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

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// SSIM in dB is +inf for identical frames, which JSON cannot hold: null
// there, "inf" in CSV (the raw value, 1, says the same exactly).
std::string Decibels(double v, ResultsFormat format) {
  if (!std::isinf(v)) return Number(v);
  return format == ResultsFormat::kCsv ? "inf" : "null";
}

std::string Number(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRIu64, v);
  return buf;
}

using Fields = std::vector<std::pair<const char*, std::string>>;

// The pooled statistics and the counts of a summary, in file order.
Fields PooledFields(const ScoreSummary& s) {
  return {{"min", Number(s.min)},          {"max", Number(s.max)},
          {"mean", Number(s.mean)},        {"harmonic_mean", Number(s.harmonic_mean)},
          {"p1", Number(s.p1)},            {"p5", Number(s.p5)},
          {"p10", Number(s.p10)},          {"p25", Number(s.p25)},
          {"median", Number(s.median)},    {"p75", Number(s.p75)},
          {"p95", Number(s.p95)},          {"stddev", Number(s.stddev)}};
}

// The metrics' values of one frame, in file order.
Fields MetricFields(const FrameMessage& f, unsigned metrics, ResultsFormat format) {
  Fields out;
  if (metrics & kMetricSsimulacra2) out.push_back({kMetric, Number(f.score)});
  if (metrics & kMetricSsim) {
    out.push_back({kSsimMetric, Number(f.ssim.combined)});
    out.push_back({"ssim_db", Decibels(f.ssim.combined_db, format)});
    out.push_back({"ssim_y", Number(f.ssim.plane[0])});
    out.push_back({"ssim_cb", Number(f.ssim.plane[1])});
    out.push_back({"ssim_cr", Number(f.ssim.plane[2])});
  }
  return out;
}

Fields CountFields(const SummaryMessage& m) {
  const ScoreSummary& any = (m.metrics & kMetricSsimulacra2) ? m.scores : m.ssim;
  return {{"frames_scored", Number(m.frames_scored())},
          {"percentile_frames", Number(any.percentile_frames)},
          {"ref_unpaired", Number(m.ref_unpaired)},
          {"dist_unpaired", Number(m.dist_unpaired)},
          {"ref_late", Number(m.ref_late)},
          {"ref_skipped", Number(m.ref_skipped)},
          {"ref_gaps", Number(m.ref_gaps)},
          {"results_lost", Number(m.results_lost)}};
}

std::string JsonObject(const Fields& fields) {
  std::string out = "{";
  for (const auto& f : fields) {
    if (out.size() > 1) out += ",";
    out += "\"" + std::string(f.first) + "\":" + f.second;
  }
  return out + "}";
}

// The pooled metrics and the counts as json members (no braces around).
std::string SummaryMembers(const SummaryMessage& m) {
  Fields pooled;
  if (m.metrics & kMetricSsimulacra2) pooled.push_back({kMetric, JsonObject(PooledFields(m.scores))});
  if (m.metrics & kMetricSsim) pooled.push_back({kSsimMetric, JsonObject(PooledFields(m.ssim))});
  return "\"pooled_metrics\":" + JsonObject(pooled) + ",\"summary\":" + JsonObject(CountFields(m));
}

// A string as a JSON string literal (the version is ours, but quote it
// properly all the same).
std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

}  // namespace

bool ResultsWriter::Open(const std::string& path, ResultsFormat format,
                         const std::string& version, unsigned metrics) {
  Close();
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) return false;
  format_ = format;
  metrics_ = metrics;
  wrote_frame_ = false;
  finished_ = false;
  switch (format_) {
    case ResultsFormat::kCsv: {
      std::string header = "frameNum,timestamp,running_time,dist_timestamp";
      for (const auto& f : MetricFields(FrameMessage(), metrics_, format_)) {
        header += "," + std::string(f.first);
      }
      return Put(header + "\n");
    }
    case ResultsFormat::kJson:
      return Put("{\"version\":" + JsonString(version) + ",\"frames\":[\n");
    case ResultsFormat::kJsonLines:
      return true;
  }
  return true;
}

bool ResultsWriter::Write(const FrameMessage& f) {
  if (file_ == nullptr || finished_) return false;
  const std::string index = Number(f.frame_index);
  const std::string ts = TimeField(f.timestamp, format_);
  const std::string rt = TimeField(f.running_time, format_);
  const std::string dts = TimeField(f.dist_timestamp, format_);
  const Fields metrics = MetricFields(f, metrics_, format_);
  Fields flat = {{"frameNum", index}, {"timestamp", ts}, {"running_time", rt},
                 {"dist_timestamp", dts}};
  std::string line;
  switch (format_) {
    case ResultsFormat::kCsv:
      line = index + "," + ts + "," + rt + "," + dts;
      for (const auto& m : metrics) line += "," + m.second;
      line += "\n";
      break;
    case ResultsFormat::kJsonLines:
      flat.insert(flat.end(), metrics.begin(), metrics.end());
      line = JsonObject(flat) + "\n";
      break;
    case ResultsFormat::kJson:
      // A comma before every frame but the first: the file stays a prefix
      // of the finished document, complete up to the last frame.
      flat.push_back({"metrics", JsonObject(metrics)});
      line = std::string(wrote_frame_ ? "," : "") + JsonObject(flat) + "\n";
      break;
  }
  wrote_frame_ = true;
  return Put(line);
}

bool ResultsWriter::Finish(const SummaryMessage& m) {
  if (file_ == nullptr || finished_) return false;
  finished_ = true;
  switch (format_) {
    case ResultsFormat::kCsv: {
      std::string lines;
      if (m.metrics & kMetricSsimulacra2) {
        for (const auto& f : PooledFields(m.scores)) lines += "# " + std::string(f.first) + "," + f.second + "\n";
      }
      if (m.metrics & kMetricSsim) {
        for (const auto& f : PooledFields(m.ssim)) {
          lines += "# ssim_" + std::string(f.first) + "," + f.second + "\n";
        }
      }
      for (const auto& f : CountFields(m)) lines += "# " + std::string(f.first) + "," + f.second + "\n";
      return Put(lines);
    }
    case ResultsFormat::kJsonLines:
      return Put("{" + SummaryMembers(m) + "}\n");
    case ResultsFormat::kJson:
      return Put("],\n" + SummaryMembers(m) + "}\n");
  }
  return false;
}

void ResultsWriter::Close() {
  if (file_ == nullptr) return;
  if (format_ == ResultsFormat::kJson && !finished_) Put("]}\n");
  std::fclose(file_);
  file_ = nullptr;
}

bool ResultsWriter::Put(const std::string& text) {
  return std::fputs(text.c_str(), file_) >= 0 && std::fflush(file_) == 0;
}

}  // namespace s2c
