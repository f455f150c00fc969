// SPDX-License-Identifier: BSD-3-Clause
#include "backend_factory.h"

#include "cpu/cpu_backend.h"
#ifdef S2C_GST_CUDA
#include "cuda_resources.h"
#endif

namespace s2c {

namespace {

Status MakeCuda(GstElement* element, const BackendRequest& request,
                std::unique_ptr<Backend>* out) {
#ifdef S2C_GST_CUDA
  return MakeContextBoundCudaBackend(element, request, out);
#else
  (void)element;
  (void)request;
  (void)out;
  return Unsupported("this build of ssimulacra2cmp has no CUDA backend");
#endif
}

}  // namespace

Status SelectBackend(GstElement* element, const BackendRequest& request,
                     BackendSelection* out) {
  out->backend.reset();
  out->is_cuda = false;
  out->fallback_reason.clear();
  if (request.choice != BackendChoice::kCpu) {
    Status cuda = MakeCuda(element, request, &out->backend);
    if (cuda.ok()) {
      out->is_cuda = true;
      return cuda;
    }
    if (request.choice == BackendChoice::kCuda) return cuda;
    out->fallback_reason = cuda.message();
  }
  out->backend = MakeCpuBackend(request.cpu_threads);
  if (!out->backend) {
    return Status(StatusCode::kInternal, "could not create the CPU backend");
  }
  return Status::Ok();
}

}  // namespace s2c
