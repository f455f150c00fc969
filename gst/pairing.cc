// SPDX-License-Identifier: BSD-3-Clause
#include "pairing.h"

namespace s2c {

PairAction DecidePairing(const PadHead& ref, const PadHead& dist,
                         int64_t tolerance_ns, bool timeout, bool pass_late) {
  if (!ref.has_buffer) {
    if (!ref.eos) return PairAction::kWait;
    if (dist.has_buffer) return PairAction::kDistUnpaired;
    // Live, the reference has ended and the distorted feed has nothing at
    // the deadline: whatever it sends later could only go unpaired.
    return dist.eos || (timeout && pass_late) ? PairAction::kDone : PairAction::kWait;
  }
  if (!dist.has_buffer) {
    if (dist.eos) return PairAction::kRefUnpaired;
    return timeout && pass_late ? PairAction::kRefLate : PairAction::kWait;
  }
  if (!ref.timed || !dist.timed) return PairAction::kPair;
  if (dist.running_time < SaturatingSub(ref.running_time, tolerance_ns)) {
    return PairAction::kDistUnpaired;
  }
  if (dist.running_time > SaturatingAdd(ref.running_time, tolerance_ns)) {
    return PairAction::kRefUnpaired;
  }
  return PairAction::kPair;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  return b < 0 ? INT64_MAX : INT64_MIN;
}

int64_t OffsetRunningTime(int sign, uint64_t magnitude, int64_t offset) {
  const int64_t m = magnitude > static_cast<uint64_t>(INT64_MAX)
                        ? INT64_MAX
                        : static_cast<int64_t>(magnitude);
  return SaturatingAdd(sign < 0 ? -m : m, offset);
}

uint64_t SaturatingLatency(uint64_t a, uint64_t b) {
  constexpr uint64_t kMax = static_cast<uint64_t>(INT64_MAX);
  if (a >= kMax || b >= kMax - a) return kMax;
  return a + b;
}

}  // namespace s2c
