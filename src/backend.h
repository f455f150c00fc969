// SPDX-License-Identifier: BSD-3-Clause
// The interface every backend (CPU reference, CUDA) offers to the element and
// the tools: pairs are submitted in order and their results collected in the
// same order. Both backends are asynchronous: Submit checks and enqueues a
// pair and returns at once; the CPU backend scores on its own worker thread,
// the CUDA backend on a stream.
#ifndef S2C_BACKEND_H_
#define S2C_BACKEND_H_

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

  // Result of the oldest pair in flight. With `wait` false and the pair not
  // finished, returns Ok with *ready = false. A device failure is returned
  // as an error status for that pair; no score is made up.
  virtual Status CollectOldest(bool wait, bool* ready, uint64_t* tag,
                               Result* out) = 0;
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
