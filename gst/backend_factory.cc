// SPDX-License-Identifier: BSD-3-Clause
#include "backend_factory.h"

#include "cpu/cpu_backend.h"
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

}  // namespace

Status SelectBackend(GstElement* element, BackendChoice choice, int device_id,
                     int max_in_flight, DeviceFp64 device_fp64, int cpu_threads,
                     BackendSelection* out) {
  out->backend.reset();
  out->is_cuda = false;
  out->fallback_reason.clear();
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

}  // namespace s2c
