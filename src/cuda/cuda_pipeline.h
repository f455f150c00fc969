// SPDX-License-Identifier: BSD-3-Clause
// One frame pair's pipeline on the GPU, as the CUDA backend enqueues it: the
// device buffers, streams and events a pair in flight owns (PairSlot), and
// the stages of CpuReference::Compare enqueued on them. Nothing here
// synchronises, except the debug path that hands planes to an observer.
// Host code of the CUDA backend only (src/cuda/cuda_backend.cc drives it).
#ifndef S2C_CUDA_PIPELINE_H_
#define S2C_CUDA_PIPELINE_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/cuda_buffers.h"
#include "cuda/cuda_pipeline_types.h"
#include "cuda/cuda_ssim.h"
#include "frontend.h"
#include "plane_observer.h"
#include "ssimulacra2_launch.h"
#include "subscores.h"

namespace s2c {

constexpr int kSumsPerScale = 18;  // 3 channels x 6 terms
// The pinned results: the scales' sums (of the last pass), SSIM's three
// planes' sums, then the first pass's sums of a pair scored on two
// backgrounds (AlphaPasses).
constexpr int kSsimSumsOffset = kNumScales * kSumsPerScale;
constexpr int kFirstPassSumsOffset = kSsimSumsOffset + 3;
constexpr int kHostSums = kFirstPassSumsOffset + kNumScales * kSumsPerScale;

// Sizes of the pyramid for a frame size: the canonical loop's scales.
struct Pyramid {
  int num_scales = 0;
  int w[kNumScales] = {};
  int h[kNumScales] = {};
  Pyramid(int width, int height);
};

// Stage events (time_stages): [0] before the upload, [1] after it, then per
// scale after the scale start, the horizontal blur, the vertical blur (with
// the terms and the sums' advice) and the sums' passes over the chunks;
// the last after the walks of all scales (counted with the sums).
constexpr int kStageEventsPerScale = 4;
constexpr int kWalksStageEvent = 2 + kStageEventsPerScale * kNumScales;
constexpr int kNumStageEvents = kWalksStageEvent + 1;

// Everything one pair in flight owns.
//
// One block holds scale 0's XYB planes and blurred planes, the blurred ones
// kind by kind (mu1 of the three channels, mu2, sigma11, sigma22, sigma12),
// so that the XYB planes and the mu planes, which nothing reads once scale
// 0's vertical pass is done, are one region at the block's start. Scales
// 1 and on (their XYB and blurred planes, and the linear planes of the
// even scales) are carved from that region and start once the vertical
// pass is done: their blurs and sums run beside scale 0's sums. Each scale
// has its own ordered-sum workspace. The linear planes of the odd scales
// (linear_odd, sized for scale 1) are written by the front end and have a
// block of their own. Frames too small for the region's reuse (the rows'
// padding outweighs the halving) give the later scales a block of their
// own after scale 0's.
struct PairSlot {
  // The front end, the scale starts, the sums' walks, the results' copy;
  // in call-by-call mode everything.
  cudaStream_t stream = nullptr;
  // Scale s's blurs and sums' chunk passes when the pipeline is recorded as
  // a graph: forked from `stream` after the scale's start, joined back
  // before the walks.
  cudaStream_t scale_stream[kNumScales] = {};
  cudaEvent_t done = nullptr;
  cudaEvent_t started[kNumScales] = {};   // scale s's XYB planes written
  cudaEvent_t finished[kNumScales] = {};  // scale s's chunk passes done
  cudaEvent_t scale0_read = nullptr;      // scale 0's vertical pass done
  cudaEvent_t stage[kNumStageEvents] = {};
  DeviceBuffer planes;
  PlaneBlock xyb[kNumScales], blur[kNumScales], linear_odd, linear_even;
  DeviceBuffer sums;  // per-scale sums, ordered-sum workspaces
  double* d_sums = nullptr;
  void* d_sum_workspace[kNumScales] = {};
  PinnedBuffer host_sums;
  DeviceBuffer raw[2];  // device copies of host frames
  PinnedBuffer staging[2];
  DeviceBuffer debug_linear;  // scale-0 linear planes, debug mode only
  DeviceBuffer debug_blur;    // the blurred planes, debug mode only
  // Everything after the scale-0 front end, recorded once per frame size
  // from this slot's buffers (use_graphs).
  GraphExec after_front_end;
  // SSIM (kMetricSsim): its windows and workspace, its sums, and beside
  // SSIMULACRA 2 its own stream, forked after the upload and joined
  // before `done`.
  CudaSsim ssim;
  DeviceBuffer ssim_sums;
  cudaStream_t ssim_stream = nullptr;
  cudaEvent_t ssim_start = nullptr;
  cudaEvent_t ssim_done = nullptr;
  uint64_t tag = 0;
  bool timed = false;
  // How the kernels evaluate the f64 steps of the exact sums (the tree sums
  // take the native path whatever this says).
  cuda::F64Path f64_path = cuda::F64Path::kNative;
  AlphaPasses alpha;  // the backgrounds this pair is scored on
};

// Streams, events and the pinned results buffer; DestroySlot waits for the
// slot's work and releases everything.
Status CreateSlot(PairSlot& slot, bool time_stages);
void DestroySlot(PairSlot& slot);

// Device bytes AllocateSlot takes for frames of width x height.
size_t SlotDeviceBytes(int width, int height);
Status AllocateSlot(PairSlot& slot, int width, int height);
// Drops the device buffers and the recorded graph.
void FreeSlot(PairSlot& slot);

// Scale 0's start: the front end of the pair's frames into positive XYB and
// scale 1's linear planes (with an observer: also the scale-0 linear planes,
// and each plane handed over).
Status EnqueueFrontEnd(PairSlot& slot, const Pyramid& pyr,
                       const cuda::PairFrames& frames, PlaneObserver* observer);

// Everything after the front end (scale 0's blurs and sums, the later scales
// whole, the sums' copy to the host), call by call on the slot's stream.
Status EnqueueAfterFrontEnd(PairSlot& slot, const Pyramid& pyr, CudaSumMode mode,
                            PlaneObserver* observer);

// The same recorded into slot.after_front_end as one CUDA graph, in which
// the scales' blurs and sums run side by side.
Status RecordAfterFrontEnd(PairSlot& slot, const Pyramid& pyr, CudaSumMode mode);

// Device time per stage of the slot's last pair (time_stages only).
CudaStageTimes SlotStageTimes(const PairSlot& slot, const Pyramid& pyr);

}  // namespace s2c

#endif  // S2C_CUDA_PIPELINE_H_
