// SPDX-License-Identifier: BSD-3-Clause
// A non-owning view of a float plane (pointer, pitch, size), the same for
// host planes and device planes.
#ifndef S2C_STEPS_PLANE_VIEW_H_
#define S2C_STEPS_PLANE_VIEW_H_

#include <cstddef>

#include "steps/hd.h"

namespace s2c {

struct PlaneView {
  float* data = nullptr;
  ptrdiff_t pitch = 0;  // in floats
  int width = 0;
  int height = 0;

  S2C_HD float* Row(int y) const { return data + y * pitch; }
};

}  // namespace s2c

#endif  // S2C_STEPS_PLANE_VIEW_H_
