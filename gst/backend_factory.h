// SPDX-License-Identifier: BSD-3-Clause
// Which metric backend an element runs on, chosen once at start: the
// "backend" property's auto/cpu/cuda. No silent switch after start.
// SelectBackend is defined by backend_factory.cc in the installed plugin;
// the live tests' static build of the plugin links its own
// (tests/element/static_plugin.cc, docs/decisions.md D33).
#ifndef S2C_GST_BACKEND_FACTORY_H_
#define S2C_GST_BACKEND_FACTORY_H_

#include <gst/gst.h>

#include <cstdint>
#include <memory>
#include <string>

#include "backend.h"
#include "device_fp64.h"
#include "status.h"

namespace s2c {

enum class BackendChoice : int { kAuto = 0, kCpu = 1, kCuda = 2 };

// What the element asks SelectBackend for: its backend properties.
struct BackendRequest {
  BackendChoice choice = BackendChoice::kAuto;
  int cuda_device_id = -1;   // -1: the shared context's, else device 0
  int max_in_flight = 2;
  DeviceFp64 device_fp64 = DeviceFp64::kAuto;  // the CUDA backend's f64 path
  // The CUDA backend's device memory limit in bytes (0: none).
  uint64_t device_memory_limit = 0;
  int cpu_threads = 0;  // <= 0: one per core
};

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  bool is_cuda = false;  // reads CUDA memory in place
  // Set when auto fell back to the CPU: why CUDA was not used.
  std::string fallback_reason;
};

// kCuda without a usable device (or in a build without CUDA) fails with
// kNoDevice / kUnsupported; kAuto then takes the CPU and says why.
// `element` is the one whose CUDA context is shared through GstContext.
Status SelectBackend(GstElement* element, const BackendRequest& request,
                     BackendSelection* out);

}  // namespace s2c

#endif  // S2C_GST_BACKEND_FACTORY_H_
