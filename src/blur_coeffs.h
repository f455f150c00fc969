// SPDX-License-Identifier: BSD-3-Clause
// Coefficients of libjxl's recursive Gaussian (Charalampidis 2016) for
// SSIMULACRA 2's sigma of 1.5: radius N = 5, three pole pairs. Computed once
// on the host in double and rounded to float; kernels receive the struct by
// value, so no device libm is involved.
#ifndef S2C_BLUR_COEFFS_H_
#define S2C_BLUR_COEFFS_H_

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

// The coefficients for sigma = 1.5, computed on first use.
const RecursiveGaussian& Sigma15Gaussian();

RecursiveGaussian MakeRecursiveGaussian(double sigma);

}  // namespace s2c

#endif  // S2C_BLUR_COEFFS_H_
