// SPDX-License-Identifier: BSD-3-Clause
// Coefficients of libjxl's recursive Gaussian (Charalampidis 2016) for
// SSIMULACRA 2's sigma of 1.5: radius N = 5, three pole pairs. Computed once
// on the host in double and rounded to float; kernels receive the struct by
// value, so no device libm is involved.
#ifndef S2C_BLUR_COEFFS_H_
#define S2C_BLUR_COEFFS_H_

#include "steps/recursive_gaussian.h"

namespace s2c {

// The coefficients for sigma = 1.5, computed on first use.
const RecursiveGaussian& Sigma15Gaussian();

RecursiveGaussian MakeRecursiveGaussian(double sigma);

}  // namespace s2c

#endif  // S2C_BLUR_COEFFS_H_
