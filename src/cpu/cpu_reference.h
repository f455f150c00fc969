// SPDX-License-Identifier: BSD-3-Clause
// The CPU reference: SSIMULACRA 2.1 exactly as the canonical tool computes it
// (exactness contract, layer 1), on frames turned into linear RGB by the
// front end (layer 2). Every per-pixel step comes from the S2C_HD headers the
// CUDA kernels use. Work is spread over a thread pool by lines, column blocks
// and channels; each running sum is one loop in raster order, so the result
// does not depend on the thread count.
#ifndef S2C_CPU_REFERENCE_H_
#define S2C_CPU_REFERENCE_H_

#include <memory>

#include "plane_observer.h"
#include "status.h"
#include "steps/frame.h"
#include "steps/frame_layout.h"
#include "subscores.h"

namespace s2c {

class ThreadPool;

class CpuReference {
 public:
  // threads <= 0: all cores.
  explicit CpuReference(int threads);
  ~CpuReference();

  int threads() const;
  // The threads Compare spreads its work over; its owner may lend them to
  // other work between comparisons (the CPU backend's SSIM).
  ThreadPool* pool() const { return pool_.get(); }

  // Host bytes of the planes Compare keeps for frames of width x height
  // (18 float planes of the full size and 6 of half the size each way, rows
  // padded to 16 floats: 78 bytes per pixel, and 64 rows of sum terms), as
  // a double so that no size overflows it.
  static double WorkspaceBytes(int width, int height);

  // Allocates those planes for frames of width x height now, rather than at
  // the first Compare of that size. Throws std::bad_alloc when memory is
  // short.
  void Reserve(int width, int height);

  // Scores `dist` against `ref`. Both frames are in host memory and must
  // have the same size (at least kMinSide on each side); their formats may
  // differ. Frames with alpha are scored as the canonical tool scores them
  // (PlanAlphaPasses): a pass per background, the observer sees each. Sets
  // out->subscores and out->score. Buffers are kept between calls of the
  // same size.
  Status Compare(const FrameView& ref, const FrameView& dist, Result* out,
                 PlaneObserver* observer = nullptr);

 private:
  struct Workspace;
  // One pass of Compare: the whole metric, frames with alpha blended on
  // `background`.
  Status ComparePass(const FrameView* const frames[2], const FrameLayout layout[2],
                     float background, Subscores* sub, PlaneObserver* observer);

  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<Workspace> ws_;
};

}  // namespace s2c

#endif  // S2C_CPU_REFERENCE_H_
