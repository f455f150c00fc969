// SPDX-License-Identifier: BSD-3-Clause
// The pairing policy on its own: every branch of DecidePairing.
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
  if (failures == 0) std::printf("pairing: all cases pass\n");
  return failures == 0 ? 0 : 1;
}
