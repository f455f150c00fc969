// SPDX-License-Identifier: BSD-3-Clause
// The reference buffers on their way out of the element, in order
// (ElementState::pending): each is sent unscored, waits for room on the
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

#include "element_state.h"

namespace s2c {

// Queues a reference that leaves unscored when its turn comes (live: at
// the deadline of `running_time`, NONE for at once).
void QueueUnscored(ElementState* p, GstBuffer* ref, GstClockTime running_time);

// Queues a reference before ref-start-frame, left out on purpose: it
// leaves unscored in its turn and counts in no window or coverage.
void QueueExcluded(ElementState* p, GstBuffer* ref, GstClockTime running_time);

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
void DropPending(ElementState* p);

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
