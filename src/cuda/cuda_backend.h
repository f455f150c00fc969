// SPDX-License-Identifier: BSD-3-Clause
// The CUDA backend: the CPU reference's pipeline on the GPU, returning the
// CPU's double for every frame (exactness contract, layer 3). A pair is
// enqueued on its own stream without blocking (Submit) and its result handed
// back later, in order (CollectOldest). Device buffers are sized in
// Configure and reused; nothing is allocated per frame.
//
// Context: when the calling thread has a CUDA driver context current (the
// element pushes its GstCudaContext around every call), the backend uses
// that context and every allocation and stream belongs to it; the context
// must then be current for every later call, destruction included.
// Otherwise it makes device `device_id` current (-1: device 0).
//
// Device memory input (MemoryKind::kDevice): the planes must be readable by
// this context and complete before Submit is called; the backend does not
// wait on the producer's stream.
#ifndef S2C_CUDA_BACKEND_H_
#define S2C_CUDA_BACKEND_H_

#include <cstddef>
#include <memory>

#include "backend.h"
#include "cuda/cuda_pipeline_types.h"
#include "device_fp64.h"
#include "plane_observer.h"

namespace s2c {

struct CudaBackendOptions {
  int device_id = -1;     // -1: the current context, else device 0
  int max_in_flight = 2;  // pairs (and streams, workspaces) at once, >= 1
  // Device bytes the workspaces of the pairs in flight may take (0: no
  // limit). Configure keeps fewer than max_in_flight pairs in flight where
  // that many do not fit (Capacity says how many), and fails with
  // kOutOfMemory where not even one does. The copies of frames uploaded
  // from host memory, two per pair, sized at the pair, come on top.
  size_t device_memory_limit = 0;
  CudaSumMode sum_mode = CudaSumMode::kExact;
  bool time_stages = false;  // record events between stages (benchmark)
  // Replay everything after a pair's front end as one CUDA graph (recorded
  // once per frame size and pair in flight) instead of some fifty calls.
  // Pairs with stage events or a plane observer are always enqueued call by
  // call.
  bool use_graphs = true;
  // The arithmetic of the f64 steps: the device's f64 units, integers with
  // the same bits, or by the GPU's compute capability (device_fp64.h). The
  // tree sums (kTree) always take the native path.
  DeviceFp64 device_fp64 = DeviceFp64::kAuto;
};

class CudaBackend : public Backend {
 public:
  // One synchronous comparison (nothing may be in flight) that hands every
  // float plane of the pipeline, downloaded to the host, to `observer` with
  // the stages, scales, images and channels of CpuReference::Compare, so a
  // test can compare them bit for bit. Configure must have been called for
  // the frames' size. Debug only: it synchronises after every stage.
  virtual Status CompareWithPlanes(const FrameView& ref, const FrameView& dist,
                                   MemoryKind memory, Result* out,
                                   PlaneObserver* observer) = 0;

  virtual CudaStageTimes LastStageTimes() const = 0;

  // Whether pairs are replayed as CUDA graphs: use_graphs, unless recording
  // one failed.
  virtual bool GraphsInUse() const = 0;

  // The path device_fp64 chose on this GPU: kNative or kInteger.
  virtual DeviceFp64 F64PathInUse() const = 0;
};

// kNoDevice (with the reason) when no usable device or context exists, or
// this build's kernels cannot run on it.
Status MakeCudaBackend(int device_id, int max_in_flight, DeviceFp64 device_fp64,
                       std::unique_ptr<Backend>* out);
Status MakeCudaBackend(const CudaBackendOptions& options,
                       std::unique_ptr<CudaBackend>* out);

}  // namespace s2c

#endif  // S2C_CUDA_BACKEND_H_
