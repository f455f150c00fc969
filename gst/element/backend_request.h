// SPDX-License-Identifier: BSD-3-Clause
// What the element asks for when it picks its metric backend: the
// "backend" property's choice and the properties the backends are made
// with. Its own header, so that the backend factory (backend_factory.h) and
// the CUDA plumbing that makes the context-bound backend (cuda_resources.h)
// both take it without one including the other.
#ifndef S2C_GST_BACKEND_REQUEST_H_
#define S2C_GST_BACKEND_REQUEST_H_

#include <cstdint>

#include "device_fp64.h"

namespace s2c {

enum class BackendChoice : int { kAuto = 0, kCpu = 1, kCuda = 2 };

struct BackendRequest {
  BackendChoice choice = BackendChoice::kAuto;
  int cuda_device_id = -1;   // -1: the shared context's, else device 0
  int max_in_flight = 2;
  DeviceFp64 device_fp64 = DeviceFp64::kAuto;  // the CUDA backend's f64 path
  // The CUDA backend's device memory limit in bytes (0: none).
  uint64_t device_memory_limit = 0;
  int cpu_threads = 0;  // <= 0: one per core
};

}  // namespace s2c

#endif  // S2C_GST_BACKEND_REQUEST_H_
