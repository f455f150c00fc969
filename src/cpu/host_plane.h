// SPDX-License-Identifier: BSD-3-Clause
// The owning host float plane of the CPU reference; its view is the
// PlaneView that host and device code share (steps/plane_view.h). Planes are
// allocated for the largest scale and shrunk per scale, as libjxl does.
#ifndef S2C_CPU_HOST_PLANE_H_
#define S2C_CPU_HOST_PLANE_H_

#include <cstddef>
#include <vector>

#include "steps/plane_view.h"

namespace s2c {

// Owning host plane with room for `capacity_w x capacity_h` samples; View()
// covers the current size, which Shrink() reduces without reallocating.
class HostPlane {
 public:
  void Allocate(int width, int height) {
    pitch_ = (static_cast<ptrdiff_t>(width) + 15) & ~static_cast<ptrdiff_t>(15);
    storage_.assign(static_cast<size_t>(pitch_) * height, 0.0f);
    width_ = width;
    height_ = height;
  }
  void Shrink(int width, int height) {
    width_ = width;
    height_ = height;
  }
  PlaneView View() {
    PlaneView v;
    v.data = storage_.data();
    v.pitch = pitch_;
    v.width = width_;
    v.height = height_;
    return v;
  }

 private:
  std::vector<float> storage_;
  ptrdiff_t pitch_ = 0;
  int width_ = 0;
  int height_ = 0;
};

}  // namespace s2c

#endif  // S2C_CPU_HOST_PLANE_H_
