// SPDX-License-Identifier: BSD-3-Clause
// The float planes of one comparison, handed out stage by stage, for
// bit-for-bit checks of one backend against another and for debugging:
// CpuReference::Compare and CudaBackend::CompareWithPlanes call an observer
// with the same stages, scales, images and channels.
#ifndef S2C_PLANE_OBSERVER_H_
#define S2C_PLANE_OBSERVER_H_

#include "steps/plane_view.h"

namespace s2c {

// kLinear: the linear RGB planes a scale starts from; kXyb: its positive
// XYB planes; kMu, kSigmaSq, kSigma12: the blurred planes of the map terms.
enum class Stage { kLinear, kXyb, kMu, kSigmaSq, kSigma12 };

// `image` is 0 for the reference, 1 for the distorted frame (kSigma12 has
// only 0); `channel` is R, G, B for kLinear and X, Y, B otherwise.
class PlaneObserver {
 public:
  virtual ~PlaneObserver() = default;
  // The view is valid only during the call.
  virtual void OnPlane(Stage stage, int scale, int image, int channel,
                       const PlaneView& plane) = 0;
};

}  // namespace s2c

#endif  // S2C_PLANE_OBSERVER_H_
