// SPDX-License-Identifier: BSD-3-Clause
// The pairing policy on its own: every branch of DecidePairing, the
// saturating time arithmetic, and the measured frame period.
#include <cinttypes>
#include <cstdint>
#include <initializer_list>

#include "check.h"
#include "pairing.h"

namespace {

s2c::PadHead Timed(int64_t t) {
  s2c::PadHead h;
  h.has_buffer = true;
  h.timed = true;
  h.running_time = t;
  return h;
}
s2c::PadHead Untimed() {
  s2c::PadHead h;
  h.has_buffer = true;
  return h;
}
s2c::PadHead Eos() {
  s2c::PadHead h;
  h.eos = true;
  return h;
}
s2c::PadHead Empty() { return s2c::PadHead(); }

constexpr int64_t kTol = 1000000;

// The period a FramePeriod gives after the reference running times
// `times`, all without a duration.
int64_t PeriodOf(std::initializer_list<int64_t> times) {
  s2c::FramePeriod period;
  for (int64_t t : times) period.Note(t, 0);
  return period.Get();
}

}  // namespace

int main() {
  using s2c::DecidePairing;
  using A = s2c::PairAction;
  constexpr int64_t kMax = INT64_MAX, kMin = INT64_MIN;
  const struct {
    const char* what;
    A got, want;
  } kActions[] = {
      {"equal times pair",
       DecidePairing(Timed(40), Timed(40), kTol, false, true), A::kPair},
      {"within tolerance pairs",
       DecidePairing(Timed(40000000), Timed(40000000 + kTol), kTol, false, true), A::kPair},
      {"just outside tolerance: ref has none",
       DecidePairing(Timed(40000000), Timed(40000000 + kTol + 1), kTol, false, true),
       A::kRefUnpaired},
      {"distorted too early is dropped",
       DecidePairing(Timed(40000000), Timed(40000000 - kTol - 1), kTol, false, true),
       A::kDistUnpaired},
      {"negative running time (offset) is compared signed",
       DecidePairing(Timed(0), Timed(-40000000), kTol, false, true), A::kDistUnpaired},
      {"untimed pair in arrival order",
       DecidePairing(Untimed(), Untimed(), kTol, false, true), A::kPair},
      {"one side untimed pairs in arrival order",
       DecidePairing(Timed(5), Untimed(), kTol, false, true), A::kPair},
      {"distorted ended: ref passes",
       DecidePairing(Timed(0), Eos(), kTol, false, true), A::kRefUnpaired},
      {"reference ended: dist dropped",
       DecidePairing(Eos(), Timed(0), kTol, false, true), A::kDistUnpaired},
      {"both ended",
       DecidePairing(Eos(), Eos(), kTol, false, true), A::kDone},
      {"waiting for distorted",
       DecidePairing(Timed(0), Empty(), kTol, false, true), A::kWait},
      {"deadline passes ref unscored",
       DecidePairing(Timed(0), Empty(), kTol, true, true), A::kRefLate},
      {"deadline with wait policy keeps waiting",
       DecidePairing(Timed(0), Empty(), kTol, true, false), A::kWait},
      {"no reference yet",
       DecidePairing(Empty(), Timed(0), kTol, true, true), A::kWait},
      {"reference ended, distorted still coming",
       DecidePairing(Eos(), Empty(), kTol, false, true), A::kWait},
      {"live: reference ended, nothing from distorted at the deadline",
       DecidePairing(Eos(), Empty(), kTol, true, true), A::kDone},
      {"reference ended, wait policy keeps waiting for distorted",
       DecidePairing(Eos(), Empty(), kTol, true, false), A::kWait},
      // The extremes of the properties: no time arithmetic wraps around.
      {"largest tolerance pairs any two times",
       DecidePairing(Timed(40000000), Timed(0), kMax, false, true), A::kPair},
      {"largest tolerance, far apart",
       DecidePairing(Timed(kMax), Timed(kMin), kMax, false, true), A::kDistUnpaired},
      {"largest tolerance from the other side",
       DecidePairing(Timed(kMin), Timed(kMax), kMax, false, true), A::kRefUnpaired},
      {"largest tolerance at the top pairs",
       DecidePairing(Timed(kMax), Timed(kMax - 5), kMax, false, true), A::kPair},
      {"a late reference at the bottom does not wrap",
       DecidePairing(Timed(kMin + 3), Timed(kMin), 10, false, true), A::kPair},
  };
  for (const auto& c : kActions) {
    S2C_CHECK(c.got == c.want, "%s: got action %d, want %d", c.what, static_cast<int>(c.got),
              static_cast<int>(c.want));
  }
  // The time arithmetic saturates rather than wrapping around.
  const struct {
    const char* what;
    int64_t got, want;
  } kValues[] = {
      {"add saturates up", s2c::SaturatingAdd(kMax - 1, 5), kMax},
      {"add saturates down", s2c::SaturatingAdd(kMin + 1, -5), kMin},
      {"add in range", s2c::SaturatingAdd(-7, 3), -4},
      {"sub saturates down", s2c::SaturatingSub(kMin + 1, 5), kMin},
      {"sub saturates up", s2c::SaturatingSub(kMax - 1, -5), kMax},
      {"running time + largest offset", s2c::OffsetRunningTime(1, 10, kMax), kMax},
      {"running time + smallest offset", s2c::OffsetRunningTime(1, 10, kMin), kMin + 10},
      {"negative running time + smallest offset", s2c::OffsetRunningTime(-1, 10, kMin), kMin},
      {"magnitude above INT64_MAX", s2c::OffsetRunningTime(1, ~uint64_t{0}, -1), kMax - 1},
      {"latency in range", static_cast<int64_t>(s2c::SaturatingLatency(3, 4)), 7},
      {"latency saturates",
       static_cast<int64_t>(s2c::SaturatingLatency(5, uint64_t{1} << 63)), kMax},
      {"latency at the top",
       static_cast<int64_t>(s2c::SaturatingLatency(uint64_t(kMax), 0)), kMax},
  };
  for (const auto& c : kValues) {
    S2C_CHECK(c.got == c.want, "%s: got %" PRId64 ", want %" PRId64, c.what, c.got, c.want);
  }
  // The reference's frame period without a framerate in its caps (40 ms
  // frames): the median spacing of the first eight, then fixed; a stated
  // duration at once.
  s2c::FramePeriod stated;
  stated.Note(100, 40);
  stated.Note(900, 0);
  constexpr int64_t kF = 40000000;
  const struct {
    const char* what;
    int64_t got, want;
  } kPeriods[] = {
      {"unknown from one frame", PeriodOf({0}), 0},
      {"one spacing", PeriodOf({0, kF}), kF},
      {"the same buffer seen again adds nothing", PeriodOf({0, 0, kF, kF}), kF},
      {"a dropped frame does not double it", PeriodOf({0, kF, 3 * kF, 4 * kF, 5 * kF}), kF},
      {"a burst after a stall does not halve it",
       PeriodOf({0, kF, 2 * kF, 3 * kF + 30000000, 4 * kF, 5 * kF}), kF},
      {"fixed after eight spacings",
       PeriodOf({0, kF, 2 * kF, 3 * kF, 4 * kF, 5 * kF, 6 * kF, 7 * kF, 8 * kF, 8 * kF + 1000,
                 8 * kF + 2000, 8 * kF + 3000, 8 * kF + 4000, 8 * kF + 5000}),
       kF},
      {"a buffer's duration at once", stated.Get(), 40},
  };
  for (const auto& c : kPeriods) {
    S2C_CHECK(c.got == c.want, "%s: got %" PRId64 ", want %" PRId64, c.what, c.got, c.want);
  }
  return s2c::test::Finish();
}
