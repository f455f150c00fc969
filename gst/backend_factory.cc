// SPDX-License-Identifier: BSD-3-Clause
#include "backend_factory.h"

#include <cstdlib>
#include <utility>

#include "cpu/cpu_backend.h"
#include "delayed_backend.h"
#ifdef S2C_GST_CUDA
#include "cuda_resources.h"
#endif

namespace s2c {

namespace {

Status MakeCuda(GstElement* element, int device_id, int max_in_flight, DeviceFp64 device_fp64,
                std::unique_ptr<Backend>* out) {
#ifdef S2C_GST_CUDA
  return MakeContextBoundCudaBackend(element, device_id, max_in_flight, device_fp64, out);
#else
  (void)element;
  (void)device_id;
  (void)max_in_flight;
  (void)device_fp64;
  (void)out;
  return Unsupported("this build of ssimulacra2cmp has no CUDA backend");
#endif
}

Status SelectByChoice(GstElement* element, BackendChoice choice, int device_id,
                      int max_in_flight, DeviceFp64 device_fp64, int cpu_threads,
                      BackendSelection* out) {
  if (choice != BackendChoice::kCpu) {
    Status cuda = MakeCuda(element, device_id, max_in_flight, device_fp64, &out->backend);
    if (cuda.ok()) {
      out->is_cuda = true;
      return cuda;
    }
    if (choice == BackendChoice::kCuda) return cuda;
    out->fallback_reason = cuda.message();
  }
  out->backend = MakeCpuBackend(cpu_threads);
  if (!out->backend) {
    return Status(StatusCode::kInternal, "could not create the CPU backend");
  }
  return Status::Ok();
}

}  // namespace

Status SelectBackend(GstElement* element, BackendChoice choice, int device_id,
                     int max_in_flight, DeviceFp64 device_fp64, int cpu_threads,
                     BackendSelection* out) {
  out->backend.reset();
  out->is_cuda = false;
  out->fallback_reason.clear();
  const Status status =
      SelectByChoice(element, choice, device_id, max_in_flight, device_fp64, cpu_threads, out);
  // Debugging only (docs/element.md): a backend slower than real time, for
  // its first S2C_DEBUG_DELAYED_PAIRS pairs (all when unset).
  const char* delay = std::getenv("S2C_DEBUG_PAIR_DELAY_MS");
  if (status.ok() && delay != nullptr && *delay != '\0') {
    const char* pairs = std::getenv("S2C_DEBUG_DELAYED_PAIRS");
    out->backend = WithPairDelay(std::move(out->backend), g_ascii_strtod(delay, nullptr),
                                 pairs != nullptr ? std::strtol(pairs, nullptr, 10) : -1);
  }
  return status;
}

}  // namespace s2c
