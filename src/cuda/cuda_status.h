// SPDX-License-Identifier: BSD-3-Clause
// CUDA runtime errors as Status: the error's name and text, the call, and
// the file:line where it failed. Host code of the CUDA backend only.
#ifndef S2C_CUDA_STATUS_H_
#define S2C_CUDA_STATUS_H_

#include <cuda_runtime_api.h>

#include <string>

#include "status.h"

namespace s2c {

inline Status CudaStatus(cudaError_t e, const char* call, const char* file,
                         int line) {
  StatusCode code = StatusCode::kDeviceError;
  if (e == cudaErrorMemoryAllocation) code = StatusCode::kOutOfMemory;
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
      e == cudaErrorNoKernelImageForDevice || e == cudaErrorDevicesUnavailable) {
    code = StatusCode::kNoDevice;
  }
  return Status(code, std::string("CUDA: ") + call + " failed with " +
                          cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                          ") at " + file + ":" + std::to_string(line));
}

}  // namespace s2c

#define S2C_CUDA_TRY(expr)                                             \
  do {                                                                 \
    const cudaError_t s2c_cuda_error_ = (expr);                        \
    if (s2c_cuda_error_ != cudaSuccess) {                              \
      return ::s2c::CudaStatus(s2c_cuda_error_, #expr, __FILE__, __LINE__); \
    }                                                                  \
  } while (0)

#endif  // S2C_CUDA_STATUS_H_
