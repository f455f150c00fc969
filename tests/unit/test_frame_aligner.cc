// SPDX-License-Identifier: BSD-3-Clause
// FrameAligner (gst/helpers/frame_aligner.h) on realistic content: a pan
// across a photograph as the reference, and the same frames blurred, shifted
// in level, noisy and coarsely quantised, as an encoder would leave them, as
// the distorted stream, late, early, with frames dropped and repeated, a
// flat scene and a scene cut. Every run is fed as the element feeds it,
// holding at most FramesHeld() frames of each stream, in three orders of
// arrival that must give the same verdicts. Checked: no unflagged pair of
// different pictures, a distorted frame paired unflagged at most once and
// in order, no frame left unpaired that has a partner,
// the right partner from the third frame after every change, the events.
// Also MakeThumbnail at 8 and 16 bits, and flat frames.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "frame_aligner.h"
#include "image_io.h"
#include "png_reader.h"

namespace {

using s2c::AlignEvent;
using s2c::AlignMode;
using s2c::AlignReason;
using s2c::AlignVerdict;
using s2c::FrameAligner;
using s2c::MakeThumbnail;
using s2c::Thumbnail;

struct Plane {
  int width = 0, height = 0;
  std::vector<uint8_t> px;
};

// The luma of an 8-bit RGB image (BT.601 weights, rounded).
Plane Luma(const s2c::test::HostImage& rgb) {
  Plane p;
  p.width = rgb.desc.width;
  p.height = rgb.desc.height;
  p.px.resize(static_cast<size_t>(p.width) * p.height);
  for (int y = 0; y < p.height; ++y) {
    const uint8_t* row = rgb.bytes.data() + y * rgb.stride;
    for (int x = 0; x < p.width; ++x) {
      const uint8_t* c = row + 3 * x;
      p.px[static_cast<size_t>(y) * p.width + x] =
          static_cast<uint8_t>((77 * c[0] + 150 * c[1] + 29 * c[2] + 128) >> 8);
    }
  }
  return p;
}

// The frames: 256 x 144. Content codes: a pan frame t (the crop moving 2
// pixels right and 1 down a frame across the flower photo) is t; the same
// pan shaking (5 pixels right, then 1) kShaky + t; a still crop of another
// photo (the tank) kStill; a dark flat frame kFlat.
constexpr int kW = 256, kH = 144;
constexpr int kShaky = 1000, kStill = 10000, kFlat = 20000;
bool IsPan(int code) { return code < kStill; }

struct Pictures {
  Plane flower, tank;
};

uint32_t Lcg(uint32_t* s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

// The frame of `code`, as 8-bit luma rows of kW.
std::vector<uint8_t> Frame(const Pictures& pics, int code) {
  std::vector<uint8_t> f(kW * kH);
  const Plane* p = &pics.flower;
  int x0 = 40 + 2 * code, y0 = 200 + code;
  if (code >= kShaky) x0 = 40 + 3 * (code - kShaky) + 2 * (code % 2), y0 = 200 + code - kShaky;
  if (code == kStill) p = &pics.tank, x0 = 600, y0 = 400;
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      f[y * kW + x] = code == kFlat ? 16 : p->px[static_cast<size_t>(y0 + y) * p->width + x0 + x];
    }
  }
  return f;
}

// What an encoder leaves: a 3x3 box blur, levels 3 up, noise of +-4 and
// steps of 6, different noise in every frame.
std::vector<uint8_t> Distort(const std::vector<uint8_t>& f, uint32_t seed) {
  std::vector<uint8_t> d(f.size());
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) {
      int sum = 0;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          sum += f[std::clamp(y + dy, 0, kH - 1) * kW + std::clamp(x + dx, 0, kW - 1)];
        }
      }
      const int noisy = (sum + 4) / 9 + 3 + static_cast<int>(Lcg(&seed) % 9) - 4;
      d[y * kW + x] = static_cast<uint8_t>(std::clamp((noisy + 3) / 6 * 6, 0, 255));
    }
  }
  return d;
}

Thumbnail Thumb(const std::vector<uint8_t>& f) {
  return MakeThumbnail(f.data(), kW, kH, kW, 1, 1, 8, 0);
}

struct Scenario {
  const char* name;
  std::vector<int> ref, dist;  // content codes
  // Decided events expected, in order: reason and offset.
  std::vector<std::pair<AlignReason, int64_t>> events;
  int undecided = 0;    // undecided stretches expected
  int max_flagged = 0;  // pairs that may be flagged
  AlignMode mode = AlignMode::kAuto;
};

struct Run {
  std::vector<AlignVerdict> verdicts;
  std::vector<AlignEvent> events;
};

enum class Order { kLockstep, kRefFirst, kDistFirst };

// Feeds the thumbnails as the element does: a stream's frame comes in only
// while fewer than FramesHeld() of that stream are held (reference frames
// without a verdict; distorted frames from OldestDistNeeded(), below which
// the element frees them), and every verdict ready is taken. A state where
// neither stream may add a frame and no verdict comes is a deadlock, a
// failure.
Run Feed(const Scenario& s, const std::vector<Thumbnail>& ref, const std::vector<Thumbnail>& dist,
         Order order) {
  FrameAligner a(s.mode, 12);
  Run run;
  const int64_t held = a.FramesHeld();
  size_t r = 0, d = 0;
  while (run.verdicts.size() < ref.size()) {
    bool moved = false;
    const bool ref_may = r < ref.size() &&
                         static_cast<int64_t>(r) - static_cast<int64_t>(run.verdicts.size()) < held;
    const bool dist_may =
        d < dist.size() &&
        static_cast<int64_t>(d) - static_cast<int64_t>(a.OldestDistNeeded()) < held;
    if (ref_may && (order != Order::kDistFirst || !dist_may)) {
      a.AddRef(ref[r++]);
      if (r == ref.size()) a.EndRef();
      moved = true;
    }
    if (dist_may && (order != Order::kRefFirst || !ref_may)) {
      a.AddDist(dist[d++]);
      if (d == dist.size()) a.EndDist();
      moved = true;
    }
    AlignVerdict v;
    uint64_t oldest = a.OldestDistNeeded();
    while (a.Next(false, &v)) {
      S2C_CHECK(v.kind != AlignVerdict::Kind::kPair || v.dist_index >= oldest,
                "%s: ref %llu paired with dist %llu, below %llu that the element may free", s.name,
                static_cast<unsigned long long>(v.ref_index),
                static_cast<unsigned long long>(v.dist_index),
                static_cast<unsigned long long>(oldest));
      oldest = a.OldestDistNeeded();
      run.verdicts.push_back(v);
      moved = true;
    }
    AlignEvent e;
    while (a.TakeEvent(&e)) run.events.push_back(e);
    if (!S2C_CHECK(moved, "%s: deadlock with %zu ref, %zu dist frames in, %zu verdicts", s.name, r,
                   d, run.verdicts.size())) {
      break;
    }
  }
  return run;
}

bool SameRun(const Run& a, const Run& b) {
  if (a.verdicts.size() != b.verdicts.size() || a.events.size() != b.events.size()) return false;
  for (size_t i = 0; i < a.verdicts.size(); ++i) {
    const AlignVerdict &x = a.verdicts[i], &y = b.verdicts[i];
    if (x.kind != y.kind || x.ref_index != y.ref_index || x.dist_index != y.dist_index ||
        x.flagged != y.flagged) {
      return false;
    }
  }
  for (size_t i = 0; i < a.events.size(); ++i) {
    const AlignEvent &x = a.events[i], &y = b.events[i];
    if (x.reason != y.reason || x.offset_frames != y.offset_frames || x.ref_index != y.ref_index) {
      return false;
    }
  }
  return true;
}

// The offset at which reference frame i finds its picture first in the
// distorted stream (false: nowhere).
bool TrueOffset(const Scenario& s, size_t i, int64_t* offset) {
  const auto it = std::find(s.dist.begin(), s.dist.end(), s.ref[i]);
  if (it == s.dist.end()) return false;
  *offset = (it - s.dist.begin()) - static_cast<int64_t>(i);
  return true;
}

// A frame whose right partner is certain from the third frame after a
// change: a pan frame at the same offset as the three before it and the
// one after.
bool Settled(const Scenario& s, size_t i) {
  int64_t offset, other;
  if (!IsPan(s.ref[i]) || !TrueOffset(s, i, &offset)) return false;
  for (size_t m = i >= 3 ? i - 3 : 0; m <= std::min(i + 1, s.ref.size() - 1); ++m) {
    if (!IsPan(s.ref[m]) || !TrueOffset(s, m, &other) || other != offset) return false;
  }
  return true;
}

void Check(const Scenario& s, const Run& run) {
  if (!S2C_CHECK(run.verdicts.size() == s.ref.size(), "%s: %zu verdicts for %zu frames", s.name,
                 run.verdicts.size(), s.ref.size())) {
    return;
  }
  int64_t last_dist = -1;
  int flagged = 0, unpaired = 0;
  for (size_t i = 0; i < s.ref.size(); ++i) {
    const AlignVerdict& v = run.verdicts[i];
    S2C_CHECK(v.ref_index == i, "%s: verdict %zu is for ref %llu", s.name, i,
              static_cast<unsigned long long>(v.ref_index));
    const bool pair = v.kind == AlignVerdict::Kind::kPair;
    unpaired += !pair;
    int64_t offset;
    S2C_CHECK(pair || !TrueOffset(s, i, &offset), "%s: ref %zu unpaired, its partner is dist %lld",
              s.name, i, static_cast<long long>(i + offset));
    flagged += pair && v.flagged;
    if (pair) {
      const int64_t j = static_cast<int64_t>(v.dist_index);
      S2C_CHECK(j > last_dist && j < static_cast<int64_t>(s.dist.size()),
                "%s: ref %zu paired with dist %lld after the last unflagged pair's dist %lld",
                s.name, i, static_cast<long long>(j), static_cast<long long>(last_dist));
      if (!v.flagged) last_dist = j;
      S2C_CHECK(v.flagged || s.dist[j] == s.ref[i],
                "%s: unflagged pair of ref %zu (picture %d) with dist %lld (picture %d)", s.name, i,
                s.ref[i], static_cast<long long>(j), s.dist[j]);
    }
    if (Settled(s, i) && TrueOffset(s, i, &offset)) {
      S2C_CHECK(pair && !v.flagged && v.dist_index == i + offset,
                "%s: ref %zu not paired unflagged with its partner dist %lld (%s %llu%s)", s.name,
                i, static_cast<long long>(i + offset), pair ? "pair" : "unpaired",
                static_cast<unsigned long long>(v.dist_index), v.flagged ? " flagged" : "");
    }
  }
  S2C_CHECK(flagged <= s.max_flagged, "%s: %d pairs flagged, at most %d expected", s.name, flagged,
            s.max_flagged);
  std::vector<std::pair<AlignReason, int64_t>> decided;
  int undecided = 0;
  for (const AlignEvent& e : run.events) {
    S2C_CHECK(e.decided == (e.reason != AlignReason::kUndecided), "%s: event %s", s.name,
              s2c::AlignReasonName(e.reason));
    S2C_CHECK(!e.decided || (e.confidence > 0.0 && e.confidence <= 1.0),
              "%s: confidence %g of event %s", s.name, e.confidence,
              s2c::AlignReasonName(e.reason));
    if (e.decided) decided.emplace_back(e.reason, e.offset_frames);
    undecided += !e.decided;
  }
  S2C_CHECK(decided == s.events, "%s: %zu decided events (first %s %lld), %zu expected", s.name,
            decided.size(), decided.empty() ? "-" : s2c::AlignReasonName(decided[0].first),
            decided.empty() ? 0LL : static_cast<long long>(decided[0].second), s.events.size());
  S2C_CHECK(undecided == s.undecided, "%s: %d undecided events, %d expected", s.name, undecided,
            s.undecided);
  std::printf("%-24s %3zu frames: %2d flagged, %2d unpaired, %zu events\n", s.name, s.ref.size(),
              flagged, unpaired, run.events.size());
}

Run RunScenario(const Pictures& pics, const Scenario& s) {
  std::vector<Thumbnail> ref, dist;
  for (int code : s.ref) ref.push_back(Thumb(Frame(pics, code)));
  uint32_t seed = 1;
  for (int code : s.dist) dist.push_back(Thumb(Distort(Frame(pics, code), seed++)));
  const Run run = Feed(s, ref, dist, Order::kLockstep);
  Check(s, run);
  S2C_CHECK(SameRun(run, Feed(s, ref, dist, Order::kRefFirst)) &&
                SameRun(run, Feed(s, ref, dist, Order::kDistFirst)),
            "%s: the verdicts depend on the order of arrival", s.name);
  return run;
}

std::vector<int> Pan(int first, int count) {
  std::vector<int> v(count);
  for (int i = 0; i < count; ++i) v[i] = first + i;
  return v;
}

std::vector<int> Join(std::vector<int> a, const std::vector<int>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void TestOffsets(const Pictures& pics) {
  for (int k = 1; k <= 10; ++k) {
    const std::string late = "late by " + std::to_string(k);
    RunScenario(pics, {late.c_str(), Pan(0, 60), Pan(-k, 60 + k), {{AlignReason::kStart, k}}});
    const std::string early = "early by " + std::to_string(k);
    RunScenario(pics, {early.c_str(), Pan(0, 60), Pan(k, 60 - k), {{AlignReason::kStart, -k}}});
  }
}

void TestDropsAndRepeats(const Pictures& pics) {
  // The distorted stream loses picture 25 / shows picture 45 twice.
  std::vector<int> dropped = Pan(0, 70);
  dropped.erase(dropped.begin() + 25);
  RunScenario(pics, {"dropped at 25",
                     Pan(0, 70),
                     dropped,
                     {{AlignReason::kStart, 0}, {AlignReason::kDroppedFrame, -1}}});
  std::vector<int> repeated = Pan(0, 70);
  repeated.insert(repeated.begin() + 45, 45);
  RunScenario(pics, {"repeated 45",
                     Pan(0, 70),
                     repeated,
                     {{AlignReason::kStart, 0}, {AlignReason::kRepeatedFrame, 1}},
                     0,
                     1});
  // Late by 3, then both.
  std::vector<int> both = Pan(-3, 80);
  both.erase(both.begin() + 3 + 25);
  both.insert(both.begin() + 3 + 44, 45);
  RunScenario(pics, {"late 3, drop and repeat",
                     Pan(0, 75),
                     both,
                     {{AlignReason::kStart, 3},
                      {AlignReason::kDroppedFrame, 2},
                      {AlignReason::kRepeatedFrame, 3}},
                     0,
                     1});
  // A shaking pan loses a picture closer to the next (25) or to the
  // previous (26) than the other: one of two neighbours claims the same
  // distorted frame, the closer keeps it.
  for (int lost : {25, 26}) {
    std::vector<int> shaky = Pan(kShaky, 70);
    shaky.erase(shaky.begin() + lost);
    const std::string name = "shaking, dropped at " + std::to_string(lost);
    RunScenario(pics, {name.c_str(),
                       Pan(kShaky, 70),
                       shaky,
                       {{AlignReason::kStart, 0}, {AlignReason::kDroppedFrame, -1}}});
  }
  // Two frames swapped: both flagged, the offset stays.
  std::vector<int> swapped = Pan(0, 50);
  std::swap(swapped[30], swapped[31]);
  RunScenario(pics, {"swapped 30 and 31", Pan(0, 50), swapped, {{AlignReason::kStart, 0}}, 0, 2});
  // Three frames lost at once: a drift.
  std::vector<int> drift = Pan(0, 70);
  drift.erase(drift.begin() + 30, drift.begin() + 33);
  RunScenario(pics, {"three dropped at 30",
                     Pan(0, 70),
                     drift,
                     {{AlignReason::kStart, 0}, {AlignReason::kDrift, -3}},
                     0,
                     2});
}

void TestScenes(const Pictures& pics) {
  // 30 flat frames, then the pan, late by 2: the flat frames are paired
  // flagged in an undecided stretch, the pan decides.
  const std::vector<int> flat(30, kFlat);
  const Run dark = RunScenario(pics, {"flat, then late by 2",
                                      Join(flat, Pan(0, 40)),
                                      Join(std::vector<int>(32, kFlat), Pan(0, 40)),
                                      {{AlignReason::kStart, 2}},
                                      1,
                                      30});
  for (size_t i = 0; i < 30 && i < dark.verdicts.size(); ++i) {
    S2C_CHECK(dark.verdicts[i].flagged, "flat: ref %zu paired unflagged before a decision", i);
  }
  // A fade through three flat frames after the decision keeps the offset,
  // unflagged: nothing contradicts it.
  const std::vector<int> fade(3, kFlat);
  RunScenario(pics, {"fade, late by 2",
                     Join(Join(Pan(0, 20), fade), Pan(23, 20)),
                     Join(Join(Pan(-2, 22), fade), Pan(23, 20)),
                     {{AlignReason::kStart, 2}}});
  // One corrupt distorted frame (another picture) is a transient: its
  // reference frame is flagged, the offset stays.
  std::vector<int> glitch = Pan(0, 50);
  glitch[30] = kStill;
  RunScenario(pics, {"corrupt frame at 30", Pan(0, 50), glitch, {{AlignReason::kStart, 0}}, 0, 1});
  // A still shot of another photo cut to the pan, late by 4.
  const std::vector<int> still(6, kStill);
  RunScenario(pics, {"cut at the start, late 4",
                     Join(still, Pan(0, 40)),
                     Join(std::vector<int>(10, kStill), Pan(0, 40)),
                     {{AlignReason::kStart, 4}},
                     0,
                     6});
  // The distorted stream ends 10 frames early.
  RunScenario(pics, {"dist ends early", Pan(0, 50), Pan(-2, 42), {{AlignReason::kStart, 2}}});
  // The n-th with the n-th, whatever the pictures; no events.
  Scenario index{"index", Pan(0, 30), Pan(5, 20), {}};
  index.mode = AlignMode::kIndex;
  std::vector<Thumbnail> ref(30), dist(20);
  const Run run = Feed(index, ref, dist, Order::kLockstep);
  bool as_index = run.verdicts.size() == 30 && run.events.empty();
  for (size_t i = 0; as_index && i < run.verdicts.size(); ++i) {
    const AlignVerdict& v = run.verdicts[i];
    as_index = v.ref_index == i && !v.flagged &&
               (i < 20 ? v.kind == AlignVerdict::Kind::kPair && v.dist_index == i
                       : v.kind == AlignVerdict::Kind::kRefUnpaired);
  }
  S2C_CHECK(as_index, "index: not ref i with dist i, unpaired after the distorted stream's end");
}

// A live deadline: Next(true) gives a verdict from what is in now.
void TestForce(const Pictures& pics) {
  FrameAligner a(AlignMode::kAuto, 12);
  uint32_t seed = 7;
  // Late by 3: ref 0..40 and dist 0..33 in (ref 30's partner is the last).
  for (int i = 0; i <= 40; ++i) a.AddRef(Thumb(Frame(pics, i)));
  for (int j = 0; j <= 33; ++j) a.AddDist(Thumb(Distort(Frame(pics, j - 3), seed++)));
  AlignVerdict v;
  int paired = 0;
  while (a.Next(false, &v)) {
    paired += v.kind == AlignVerdict::Kind::kPair && !v.flagged && v.dist_index == v.ref_index + 3;
  }
  S2C_CHECK(a.decided() && a.offset() == 3, "force: decided %d offset %lld", a.decided(),
            static_cast<long long>(a.offset()));
  S2C_CHECK(paired > 0 && v.ref_index + 1 < 31, "force: %d pairs, the last for ref %llu", paired,
            static_cast<unsigned long long>(v.ref_index));
  // The deadline: the rest go now, paired where the partner is in.
  uint64_t next = v.ref_index + 1;
  while (a.Next(true, &v)) {
    S2C_CHECK(v.ref_index == next, "force: verdict for %llu, %llu expected",
              static_cast<unsigned long long>(v.ref_index), static_cast<unsigned long long>(next));
    if (v.ref_index <= 30) {
      S2C_CHECK(
          v.kind == AlignVerdict::Kind::kPair && v.dist_index == v.ref_index + 3 && !v.flagged,
          "force: ref %llu not paired with its partner", static_cast<unsigned long long>(next));
    } else {
      S2C_CHECK(v.kind == AlignVerdict::Kind::kRefUnpaired, "force: ref %llu has no partner yet",
                static_cast<unsigned long long>(next));
    }
    ++next;
  }
  S2C_CHECK(next == 41, "force: verdicts up to %llu", static_cast<unsigned long long>(next));
  // Forced before any decision: flagged at the assumed offset, undecided.
  FrameAligner b(AlignMode::kAuto, 12);
  b.AddRef(Thumb(Frame(pics, 0)));
  b.AddDist(Thumb(Frame(pics, 0)));
  S2C_CHECK(!b.Next(false, &v), "force: a verdict without the window");
  AlignEvent e;
  S2C_CHECK(b.Next(true, &v) && v.kind == AlignVerdict::Kind::kPair && v.dist_index == 0 &&
                v.flagged && b.TakeEvent(&e) && e.reason == AlignReason::kUndecided,
            "force: the undecided verdict");
}

// A feed lost and restored: the next decision is reported as such, from
// the oldest frame still waiting, and the pairs go on at the offset found
// again.
void TestRestart(const Pictures& pics) {
  FrameAligner a(AlignMode::kAuto, 12);
  uint32_t seed = 11;
  AlignVerdict v;
  AlignEvent e;
  std::vector<AlignEvent> events;
  int right = 0, verdicts = 0, waiting = 0;
  for (int i = 0; i < 60; ++i) {
    if (i == 30) {
      a.Restart(AlignReason::kFeedRestored);
      waiting = verdicts;  // the oldest reference frame without a verdict
    }
    a.AddRef(Thumb(Frame(pics, i)));
    a.AddDist(Thumb(Distort(Frame(pics, i - 2), seed++)));
    while (a.Next(false, &v)) {
      ++verdicts;
      right += v.kind == AlignVerdict::Kind::kPair && !v.flagged && v.dist_index == v.ref_index + 2;
    }
    while (a.TakeEvent(&e)) events.push_back(e);
  }
  S2C_CHECK(events.size() == 2 && events[0].reason == AlignReason::kStart &&
                events[1].reason == AlignReason::kFeedRestored && events[1].offset_frames == 2 &&
                events[1].ref_index == static_cast<uint64_t>(waiting) && a.decided(),
            "restart: %zu events, the second %s", events.size(),
            events.size() > 1 ? s2c::AlignReasonName(events[1].reason) : "-");
  S2C_CHECK(right == verdicts && verdicts > 40, "restart: %d of %d verdicts right", right,
            verdicts);
}

// The same picture as 8-bit samples, 10-bit ones in the low bits and in
// the high bits of 16-bit words (P010), and the green of packed RGB: the
// same thumbnail, float for float.
void TestThumbnails(const Pictures& pics) {
  const Plane& p = pics.tank;
  const size_t n = static_cast<size_t>(p.width) * p.height;
  std::vector<uint8_t> low(2 * n), high(2 * n), packed(3 * n);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t v10 = static_cast<uint16_t>(p.px[i] << 2), v16 = static_cast<uint16_t>(v10 << 6);
    low[2 * i] = static_cast<uint8_t>(v10), low[2 * i + 1] = static_cast<uint8_t>(v10 >> 8);
    high[2 * i] = static_cast<uint8_t>(v16), high[2 * i + 1] = static_cast<uint8_t>(v16 >> 8);
    packed[3 * i] = 255, packed[3 * i + 1] = p.px[i], packed[3 * i + 2] = 0;
  }
  const Thumbnail t8 = MakeThumbnail(p.px.data(), p.width, p.height, p.width, 1, 1, 8, 0);
  const Thumbnail t10 = MakeThumbnail(low.data(), p.width, p.height, 2 * p.width, 2, 2, 10, 0);
  const Thumbnail tp = MakeThumbnail(high.data(), p.width, p.height, 2 * p.width, 2, 2, 10, 6);
  const Thumbnail tg = MakeThumbnail(packed.data() + 1, p.width, p.height, 3 * p.width, 3, 1, 8, 0);
  S2C_CHECK(!t8.flat, "the tank photo is flat");
  double sum = 0.0, squares = 0.0;
  for (size_t b = 0; b < t8.v.size(); ++b) {
    S2C_CHECK_SAME(t10.v[b], t8.v[b], "block %zu at 10 bits", b);
    S2C_CHECK_SAME(tp.v[b], t8.v[b], "block %zu at 10 bits, shifted", b);
    S2C_CHECK_SAME(tg.v[b], t8.v[b], "block %zu of packed RGB", b);
    sum += t8.v[b];
    squares += t8.v[b] * t8.v[b];
  }
  const double mean = sum / t8.v.size(), deviation = std::sqrt(squares / t8.v.size());
  S2C_CHECK(std::fabs(mean) < 1e-5 && std::fabs(deviation - 1.0) < 1e-5,
            "normalised to mean %g, deviation %g", mean, deviation);

  // Flat: a dark frame with noise of one level; a faint gradient of 8
  // levels across is not.
  std::vector<uint8_t> frame(kW * kH);
  uint32_t seed = 3;
  for (uint8_t& s : frame) s = static_cast<uint8_t>(16 + Lcg(&seed) % 2);
  const Thumbnail dark = Thumb(frame);
  S2C_CHECK(dark.flat && std::all_of(dark.v.begin(), dark.v.end(), [](float f) { return f == 0; }),
            "a dark frame with noise is not flat (or has values)");
  for (int y = 0; y < kH; ++y) {
    for (int x = 0; x < kW; ++x) frame[y * kW + x] = static_cast<uint8_t>(16 + x * 8 / kW);
  }
  S2C_CHECK(!Thumb(frame).flat, "a gradient of 8 levels is flat");
  // A plane smaller than the grid: blocks share its samples.
  const uint8_t tiny[8 * 8] = {0, 9, 18, 27, 36, 45, 54, 63, 200, 0};
  const Thumbnail small = MakeThumbnail(tiny, 8, 8, 8, 1, 1, 8, 0);
  S2C_CHECK(!small.flat && std::all_of(small.v.begin(), small.v.end(),
                                       [](float f) { return std::isfinite(f); }),
            "an 8x8 plane has no thumbnail");
}

}  // namespace

int main() {
  const std::string dir = s2c::test::TestdataDir();
  s2c::test::HostImage flower, tank;
  if (!s2c::test::LoadPng(dir + "/flower_small.png", &flower) ||
      !s2c::test::LoadPng(dir + "/tank_source.png", &tank)) {
    return s2c::test::Finish();
  }
  Pictures pics{Luma(flower), Luma(tank)};
  TestThumbnails(pics);
  TestOffsets(pics);
  TestDropsAndRepeats(pics);
  TestScenes(pics);
  TestForce(pics);
  TestRestart(pics);
  return s2c::test::Finish();
}
