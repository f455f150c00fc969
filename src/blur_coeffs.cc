// SPDX-License-Identifier: BSD-3-Clause
// libjxl's CreateRecursiveGaussian, in the form the reference oracle states:
// the pole-pair weights solve a 3x3 system in double; everything the filters
// use is rounded to float at the end.
#include "blur_coeffs.h"

#include <cmath>
#include <utility>

namespace s2c {

RecursiveGaussian MakeRecursiveGaussian(double sigma) {
  constexpr double kPi = 3.141592653589793238;
  const double radius = std::round(3.2795 * sigma + 0.2546);
  const double pi_div_2r = kPi / (2.0 * radius);
  const double omega[3] = {pi_div_2r, 3.0 * pi_div_2r, 5.0 * pi_div_2r};
  const double p1 = +1.0 / std::tan(0.5 * omega[0]);
  const double p3 = -1.0 / std::tan(0.5 * omega[1]);
  const double p5 = +1.0 / std::tan(0.5 * omega[2]);
  const double r1 = +p1 * p1 / std::sin(omega[0]);
  const double r3 = -p3 * p3 / std::sin(omega[1]);
  const double r5 = +p5 * p5 / std::sin(omega[2]);
  const double neg_half_sigma2 = -0.5 * sigma * sigma;
  double rho[3];
  for (int i = 0; i < 3; ++i) {
    rho[i] = std::exp(neg_half_sigma2 * omega[i] * omega[i]) / radius;
  }
  const double d13 = p1 * r3 - r1 * p3;
  const double d35 = p3 * r5 - r3 * p5;
  const double d51 = p5 * r1 - r5 * p1;
  const double z15 = d35 / d13, z35 = d51 / d13;

  // Solve A * beta = gamma by Gauss-Jordan elimination with partial pivoting.
  double a[3][4] = {{p1, p3, p5, 1.0},
                    {r1, r3, r5, radius * radius - sigma * sigma},
                    {z15, z35, 1.0, z15 * rho[0] + z35 * rho[1] + rho[2]}};
  for (int c = 0; c < 3; ++c) {
    int pivot = c;
    for (int r = c + 1; r < 3; ++r) {
      if (std::fabs(a[r][c]) > std::fabs(a[pivot][c])) pivot = r;
    }
    for (int k = 0; k < 4; ++k) std::swap(a[c][k], a[pivot][k]);
    for (int r = 0; r < 3; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (int k = 0; k < 4; ++k) a[r][k] -= f * a[c][k];
    }
  }

  RecursiveGaussian rg;
  rg.radius = static_cast<int>(radius);
  for (int i = 0; i < 3; ++i) {
    const double beta = a[i][3] / a[i][i];
    const double n2 = -beta * std::cos(omega[i] * (radius + 1.0));
    const double d1 = -2.0 * std::cos(omega[i]);
    const double d2 = d1 * d1;
    rg.n2[i] = static_cast<float>(n2);
    rg.d1[i] = static_cast<float>(d1);
    // Lane j of a block of 4 outputs, written in terms of the two outputs
    // before the block (prev, prev2) and the block's 4 input sums.
    rg.mul_prev[4 * i + 0] = static_cast<float>(-d1);
    rg.mul_prev[4 * i + 1] = static_cast<float>(d2 - 1.0);
    rg.mul_prev[4 * i + 2] = static_cast<float>(-d2 * d1 + 2.0 * d1);
    rg.mul_prev[4 * i + 3] = static_cast<float>(d2 * d2 - 3.0 * d2 + 1.0);
    rg.mul_prev2[4 * i + 0] = -1.0f;
    rg.mul_prev2[4 * i + 1] = static_cast<float>(d1);
    rg.mul_prev2[4 * i + 2] = static_cast<float>(-d2 + 1.0);
    rg.mul_prev2[4 * i + 3] = static_cast<float>(d2 * d1 - 2.0 * d1);
    rg.mul_in[4 * i + 0] = static_cast<float>(n2);
    rg.mul_in[4 * i + 1] = static_cast<float>(-d1 * n2);
    rg.mul_in[4 * i + 2] = static_cast<float>(d2 * n2 - n2);
    rg.mul_in[4 * i + 3] = static_cast<float>(-d2 * d1 * n2 + 2.0 * d1 * n2);
  }
  return rg;
}

const RecursiveGaussian& Sigma15Gaussian() {
  static const RecursiveGaussian rg = MakeRecursiveGaussian(1.5);
  return rg;
}

}  // namespace s2c
