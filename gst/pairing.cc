// SPDX-License-Identifier: BSD-3-Clause
#include "pairing.h"

namespace s2c {

PairAction DecidePairing(const PadHead& ref, const PadHead& dist,
                         int64_t tolerance_ns, bool timeout, bool pass_late) {
  if (!ref.has_buffer) {
    if (!ref.eos) return PairAction::kWait;
    if (dist.has_buffer) return PairAction::kDistUnpaired;
    return dist.eos ? PairAction::kDone : PairAction::kWait;
  }
  if (!dist.has_buffer) {
    if (dist.eos) return PairAction::kRefUnpaired;
    return timeout && pass_late ? PairAction::kRefLate : PairAction::kWait;
  }
  if (!ref.timed || !dist.timed) return PairAction::kPair;
  if (dist.running_time < ref.running_time - tolerance_ns) {
    return PairAction::kDistUnpaired;
  }
  if (dist.running_time > ref.running_time + tolerance_ns) {
    return PairAction::kRefUnpaired;
  }
  return PairAction::kPair;
}

}  // namespace s2c
