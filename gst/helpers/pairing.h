// SPDX-License-Identifier: BSD-3-Clause
// Pairing policy of the element, as pure logic: given the head of each sink
// pad, decide whether to score them together, to let one go unpaired, or to
// wait for more data. No GStreamer types, so it is unit-tested on its own.
#ifndef S2C_GST_PAIRING_H_
#define S2C_GST_PAIRING_H_

#include <cstdint>

namespace s2c {

// What one pad offers right now.
struct PadHead {
  bool has_buffer = false;
  bool eos = false;             // no buffer queued and the pad is at EOS
  bool timed = false;           // the buffer has a valid running time
  int64_t running_time = 0;     // ns; for the distorted pad after dist-offset
};

enum class PairAction {
  kWait,          // nothing can be decided yet
  kPair,          // score the two heads together
  kRefUnpaired,   // the reference head has no partner: pass it unscored
  kRefLate,       // timeout in a live pipeline: pass the reference unscored
  kDistUnpaired,  // the distorted head has no partner: drop it
  kDone,          // both pads are at EOS with nothing queued
};

// The action's name for the debug log ("pair", "ref-unpaired", ...).
const char* PairActionName(PairAction action);

// Pairs by running time within `tolerance_ns` (inclusive). Buffers without a
// timestamp (a still image from filesrc ! pngdec) pair in arrival order. A
// distorted buffer earlier than the reference by more than the tolerance can
// never pair (later references only get later) and is dropped; one later by
// more than the tolerance means the reference has none. The reference pairs
// with the earliest distorted frame within the tolerance. `timeout` is the
// live-pipeline deadline: a reference still waiting for its partner then goes
// out unscored when `pass_late` is set, instead of stalling the video; and
// once the reference has ended, a distorted feed with nothing queued at the
// deadline ends the stream.
PairAction DecidePairing(const PadHead& ref, const PadHead& dist,
                         int64_t tolerance_ns, bool timeout, bool pass_late);

// The reference's frame period where its caps state no framerate (0/1: RTP
// depayloaders without a-framerate, variable-rate sources), for the live
// pairing tolerance and latency: a buffer's duration when it has one, else
// the median of the spacings of the first kSpacings running times, which a
// dropped frame (a double spacing) or a burst after a stall (a short one)
// does not move. Then fixed, so that the latency it sets does not follow
// every jitter. 0 while unknown.
class FramePeriod {
 public:
  static constexpr int kSpacings = 8;

  // A reference buffer seen at the pad (again, maybe: a running time not
  // later than the last adds nothing); `duration` <= 0: none.
  void Note(int64_t running_time, int64_t duration);
  int64_t Get() const { return period_; }
  void Reset() { *this = FramePeriod(); }

 private:
  bool has_last_ = false;
  int64_t last_ = 0;
  int count_ = 0;
  int64_t spacings_[kSpacings] = {};
  int64_t period_ = 0;
};

// Time arithmetic of pairing, saturating instead of wrapping: the
// properties span all of int64 (dist-offset) and [0, G_MAXINT64]
// (pairing-tolerance), so running time + offset or +- tolerance can pass
// the range. A saturated bound compares as it should: nothing is earlier
// than INT64_MIN or later than INT64_MAX.
int64_t SaturatingAdd(int64_t a, int64_t b);
int64_t SaturatingSub(int64_t a, int64_t b);

// A pad's running time (gst_segment_to_running_time_full: sign and
// magnitude, the magnitude up to 2^64 - 1) plus `offset`, in signed ns.
int64_t OffsetRunningTime(int sign, uint64_t magnitude, int64_t offset);

// Nanoseconds of latency: a + b for a, b >= 0, at most INT64_MAX (a
// GstClockTime below GST_CLOCK_TIME_NONE that adds to a running time
// without wrapping GStreamer's own arithmetic far sooner).
uint64_t SaturatingLatency(uint64_t a, uint64_t b);

}  // namespace s2c

#endif  // S2C_GST_PAIRING_H_
