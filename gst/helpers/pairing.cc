// SPDX-License-Identifier: BSD-3-Clause
#include "pairing.h"

#include <algorithm>

namespace s2c {

const char* PairActionName(PairAction action) {
  switch (action) {
    case PairAction::kWait: return "wait";
    case PairAction::kPair: return "pair";
    case PairAction::kRefUnpaired: return "ref-unpaired";
    case PairAction::kRefLate: return "ref-late";
    case PairAction::kDistUnpaired: return "dist-unpaired";
    case PairAction::kDone: return "done";
  }
  return "?";
}

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

void FramePeriod::Note(int64_t running_time, int64_t duration) {
  if (duration > 0 && count_ < kSpacings) {
    period_ = duration;
    count_ = kSpacings;  // stated: fixed
  }
  if (count_ >= kSpacings) return;
  if (has_last_ && running_time > last_) {
    spacings_[count_++] = running_time - last_;
    // The median so far (the lower one of an even count), final at kSpacings.
    int64_t sorted[kSpacings];
    std::copy(spacings_, spacings_ + count_, sorted);
    std::nth_element(sorted, sorted + (count_ - 1) / 2, sorted + count_);
    period_ = sorted[(count_ - 1) / 2];
  }
  if (!has_last_ || running_time > last_) last_ = running_time;
  has_last_ = true;
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
