// SPDX-License-Identifier: BSD-3-Clause
// The reference buffers on their way out of the element, in order
// (OutputQueueState::pending): each is sent unscored, waits for room on the
// backend, or is being scored. Both backends are asynchronous, so a pair in
// flight keeps its frames mapped until its result is collected.
//
// Live, with live-policy=pass-unscored, nothing here waits for the backend:
// every reference leaves at its deadline (its running time plus the
// aggregator's latency, when GstAggregator's own timeout fires), scored if
// its score is ready by then and unscored otherwise (ref-skipped). Leaving
// at the deadline rather than as soon as possible keeps the sink from
// blocking the streaming thread, which must stay free to start pairs. A
// pair not started by its deadline is never started, so the backend only
// works on pairs that can still be useful and the queue never holds more
// than the latency. Otherwise (not live, or the wait policy) every pair is
// scored, a reference leaves as soon as it is ready, and the element waits
// while the backend is full.
#ifndef S2C_GST_OUTPUT_QUEUE_H_
#define S2C_GST_OUTPUT_QUEUE_H_

#include <gst/video/video.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>

#include "backend.h"
#include "gstssimulacra2cmp.h"
#include "score_message.h"

namespace s2c {

// What becomes of one reference buffer on its way out.
enum class PairState {
  kUnscored,  // leaves as it is: unpaired, late, skipped
  kWaiting,   // paired, waiting for room on the backend
  kScoring,   // on the backend, both frames mapped until its result is collected
  kScored,    // its score is in `frame`, waiting for its turn to leave
};

// One reference buffer on its way out, in output order.
struct Pending {
  PairState state = PairState::kUnscored;
  GstBuffer* ref = nullptr;
  bool gap = false;  // kUnscored: `ref` is a GAP event's empty buffer
  // kUnscored: before ref-start-frame, left out on purpose: it counts in no
  // window and no coverage.
  bool excluded = false;
  GstBuffer* dist = nullptr;  // kWaiting: the partner, not mapped yet
  GstVideoFrame ref_frame = {};   // kScoring
  GstVideoFrame dist_frame = {};  // kScoring
  uint64_t tag = 0;
  GstClockTime started_at = GST_CLOCK_TIME_NONE;  // live: running time at submission
  FrameMessage frame;  // what the frame message will say (the score once kScored)
};

// The backend and the queue of reference buffers on their way out.
// Streaming state: the source pad task, start/stop and flush touch it,
// never at the same time (the base class stops the task around flush).
struct OutputQueueState {
  std::unique_ptr<Backend> backend;
  bool backend_is_cuda = false;
  // The backend's DeviceBytes after its last Configure or Submit, for the
  // device-memory property, which the application reads from its own
  // thread; 0 without a backend.
  std::atomic<uint64_t> device_bytes{0};
  // The frame size the backend is set up for (frame_flow.cc); 0 until the
  // first pair.
  int configured_width = 0;
  int configured_height = 0;
  // PairsInFlight when the element last warned that the backend keeps
  // fewer pairs than max-in-flight (0: no warning since start).
  int warned_pairs = 0;
  std::deque<Pending> pending;
  // Live: pairs whose reference went out unscored at its deadline while the
  // backend was still scoring them. Older than every pair in `pending`;
  // their frames stay mapped until the backend is done with them.
  std::deque<Pending> abandoned;
  // The aggregator's latency as the streaming path last read it (NONE: not
  // live), for get_next_time, which runs under the lock that reading takes.
  GstClockTime live_latency = GST_CLOCK_TIME_NONE;
  // Live: the backend's recent time per pair (0 until a first result) and
  // the running time of the last result, for starting only pairs that can
  // be scored in time.
  GstClockTime pair_time = 0;
  GstClockTime last_result_at = GST_CLOCK_TIME_NONE;
  uint64_t next_tag = 0;  // the backend's tag for the next pair submitted
};

// Queues a reference that leaves unscored when its turn comes (live: at
// the deadline of `running_time`, NONE for at once).
void QueueUnscored(OutputQueueState* q, GstBuffer* ref, GstClockTime running_time);

// Queues a reference before ref-start-frame, left out on purpose: it
// leaves unscored in its turn and counts in no window or coverage.
void QueueExcluded(OutputQueueState* q, GstBuffer* ref, GstClockTime running_time);

// Queues a GAP event's buffer from ref_sink (taken): it leaves as a GAP
// event with its timestamp and duration, and is counted in ref-gaps.
void QueueGap(ElementState* p, GstBuffer* gap, GstClockTime running_time);

// Queues a pair for scoring (both buffers taken) and drains.
GstFlowReturn QueuePair(GstSsimulacra2Cmp* self, GstBuffer* ref, GstBuffer* dist,
                        const FrameMessage& frame);

// Starts the waiting pairs the backend has room for and sends out the
// front of the queue while it is ready. Not live: waits for the backend
// while more than `keep` pairs are on it; `keep` 0 drains everything, waits
// included, live or not (EOS, a new frame size).
GstFlowReturn Drain(GstSsimulacra2Cmp* self, int keep);

// Drops every pair in flight (the CPU backend abandons them, other
// backends finish them) and throws the results and buffers away (flush,
// stop): nothing of the old segment goes out.
void DropPending(OutputQueueState* q);

// Live with pass-unscored: whether the deadline of a reference frame with
// this running time has passed. Always false otherwise.
bool DeadlinePassed(GstSsimulacra2Cmp* self, GstClockTime running_time);

// Live with pass-unscored: the running time the aggregator should wake at
// next for the queue's sake (the front's deadline, or a short poll while
// the backend has pairs, since it cannot wake the aggregator itself). NONE
// otherwise. Safe in get_next_time (the aggregator's lock held): uses the
// latency the last Drain read.
GstClockTime QueueNextTime(GstSsimulacra2Cmp* self);

}  // namespace s2c

#endif  // S2C_GST_OUTPUT_QUEUE_H_
