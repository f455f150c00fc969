// SPDX-License-Identifier: BSD-3-Clause
// min-coverage's logic on its own (gst/helpers/coverage.h): which windows
// fall short, the counters' growth per window, the closest miss between the
// pads, and the cause the warning names.
#include <string>

#include "check.h"
#include "coverage.h"

namespace {

constexpr GstClockTime kWindow = 100;

// Adds frames at running times `from`, `from` + 10, ... below `to`, `scored`
// or not, with the counters `counts`; returns how many closed a short
// window (the last one's message in `closed`).
int AddFrames(s2c::CoverageWatch* watch, GstClockTime from, GstClockTime to, bool scored,
              const s2c::LossCounts& counts, s2c::CoverageMessage* closed) {
  int short_windows = 0;
  for (GstClockTime t = from; t < to; t += 10) {
    short_windows += watch->Add(kWindow, 0.5, t, scored, counts, closed);
  }
  return short_windows;
}

}  // namespace

int main() {
  s2c::CoverageMessage m;
  {
    // Every frame scored: no window falls short.
    s2c::CoverageWatch watch;
    S2C_CHECK(AddFrames(&watch, 0, 300, true, {}, &m) == 0, "a fully scored window fell short");
  }
  {
    // min-coverage 0 checks nothing.
    s2c::CoverageWatch watch;
    int short_windows = 0;
    for (GstClockTime t = 0; t < 300; t += 10) {
      short_windows += watch.Add(kWindow, 0.0, t, false, {}, &m);
    }
    S2C_CHECK(short_windows == 0, "min-coverage 0 reported %d windows", short_windows);
  }
  {
    // Distorted gaps: each window's own gaps, the cause over the unpaired
    // references the gaps leave.
    s2c::CoverageWatch watch;
    s2c::LossCounts counts;
    for (int i = 0; i < 10; ++i) watch.NoteDistGap();
    counts.ref_unpaired = 10;
    S2C_CHECK(AddFrames(&watch, 0, 110, false, counts, &m) == 1, "no short window");
    S2C_CHECK(m.start == 0 && m.end == kWindow && m.ref_frames == 10 && m.frames_scored == 0,
              "window [%lu, %lu): %lu frames, %lu scored", static_cast<unsigned long>(m.start),
              static_cast<unsigned long>(m.end), static_cast<unsigned long>(m.ref_frames),
              static_cast<unsigned long>(m.frames_scored));
    S2C_CHECK(m.dist_gaps == 10 && m.ref_unpaired == 10, "gaps %lu, unpaired %lu",
              static_cast<unsigned long>(m.dist_gaps), static_cast<unsigned long>(m.ref_unpaired));
    S2C_CHECK(m.cause == s2c::CoverageCause::kGaps, "cause %s", s2c::CoverageCauseName(m.cause));
    // The next window: only the growth since the first, and skips now.
    counts.ref_skipped = 7;
    S2C_CHECK(AddFrames(&watch, 110, 210, false, counts, &m) == 1, "no second short window");
    S2C_CHECK(m.start == kWindow && m.dist_gaps == 0 && m.ref_unpaired == 0 &&
                  m.ref_skipped == 7,
              "second window: gaps %lu, unpaired %lu, skipped %lu",
              static_cast<unsigned long>(m.dist_gaps), static_cast<unsigned long>(m.ref_unpaired),
              static_cast<unsigned long>(m.ref_skipped));
    S2C_CHECK(m.cause == s2c::CoverageCause::kOverloaded, "cause %s",
              s2c::CoverageCauseName(m.cause));
    // The third: references paired after their deadline (a slow
    // downstream), which the backend is not to blame for.
    counts.ref_overdue = 9;
    S2C_CHECK(AddFrames(&watch, 210, 310, false, counts, &m) == 1, "no third short window");
    S2C_CHECK(m.ref_overdue == 9 && m.ref_skipped == 0, "third window: overdue %lu, skipped %lu",
              static_cast<unsigned long>(m.ref_overdue),
              static_cast<unsigned long>(m.ref_skipped));
    S2C_CHECK(m.cause == s2c::CoverageCause::kHeldUp, "cause %s", s2c::CoverageCauseName(m.cause));
    const std::string text = s2c::ExplainCoverage(m);
    S2C_CHECK(text.find("9 paired references reached the element after their live deadline "
                        "(ref-overdue)") != std::string::npos &&
                  text.find("overloaded") == std::string::npos,
              "%s", text.c_str());
  }
  {
    // Pairs skipped because the two sizes differ count in ref-skipped too,
    // but the cause is the sizes, named with the fix, not an overload. The
    // next window, with skips of an overload alone, says so again.
    s2c::CoverageWatch watch;
    s2c::LossCounts counts;
    for (int i = 0; i < 10; ++i) watch.NoteSizesDiffer(320, 240, 160, 120);
    counts.ref_skipped = 10;
    S2C_CHECK(AddFrames(&watch, 0, 110, false, counts, &m) == 1, "no short window");
    S2C_CHECK(
        m.cause == s2c::CoverageCause::kSizeMismatch && m.size_skipped == 10 && m.ref_skipped == 10,
        "cause %s, size-skipped %lu", s2c::CoverageCauseName(m.cause),
        static_cast<unsigned long>(m.size_skipped));
    const std::string text = s2c::ExplainCoverage(m);
    S2C_CHECK(text.find("the reference is 320x240 but the distorted stream is 160x120, so 10 "
                        "pairs were skipped") != std::string::npos &&
                  text.find("videoscale ! video/x-raw,width=320,height=240 before dist_sink") !=
                      std::string::npos &&
                  text.find("overloaded") == std::string::npos,
              "%s", text.c_str());
    // The message carries the sizes.
    GstStructure* s = m.ToStructure();
    s2c::CoverageMessage back;
    S2C_CHECK(s2c::CoverageMessage::FromStructure(s, &back) && back.size_skipped == 10 &&
                  back.ref_width == 320 && back.ref_height == 240 && back.dist_width == 160 &&
                  back.dist_height == 120,
              "%s", gst_structure_to_string(s));
    gst_structure_free(s);
    counts.ref_skipped = 17;
    S2C_CHECK(AddFrames(&watch, 110, 210, false, counts, &m) == 1, "no second short window");
    S2C_CHECK(
        m.cause == s2c::CoverageCause::kOverloaded && m.size_skipped == 0 && m.ref_skipped == 7,
        "second window: cause %s", s2c::CoverageCauseName(m.cause));
    S2C_CHECK(s2c::ExplainCoverage(m).find("overloaded, 7 paired references") != std::string::npos,
              "%s", s2c::ExplainCoverage(m).c_str());
  }
  {
    // The closest miss of the window, whichever its sign; none in the next.
    s2c::CoverageWatch watch;
    s2c::LossCounts counts;
    watch.NoteMiss(10 * GST_MSECOND);
    watch.NoteMiss(-23 * GST_MSECOND);
    watch.NoteMiss(-5 * GST_MSECOND);
    counts.ref_unpaired = 2;
    counts.dist_unpaired = 1;
    S2C_CHECK(AddFrames(&watch, 0, 110, false, counts, &m) == 1, "no short window");
    S2C_CHECK(m.cause == s2c::CoverageCause::kNotPairing, "cause %s",
              s2c::CoverageCauseName(m.cause));
    S2C_CHECK(m.has_pad_offset && m.pad_offset == -5 * GST_MSECOND, "pad offset %ld",
              static_cast<long>(m.pad_offset));
    m.pairing_tolerance = GST_MSECOND;
    const std::string text = s2c::ExplainCoverage(m);
    S2C_CHECK(text.find("-5.000 ms") != std::string::npos &&
                  text.find("pairing-tolerance (1.000 ms)") != std::string::npos,
              "%s", text.c_str());
    S2C_CHECK(AddFrames(&watch, 110, 210, false, counts, &m) == 1, "no second short window");
    S2C_CHECK(!m.has_pad_offset && m.cause == s2c::CoverageCause::kUnknown,
              "second window: %s, offset %d", s2c::CoverageCauseName(m.cause), m.has_pad_offset);
  }
  {
    // Exactly min-coverage is enough: 5 of 10 scored.
    s2c::CoverageWatch watch;
    int short_windows = 0;
    for (GstClockTime t = 0; t < 110; t += 10) {
      short_windows += watch.Add(kWindow, 0.5, t, (t / 10) % 2 == 0, {}, &m);
    }
    S2C_CHECK(short_windows == 0, "half of the frames scored fell short");
  }
  return s2c::test::Finish();
}
