// SPDX-License-Identifier: BSD-3-Clause
// For GPU tests and benchmarks that call the CUDA runtime directly: a failed
// call is a failure of the harness (check.h), printed with where and why,
// and ends the program with the harness's summary and status, since what
// follows would read what the call did not do.
#ifndef S2C_TESTS_CUDA_CHECK_H_
#define S2C_TESTS_CUDA_CHECK_H_

#include <cuda_runtime_api.h>

#include <cstdlib>

#include "check.h"

#define CHECK_CUDA(expr)                                                        \
  do {                                                                          \
    const cudaError_t e_ = (expr);                                              \
    if (e_ != cudaSuccess) {                                                    \
      ::s2c::test::Fail(__FILE__, __LINE__, #expr, " %s", cudaGetErrorString(e_)); \
      std::exit(::s2c::test::Finish());                                         \
    }                                                                           \
  } while (0)

#endif  // S2C_TESTS_CUDA_CHECK_H_
