// SPDX-License-Identifier: BSD-3-Clause
// For GPU tests and benchmarks that call the CUDA runtime directly: a failed
// call prints where and why, and ends the program with status 1.
#ifndef S2C_TESTS_CUDA_CHECK_H_
#define S2C_TESTS_CUDA_CHECK_H_

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(expr)                                                  \
  do {                                                                    \
    const cudaError_t e_ = (expr);                                        \
    if (e_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr,  \
                   cudaGetErrorString(e_));                               \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)

#endif  // S2C_TESTS_CUDA_CHECK_H_
