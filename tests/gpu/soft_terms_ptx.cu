// SPDX-License-Identifier: BSD-3-Clause
// Kernels that call every function of the soft double and the terms without
// f64 arithmetic (src/steps/soft_double.h, soft_terms.h), compiled to PTX
// only: the test soft_terms_no_f64 requires that the PTX holds no f64
// instruction, so the device forms really run without the fp64 units. (That
// they give the CPU's bits is the host tests' job: the same source.)
#include <cstdint>

#include "steps/soft_double.h"
#include "steps/soft_terms.h"
#include "steps/ssim_steps.h"

namespace s2c {

__global__ void SoftOperations(const uint64_t* a, const uint64_t* b, const float* f,
                               const int64_t* v, uint64_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const SoftDouble x = SoftFromBits(a[i]), y = SoftFromBits(b[i]);
  out[8 * i + 0] = SoftToBits(x + y);
  out[8 * i + 1] = SoftToBits(x - y);
  out[8 * i + 2] = SoftToBits(x * y);
  out[8 * i + 3] = SoftToBits(x / y);
  out[8 * i + 4] = SoftToBits(SoftFromFloat(f[i]));
  out[8 * i + 5] = static_cast<uint64_t>(__float_as_uint(SoftToFloat(x)));
  out[8 * i + 6] = SoftToBits(SoftFromInt64(v[i]));
  out[8 * i + 7] = SoftToBits(SoftAbs(-x)) + SoftBelowZero(y);
}

__global__ void SoftPixelTermsKernel(const float* planes, uint64_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* p = planes + 7 * i;
  const SoftPixelTerms t = SoftMapTerms(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
  for (int k = 0; k < 6; ++k) out[6 * i + k] = t.t[k];
}

__global__ void SoftSsimTermKernel(const SsimMoments* m, int64_t samplemax, uint64_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = SoftSsimTerm(m[i], samplemax);
}

}  // namespace s2c
