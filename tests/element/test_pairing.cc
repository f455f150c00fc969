// SPDX-License-Identifier: BSD-3-Clause
// The pairing policy on its own: every branch of DecidePairing.
#include <cstdint>
#include <cstdio>

#include "pairing.h"

namespace {

int failures = 0;

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

void Expect(const char* what, s2c::PairAction got, s2c::PairAction want) {
  if (got != want) {
    std::printf("FAIL %s: got %d, want %d\n", what, static_cast<int>(got),
                static_cast<int>(want));
    ++failures;
  }
}

void ExpectValue(const char* what, int64_t got, int64_t want) {
  if (got != want) {
    std::printf("FAIL %s: got %lld, want %lld\n", what, static_cast<long long>(got),
                static_cast<long long>(want));
    ++failures;
  }
}

constexpr int64_t kTol = 1000000;

}  // namespace

int main() {
  using s2c::DecidePairing;
  using A = s2c::PairAction;
  Expect("equal times pair", DecidePairing(Timed(40), Timed(40), kTol, false, true), A::kPair);
  Expect("within tolerance pairs", DecidePairing(Timed(40000000), Timed(40000000 + kTol), kTol, false, true), A::kPair);
  Expect("just outside tolerance: ref has none",
         DecidePairing(Timed(40000000), Timed(40000000 + kTol + 1), kTol, false, true), A::kRefUnpaired);
  Expect("distorted too early is dropped",
         DecidePairing(Timed(40000000), Timed(40000000 - kTol - 1), kTol, false, true), A::kDistUnpaired);
  Expect("negative running time (offset) is compared signed",
         DecidePairing(Timed(0), Timed(-40000000), kTol, false, true), A::kDistUnpaired);
  Expect("untimed pair in arrival order", DecidePairing(Untimed(), Untimed(), kTol, false, true), A::kPair);
  Expect("one side untimed pairs in arrival order", DecidePairing(Timed(5), Untimed(), kTol, false, true), A::kPair);
  Expect("distorted ended: ref passes", DecidePairing(Timed(0), Eos(), kTol, false, true), A::kRefUnpaired);
  Expect("reference ended: dist dropped", DecidePairing(Eos(), Timed(0), kTol, false, true), A::kDistUnpaired);
  Expect("both ended", DecidePairing(Eos(), Eos(), kTol, false, true), A::kDone);
  Expect("waiting for distorted", DecidePairing(Timed(0), Empty(), kTol, false, true), A::kWait);
  Expect("deadline passes ref unscored", DecidePairing(Timed(0), Empty(), kTol, true, true), A::kRefLate);
  Expect("deadline with wait policy keeps waiting", DecidePairing(Timed(0), Empty(), kTol, true, false), A::kWait);
  Expect("no reference yet", DecidePairing(Empty(), Timed(0), kTol, true, true), A::kWait);
  Expect("reference ended, distorted still coming", DecidePairing(Eos(), Empty(), kTol, false, true), A::kWait);
  Expect("live: reference ended, nothing from distorted at the deadline",
         DecidePairing(Eos(), Empty(), kTol, true, true), A::kDone);
  Expect("reference ended, wait policy keeps waiting for distorted",
         DecidePairing(Eos(), Empty(), kTol, true, false), A::kWait);
  // The extremes of the properties: no time arithmetic wraps around.
  constexpr int64_t kMax = INT64_MAX, kMin = INT64_MIN;
  Expect("largest tolerance pairs any two times",
         DecidePairing(Timed(40000000), Timed(0), kMax, false, true), A::kPair);
  Expect("largest tolerance, far apart", DecidePairing(Timed(kMax), Timed(kMin), kMax, false, true),
         A::kDistUnpaired);
  Expect("largest tolerance from the other side",
         DecidePairing(Timed(kMin), Timed(kMax), kMax, false, true), A::kRefUnpaired);
  Expect("largest tolerance at the top pairs",
         DecidePairing(Timed(kMax), Timed(kMax - 5), kMax, false, true), A::kPair);
  Expect("a late reference at the bottom does not wrap",
         DecidePairing(Timed(kMin + 3), Timed(kMin), 10, false, true), A::kPair);
  ExpectValue("add saturates up", s2c::SaturatingAdd(kMax - 1, 5), kMax);
  ExpectValue("add saturates down", s2c::SaturatingAdd(kMin + 1, -5), kMin);
  ExpectValue("add in range", s2c::SaturatingAdd(-7, 3), -4);
  ExpectValue("sub saturates down", s2c::SaturatingSub(kMin + 1, 5), kMin);
  ExpectValue("sub saturates up", s2c::SaturatingSub(kMax - 1, -5), kMax);
  ExpectValue("running time + largest offset", s2c::OffsetRunningTime(1, 10, kMax), kMax);
  ExpectValue("running time + smallest offset", s2c::OffsetRunningTime(1, 10, kMin), kMin + 10);
  ExpectValue("negative running time + smallest offset", s2c::OffsetRunningTime(-1, 10, kMin), kMin);
  ExpectValue("magnitude above INT64_MAX", s2c::OffsetRunningTime(1, ~uint64_t{0}, -1), kMax - 1);
  ExpectValue("latency in range", static_cast<int64_t>(s2c::SaturatingLatency(3, 4)), 7);
  ExpectValue("latency saturates", static_cast<int64_t>(s2c::SaturatingLatency(5, uint64_t{1} << 63)), kMax);
  ExpectValue("latency at the top", static_cast<int64_t>(s2c::SaturatingLatency(uint64_t(kMax), 0)), kMax);
  if (failures == 0) std::printf("pairing: all cases pass\n");
  return failures == 0 ? 0 : 1;
}
