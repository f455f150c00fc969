// SPDX-License-Identifier: BSD-3-Clause
// A pair's two frames as the kernels read them, for both metrics' launch
// headers (ssimulacra2_launch.h, ssim_launch.h): plain data passed to
// kernels by value.
#ifndef S2C_KERNELS_PAIR_FRAMES_H_
#define S2C_KERNELS_PAIR_FRAMES_H_

#include "steps/frame.h"
#include "steps/frame_layout.h"

namespace s2c {
namespace cuda {

// Reference (0) and distorted (1): their layouts and their planes, device
// pointers; and the background that frames with alpha are blended on in
// this pass (AlphaPasses).
struct PairFrames {
  FrameLayout layout[2];
  FrameView view[2];
  float background = 0.5f;
};

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_PAIR_FRAMES_H_
