// SPDX-License-Identifier: BSD-3-Clause
// The interface every backend (CPU reference, CUDA) offers to the element and
// the tools: pairs are submitted in order and their results collected in the
// same order. Both backends are asynchronous: Submit checks and enqueues a
// pair and returns at once; the CPU backend scores on its own worker thread,
// the CUDA backend on a stream.
#ifndef S2C_BACKEND_H_
#define S2C_BACKEND_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "metrics.h"
#include "status.h"
#include "steps/frame.h"
#include "subscores.h"

namespace s2c {

enum class MemoryKind { kHost, kDevice };

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;

  // The metrics of every later pair (Metric bits, at least one; a new
  // backend computes kMetricSsimulacra2). Called with nothing in flight,
  // before Configure (which sizes the workspaces for them). SSIM adds a
  // check at Submit: both frames YUV of one format.
  virtual Status SetMetrics(unsigned metrics) = 0;

  // Sizes workspaces for frames of width x height (both sides >= kMinSide).
  // Called before the first Submit and whenever the size changes; no
  // allocation happens per frame.
  virtual Status Configure(int width, int height) = 0;

  // Enqueues one pair. `memory` says where the planes live; the planes must
  // stay valid and unchanged until this pair's result has been collected.
  // `tag` comes back with the result. Fails (and enqueues nothing) on bad
  // input: sizes that differ from each other or from Configure, unsupported
  // formats, strides too small.
  virtual Status Submit(const FrameView& ref, const FrameView& dist,
                        MemoryKind memory, uint64_t tag) = 0;

  // Pairs submitted and not yet collected.
  virtual int InFlight() const = 0;

  // Pairs Submit takes at once, for the frame size of the last Configure:
  // the most a caller may keep in flight. A backend with one workspace per
  // pair says how many it holds (the CUDA backend: max_in_flight, or fewer
  // under a device memory limit); one that queues without bound (the CPU
  // backend) says INT_MAX.
  virtual int Capacity() const = 0;

  // Device memory this backend holds now, in bytes (0 for one that scores
  // in host memory).
  virtual size_t DeviceBytes() const = 0;

  // Result of the oldest pair in flight. With `wait` false and the pair not
  // finished, returns Ok with *ready = false. A device failure is returned
  // as an error status for that pair; no score is made up.
  virtual Status CollectOldest(bool wait, bool* ready, uint64_t* tag,
                               Result* out) = 0;

  // Abandons the pairs in flight; callable from any thread, while another
  // thread is in a call (a flush, a stop). Their results are never
  // reported: until DropInFlight, Submit refuses pairs with kCancelled, and
  // CollectOldest (a waiting one too) returns kCancelled once no plane of
  // an abandoned pair is read any more. A backend may ignore it (the
  // default) and finish its pairs in DropInFlight.
  virtual void Cancel() {}

  // Forgets every pair in flight (InFlight() is 0 after it) and returns
  // once none of their planes is read any more; ends a Cancel. Called with
  // no other call running. The default waits for each pair's result.
  virtual void DropInFlight() {
    for (int n = InFlight(); n > 0; --n) {
      bool ready = false;
      uint64_t tag = 0;
      Result dropped;
      CollectOldest(true, &ready, &tag, &dropped);
    }
  }
};

// InvalidArgument unless `metrics` is a non-empty set of known Metric bits.
inline Status CheckMetrics(unsigned metrics) {
  if (metrics == 0 || (metrics & ~kAllMetrics) != 0) {
    return InvalidArgument("metrics: choose ssimulacra2, ssim or both (got bits " +
                           std::to_string(metrics) + ")");
  }
  return Status::Ok();
}

}  // namespace s2c

#endif  // S2C_BACKEND_H_
