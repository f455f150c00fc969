// SPDX-License-Identifier: BSD-3-Clause
#include "coverage.h"

#include <cstdio>

namespace s2c {
namespace {

uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

// The cause that left the most references unscored; on a tie the more
// specific one (gaps leave references unpaired too, and pairs of two sizes
// are skipped).
CoverageCause CauseOf(const CoverageMessage& m) {
  struct Candidate {
    CoverageCause cause;
    uint64_t count;
  };
  // Pairs of two sizes count in ref-skipped too.
  const Candidate candidates[] = {{CoverageCause::kSizeMismatch, m.size_skipped},
                                  {CoverageCause::kOverloaded, m.ref_skipped - m.size_skipped},
                                  {CoverageCause::kHeldUp, m.ref_overdue},
                                  {CoverageCause::kLate, m.ref_late},
                                  {CoverageCause::kGaps, m.dist_gaps},
                                  {CoverageCause::kNotPairing, m.ref_unpaired + m.dist_unpaired}};
  const Candidate* best = &candidates[0];
  for (const Candidate& c : candidates) {
    if (c.count > best->count) best = &c;
  }
  return best->count > 0 ? best->cause : CoverageCause::kUnknown;
}

double Ms(int64_t ns) { return static_cast<double>(ns) / GST_MSECOND; }

}  // namespace

void CoverageWatch::NoteMiss(int64_t dist_minus_ref) {
  if (!has_miss_ || Magnitude(dist_minus_ref) < Magnitude(closest_miss_)) {
    closest_miss_ = dist_minus_ref;
  }
  has_miss_ = true;
}

void CoverageWatch::NoteSizesDiffer(int ref_width, int ref_height, int dist_width,
                                    int dist_height) {
  ++size_skipped_;
  sizes_[0] = ref_width;
  sizes_[1] = ref_height;
  sizes_[2] = dist_width;
  sizes_[3] = dist_height;
}

bool CoverageWatch::Add(GstClockTime interval, double min_coverage, GstClockTime running_time,
                        bool scored, const LossCounts& counts, CoverageMessage* closed) {
  if (min_coverage <= 0.0 || interval == 0 || !GST_CLOCK_TIME_IS_VALID(running_time)) {
    return false;
  }
  GstClockTime start = 0;
  bool short_window = false;
  if (windows_.Advance(interval, running_time, &start)) {
    CoverageMessage m;
    m.start = start;
    m.end = start + interval;
    m.ref_frames = ref_frames_;
    m.frames_scored = scored_;
    m.min_coverage = min_coverage;
    m.ref_skipped = counts.ref_skipped - at_start_.ref_skipped;
    m.ref_overdue = counts.ref_overdue - at_start_.ref_overdue;
    m.ref_unpaired = counts.ref_unpaired - at_start_.ref_unpaired;
    m.dist_unpaired = counts.dist_unpaired - at_start_.dist_unpaired;
    m.ref_late = counts.ref_late - at_start_.ref_late;
    m.dist_gaps = dist_gaps_;
    m.size_skipped = size_skipped_;
    m.ref_width = sizes_[0];
    m.ref_height = sizes_[1];
    m.dist_width = sizes_[2];
    m.dist_height = sizes_[3];
    m.has_pad_offset = has_miss_;
    m.pad_offset = closest_miss_;
    m.cause = CauseOf(m);
    short_window = m.ref_frames > 0 && m.scored_share() < min_coverage;
    if (short_window) *closed = m;
    ref_frames_ = scored_ = dist_gaps_ = size_skipped_ = 0;
    at_start_ = counts;
    has_miss_ = false;
  }
  ++ref_frames_;
  if (scored) ++scored_;
  return short_window;
}

std::string ExplainCoverage(const CoverageMessage& m) {
  char head[256];
  std::snprintf(head, sizeof(head),
                "Only %llu of %llu reference frames (%.0f%%) were scored between %.3f s and "
                "%.3f s of running time, less than min-coverage (%.0f%%): ",
                static_cast<unsigned long long>(m.frames_scored),
                static_cast<unsigned long long>(m.ref_frames), 100.0 * m.scored_share(),
                static_cast<double>(m.start) / GST_SECOND,
                static_cast<double>(m.end) / GST_SECOND, 100.0 * m.min_coverage);
  char why[512];
  const auto n = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  switch (m.cause) {
    case CoverageCause::kSizeMismatch:
      std::snprintf(why, sizeof(why),
                    "the reference is %dx%d but the distorted stream is %dx%d, so %llu pairs "
                    "were skipped (ref-skipped); insert videoscale ! "
                    "video/x-raw,width=%d,height=%d before dist_sink.",
                    m.ref_width, m.ref_height, m.dist_width, m.dist_height, n(m.size_skipped),
                    m.ref_width, m.ref_height);
      break;
    case CoverageCause::kOverloaded:
      std::snprintf(why, sizeof(why),
                    "the backend is overloaded, %llu paired references were skipped "
                    "(ref-skipped); use a faster backend, fewer channels per GPU or a lower "
                    "frame rate.",
                    n(m.ref_skipped - m.size_skipped));
      break;
    case CoverageCause::kHeldUp:
      std::snprintf(why, sizeof(why),
                    "%llu paired references reached the element after their live deadline "
                    "(ref-overdue): its streaming thread was held up, most often by an element "
                    "or sink downstream slower than real time; the backend kept up.",
                    n(m.ref_overdue));
      break;
    case CoverageCause::kLate:
      std::snprintf(why, sizeof(why),
                    "%llu references went on at the live deadline before their distorted "
                    "partner came (ref-late); the distorted feed runs behind: set a negative "
                    "dist-offset or more latency.",
                    n(m.ref_late));
      break;
    case CoverageCause::kGaps:
      std::snprintf(why, sizeof(why),
                    "the distorted feed sent %llu gaps (GAP events) instead of frames.",
                    n(m.dist_gaps));
      break;
    case CoverageCause::kNotPairing:
      if (m.has_pad_offset) {
        std::snprintf(why, sizeof(why),
                      "the pads are not pairing, %llu references and %llu distorted frames had "
                      "no partner: their timestamps differ by %+.3f ms at the closest, more "
                      "than pairing-tolerance (%.3f ms); set dist-offset or pairing-tolerance.",
                      n(m.ref_unpaired), n(m.dist_unpaired), Ms(m.pad_offset),
                      Ms(m.pairing_tolerance));
      } else {
        std::snprintf(why, sizeof(why),
                      "the pads are not pairing, %llu references and %llu distorted frames had "
                      "no partner (one feed has stopped or has no timestamps).",
                      n(m.ref_unpaired), n(m.dist_unpaired));
      }
      break;
    case CoverageCause::kUnknown:
      std::snprintf(why, sizeof(why), "no counter says why.");
      break;
  }
  return std::string(head) + why;
}

}  // namespace s2c
