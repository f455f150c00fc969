// SPDX-License-Identifier: BSD-3-Clause
// The coefficients of libjxl's recursive Gaussian as the blur steps use them
// (blur_steps.h). They are computed on the host (blur_coeffs.h) and passed
// to kernels by value.
#ifndef S2C_STEPS_RECURSIVE_GAUSSIAN_H_
#define S2C_STEPS_RECURSIVE_GAUSSIAN_H_

namespace s2c {

struct RecursiveGaussian {
  int radius;  // N
  // Vertical pass (plain recursion): y = n2 * sum - d1 * y1 - y2 per pole.
  float n2[3];
  float d1[3];
  // Horizontal pass (libjxl's 4-lane block form): [4 * pole + lane].
  float mul_in[12];
  float mul_prev[12];
  float mul_prev2[12];
};

}  // namespace s2c

#endif  // S2C_STEPS_RECURSIVE_GAUSSIAN_H_
