// SPDX-License-Identifier: BSD-3-Clause
// One frame pair's pipeline on the GPU (cuda_pipeline.h): buffers per pair in
// flight, and the stages of CpuReference::Compare enqueued call by call in
// its order, or recorded as a graph with the scales side by side.
#include "cuda/cuda_pipeline.h"

#include <algorithm>
#include <vector>

#include "blur_coeffs.h"
#include "cuda/cuda_status.h"

namespace s2c {
namespace {

using cuda::BlurPlanes;
using cuda::PairPlanes;

// Width and height of scale s's linear planes block (linear_odd: s = 1,
// linear_even: s = 2): one float where the pyramid has no such scale.
int LinearWidth(const Pyramid& pyr, int s) { return s < pyr.num_scales ? pyr.w[s] : 1; }
int LinearHeight(const Pyramid& pyr, int s) { return s < pyr.num_scales ? pyr.h[s] : 1; }

// Byte sizes and places of a slot's buffers for one frame size (PairSlot):
// in `planes`, scale 0's XYB and blurred planes from 0, the later scales
// and linear_even from `later_at` (0: over scale 0's XYB and mu planes),
// linear_odd from `odd_at`.
struct SlotLayout {
  size_t xyb[kNumScales] = {}, blur[kNumScales] = {}, odd, even;
  size_t later_at, odd_at, planes;
  size_t workspace[kNumScales] = {}, sums;
  SlotLayout(int width, int height) {
    const Pyramid pyr(width, height);
    sums = CudaAlignUp(kNumScales * kSumsPerScale * sizeof(double));
    for (int s = 0; s < pyr.num_scales; ++s) {
      xyb[s] = PlaneBlock::Bytes(pyr.w[s], pyr.h[s], 6);
      blur[s] = PlaneBlock::Bytes(pyr.w[s], pyr.h[s], 3 * cuda::kNumBlurKinds);
      workspace[s] = CudaAlignUp(cuda::MapSumsWorkspaceBytes(pyr.w[s], pyr.h[s]));
      sums += workspace[s];
    }
    odd = PlaneBlock::Bytes(LinearWidth(pyr, 1), LinearHeight(pyr, 1), 6);
    even = PlaneBlock::Bytes(LinearWidth(pyr, 2), LinearHeight(pyr, 2), 6);
    size_t later = even;
    for (int s = 1; s < pyr.num_scales; ++s) later += xyb[s] + blur[s];
    const size_t scale0 = xyb[0] + blur[0];
    const size_t reusable = xyb[0] + PlaneBlock::Bytes(pyr.w[0], pyr.h[0], 6);  // + mu1, mu2
    later_at = later <= reusable ? 0 : scale0;
    odd_at = std::max(scale0, later_at + later);
    planes = odd_at + odd;
  }
};

cudaError_t Mark(const PairSlot& slot, int index) {
  return slot.timed ? cudaEventRecord(slot.stage[index], slot.stream) : cudaSuccess;
}

// Scales 1, 3, 5 use the block sized for scale 1; 2, 4 the one for scale 2.
PairPlanes LinearOf(const PairSlot& slot, int scale, int w, int h) {
  return (scale % 2 ? slot.linear_odd : slot.linear_even).Pair(0, w, h);
}

PairPlanes XybOf(const PairSlot& slot, const Pyramid& pyr, int s) {
  return slot.xyb[s].Pair(0, pyr.w[s], pyr.h[s]);
}

// Kind by kind: the mu planes of the three channels first (PairSlot).
BlurPlanes BlurredOf(const PlaneBlock& block, int w, int h) {
  BlurPlanes b;
  for (int k = 0; k < cuda::kNumBlurKinds; ++k) {
    for (int c = 0; c < 3; ++c) b.p[c][k] = block.View(k * 3 + c, w, h);
  }
  return b;
}

BlurPlanes BlurredOf(const PairSlot& slot, const Pyramid& pyr, int s) {
  return BlurredOf(slot.blur[s], pyr.w[s], pyr.h[s]);
}

// Debug only: planes of scale s's size where the vertical pass also stores
// the blurred planes (it does not store them otherwise), in a block sized
// for scale 0 and reused by every scale (the observer's downloads wait).
Status DebugBlurredOf(PairSlot& slot, const Pyramid& pyr, int s, BlurPlanes* out) {
  if (slot.debug_blur.bytes() == 0) {
    S2C_RETURN_IF_ERROR(slot.debug_blur.Resize(
        PlaneBlock::Bytes(pyr.w[0], pyr.h[0], 3 * cuda::kNumBlurKinds)));
  }
  PlaneBlock block;
  block.Carve(slot.debug_blur.get(), pyr.w[s], pyr.h[s]);
  *out = BlurredOf(block, pyr.w[s], pyr.h[s]);
  return Status::Ok();
}

// Debug only: a blocking download of one plane.
Status ObserveOne(PlaneObserver* observer, cudaStream_t st, Stage stage, int scale,
                  int image, int channel, const PlaneView& d) {
  std::vector<float> host(static_cast<size_t>(d.width) * d.height);
  S2C_CUDA_TRY(cudaMemcpy2DAsync(host.data(), d.width * sizeof(float), d.data,
                                 d.pitch * sizeof(float), d.width * sizeof(float),
                                 d.height, cudaMemcpyDeviceToHost, st));
  S2C_CUDA_TRY(cudaStreamSynchronize(st));
  PlaneView v;
  v.data = host.data();
  v.pitch = d.width;
  v.width = d.width;
  v.height = d.height;
  observer->OnPlane(stage, scale, image, channel, v);
  return Status::Ok();
}

Status Observe(PlaneObserver* observer, cudaStream_t st, Stage stage, int scale,
               const PairPlanes& planes) {
  for (int i = 0; i < 2; ++i) {
    for (int c = 0; c < 3; ++c) {
      S2C_RETURN_IF_ERROR(ObserveOne(observer, st, stage, scale, i, c, planes.img[i].c[c]));
    }
  }
  return Status::Ok();
}

Status ObserveBlurred(PlaneObserver* observer, cudaStream_t st, int scale, const BlurPlanes& b) {
  for (int c = 0; c < 3; ++c) {
    S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kMu, scale, 0, c, b.p[c][cuda::kMu1]));
    S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kMu, scale, 1, c, b.p[c][cuda::kMu2]));
    S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kSigmaSq, scale, 0, c, b.p[c][cuda::kSigma11]));
    S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kSigmaSq, scale, 1, c, b.p[c][cuda::kSigma22]));
    S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kSigma12, scale, 0, c, b.p[c][cuda::kSigma12]));
  }
  return Status::Ok();
}

// Scale s > 0's start: XYB of the linear planes and the next scale's linear
// planes.
Status EnqueueScaleStart(PairSlot& slot, const Pyramid& pyr, int s, PlaneObserver* observer) {
  const PairPlanes linear = LinearOf(slot, s, pyr.w[s], pyr.h[s]);
  const PairPlanes xyb = XybOf(slot, pyr, s);
  PairPlanes next;
  if (s + 1 < pyr.num_scales) next = LinearOf(slot, s + 1, pyr.w[s + 1], pyr.h[s + 1]);
  S2C_CUDA_TRY(cuda::LaunchScaleStart(linear, xyb, next, slot.stream));
  S2C_CUDA_TRY(Mark(slot, 2 + kStageEventsPerScale * s));
  if (observer) {
    S2C_RETURN_IF_ERROR(Observe(observer, slot.stream, Stage::kLinear, s, linear));
    S2C_RETURN_IF_ERROR(Observe(observer, slot.stream, Stage::kXyb, s, xyb));
  }
  return Status::Ok();
}

// The six sums per channel of scale s, on `st`, from what the vertical pass
// prepared: the tree sums whole, the exact sums' passes over the chunks
// (EnqueueWalks finishes them).
Status EnqueueSums(PairSlot& slot, const Pyramid& pyr, int s, CudaSumMode mode, cudaStream_t st) {
  void* workspace = slot.d_sum_workspace[s];
  if (mode == CudaSumMode::kExact) {
    S2C_CUDA_TRY(cuda::LaunchMapSumChunks(BlurredOf(slot, pyr, s), workspace, slot.f64_path, st));
  } else {
    S2C_CUDA_TRY(cuda::LaunchMapSumsTree(pyr.w[s], pyr.h[s], workspace, slot.d_sums + s * kSumsPerScale, st));
  }
  return Status::Ok();
}

// The exact sums' walks of every scale in one kernel, on `st`, after every
// scale's chunk passes: each sum's walk is a chain of latency on one
// multiprocessor, so the scales' walks side by side take about as long as
// the longest.
Status EnqueueWalks(PairSlot& slot, const Pyramid& pyr, CudaSumMode mode, cudaStream_t st) {
  if (mode == CudaSumMode::kExact) {
    cuda::MapSumsOfScale scales[kNumScales];
    for (int s = 0; s < pyr.num_scales; ++s) {
      scales[s] = {BlurredOf(slot, pyr, s), slot.d_sum_workspace[s], slot.d_sums + s * kSumsPerScale};
    }
    S2C_CUDA_TRY(cuda::LaunchMapSumWalks(scales, pyr.num_scales, slot.f64_path, st));
  }
  S2C_CUDA_TRY(Mark(slot, kWalksStageEvent));
  return Status::Ok();
}

// Scale s's blurs and sums, on `st`.
Status EnqueueScale(PairSlot& slot, const Pyramid& pyr, int s, CudaSumMode mode,
                    PlaneObserver* observer, cudaStream_t st) {
  const RecursiveGaussian& rg = Sigma15Gaussian();
  const int base = 2 + kStageEventsPerScale * s;
  const PairPlanes xyb = XybOf(slot, pyr, s);
  const BlurPlanes blurred = BlurredOf(slot, pyr, s);
  BlurPlanes observed;
  if (observer) S2C_RETURN_IF_ERROR(DebugBlurredOf(slot, pyr, s, &observed));
  S2C_CUDA_TRY(cuda::LaunchBlurHorizontal(rg, xyb, blurred, st));
  S2C_CUDA_TRY(Mark(slot, base + 1));
  const cuda::F64Path path = mode == CudaSumMode::kExact ? slot.f64_path : cuda::F64Path::kNative;
  S2C_CUDA_TRY(cuda::LaunchBlurVerticalTerms(rg, xyb, blurred, slot.d_sum_workspace[s],
                                             observer ? &observed : nullptr, path, st));
  if (s == 0) S2C_CUDA_TRY(cudaEventRecord(slot.scale0_read, st));
  S2C_CUDA_TRY(Mark(slot, base + 2));
  if (observer) S2C_RETURN_IF_ERROR(ObserveBlurred(observer, st, s, observed));
  S2C_RETURN_IF_ERROR(EnqueueSums(slot, pyr, s, mode, st));
  S2C_CUDA_TRY(Mark(slot, base + 3));
  return Status::Ok();
}

// The stages after the front end. The scale starts run in order on the
// slot's stream (each writes the next scale's linear planes), scale 1's
// once scale 0's vertical pass is done (it writes over planes that pass
// reads). With `overlap` (graph recording), each scale's blurs and sums'
// chunk passes are forked to the scale's own stream after its start and
// joined back before the walks; otherwise all runs on the slot's stream in
// the CPU's order. The walks of all scales, then the results' copy, close
// the pair on the slot's stream.
Status EnqueueStages(PairSlot& slot, const Pyramid& pyr, CudaSumMode mode,
                     PlaneObserver* observer, bool overlap) {
  cudaStream_t st = slot.stream;
  for (int s = 0; s < pyr.num_scales; ++s) {
    if (s == 1 && overlap) S2C_CUDA_TRY(cudaStreamWaitEvent(st, slot.scale0_read, 0));
    if (s > 0) S2C_RETURN_IF_ERROR(EnqueueScaleStart(slot, pyr, s, observer));
    if (overlap) {
      S2C_CUDA_TRY(cudaEventRecord(slot.started[s], st));
      S2C_CUDA_TRY(cudaStreamWaitEvent(slot.scale_stream[s], slot.started[s], 0));
      S2C_RETURN_IF_ERROR(EnqueueScale(slot, pyr, s, mode, observer, slot.scale_stream[s]));
      S2C_CUDA_TRY(cudaEventRecord(slot.finished[s], slot.scale_stream[s]));
    } else {
      S2C_RETURN_IF_ERROR(EnqueueScale(slot, pyr, s, mode, observer, st));
    }
  }
  if (overlap) {
    for (int s = 0; s < pyr.num_scales; ++s) {
      S2C_CUDA_TRY(cudaStreamWaitEvent(st, slot.finished[s], 0));
    }
  }
  S2C_RETURN_IF_ERROR(EnqueueWalks(slot, pyr, mode, st));
  S2C_CUDA_TRY(cudaMemcpyAsync(slot.host_sums.get(), slot.d_sums,
                               pyr.num_scales * kSumsPerScale * sizeof(double),
                               cudaMemcpyDeviceToHost, st));
  return Status::Ok();
}

}  // namespace

Pyramid::Pyramid(int width, int height) {
  int w0 = width, h0 = height;
  for (int s = 0; s < kNumScales; ++s) {
    if (w0 < kMinSide || h0 < kMinSide) break;  // tests the previous scale
    if (s > 0) {
      w0 = (w0 + 1) / 2;
      h0 = (h0 + 1) / 2;
    }
    w[s] = w0;
    h[s] = h0;
    num_scales = s + 1;
  }
}

Status CreateSlot(PairSlot& slot, bool time_stages) {
  S2C_CUDA_TRY(cudaStreamCreateWithFlags(&slot.stream, cudaStreamNonBlocking));
  S2C_CUDA_TRY(cudaEventCreateWithFlags(&slot.done, cudaEventDisableTiming));
  S2C_CUDA_TRY(cudaEventCreateWithFlags(&slot.scale0_read, cudaEventDisableTiming));
  for (int s = 0; s < kNumScales; ++s) {
    S2C_CUDA_TRY(cudaStreamCreateWithFlags(&slot.scale_stream[s], cudaStreamNonBlocking));
    S2C_CUDA_TRY(cudaEventCreateWithFlags(&slot.started[s], cudaEventDisableTiming));
    S2C_CUDA_TRY(cudaEventCreateWithFlags(&slot.finished[s], cudaEventDisableTiming));
  }
  if (time_stages) {
    for (cudaEvent_t& e : slot.stage) S2C_CUDA_TRY(cudaEventCreate(&e));
  }
  S2C_CUDA_TRY(cudaStreamCreateWithFlags(&slot.ssim_stream, cudaStreamNonBlocking));
  S2C_CUDA_TRY(cudaEventCreateWithFlags(&slot.ssim_start, cudaEventDisableTiming));
  S2C_CUDA_TRY(cudaEventCreateWithFlags(&slot.ssim_done, cudaEventDisableTiming));
  S2C_RETURN_IF_ERROR(slot.ssim_sums.Resize(3 * sizeof(double)));
  return slot.host_sums.Resize(kHostSums * sizeof(double));
}

void DestroySlot(PairSlot& slot) {
  // Pairs still in flight read the buffers that go away.
  if (slot.stream) cudaStreamSynchronize(slot.stream);
  slot.after_front_end.Reset();
  for (cudaEvent_t e : slot.stage) {
    if (e) cudaEventDestroy(e);
  }
  for (int s = 0; s < kNumScales; ++s) {
    if (slot.started[s]) cudaEventDestroy(slot.started[s]);
    if (slot.finished[s]) cudaEventDestroy(slot.finished[s]);
    if (slot.scale_stream[s]) cudaStreamDestroy(slot.scale_stream[s]);
  }
  if (slot.ssim_stream) cudaStreamSynchronize(slot.ssim_stream);
  if (slot.ssim_start) cudaEventDestroy(slot.ssim_start);
  if (slot.ssim_done) cudaEventDestroy(slot.ssim_done);
  if (slot.ssim_stream) cudaStreamDestroy(slot.ssim_stream);
  if (slot.scale0_read) cudaEventDestroy(slot.scale0_read);
  if (slot.done) cudaEventDestroy(slot.done);
  if (slot.stream) cudaStreamDestroy(slot.stream);
}

size_t SlotDeviceBytes(int width, int height) {
  const SlotLayout l(width, height);
  return l.planes + l.sums;
}

Status AllocateSlot(PairSlot& slot, int width, int height) {
  const SlotLayout l(width, height);
  const Pyramid pyr(width, height);
  FreeSlot(slot);
  S2C_RETURN_IF_ERROR(slot.planes.Resize(l.planes));
  uint8_t* const base = slot.planes.get();
  slot.xyb[0].Carve(base, pyr.w[0], pyr.h[0]);
  slot.blur[0].Carve(base + l.xyb[0], pyr.w[0], pyr.h[0]);
  uint8_t* at = base + l.later_at;
  for (int s = 1; s < pyr.num_scales; ++s) {
    slot.xyb[s].Carve(at, pyr.w[s], pyr.h[s]);
    at += l.xyb[s];
    slot.blur[s].Carve(at, pyr.w[s], pyr.h[s]);
    at += l.blur[s];
  }
  slot.linear_even.Carve(at, LinearWidth(pyr, 2), LinearHeight(pyr, 2));
  slot.linear_odd.Carve(base + l.odd_at, LinearWidth(pyr, 1), LinearHeight(pyr, 1));
  S2C_RETURN_IF_ERROR(slot.sums.Resize(l.sums));
  at = slot.sums.get();
  slot.d_sums = reinterpret_cast<double*>(at);
  at += CudaAlignUp(kNumScales * kSumsPerScale * sizeof(double));
  for (int s = 0; s < pyr.num_scales; ++s) {
    slot.d_sum_workspace[s] = at;
    at += l.workspace[s];
  }
  return Status::Ok();
}

void FreeSlot(PairSlot& slot) {
  slot.after_front_end.Reset();  // recorded with the old buffers
  slot.planes.Free();
  slot.sums.Free();
  slot.debug_linear.Free();
  slot.debug_blur.Free();
}

Status EnqueueFrontEnd(PairSlot& slot, const Pyramid& pyr, const cuda::PairFrames& frames,
                       PlaneObserver* observer) {
  const int w = pyr.w[0], h = pyr.h[0];
  const PairPlanes xyb = XybOf(slot, pyr, 0);
  PairPlanes next, linear;
  if (pyr.num_scales > 1) next = LinearOf(slot, 1, pyr.w[1], pyr.h[1]);
  if (observer) {
    if (slot.debug_linear.bytes() == 0) {
      S2C_RETURN_IF_ERROR(slot.debug_linear.Resize(PlaneBlock::Bytes(w, h, 6)));
    }
    PlaneBlock dbg;
    dbg.Carve(slot.debug_linear.get(), w, h);
    linear = dbg.Pair(0, w, h);
  }
  S2C_CUDA_TRY(Mark(slot, 1));
  S2C_CUDA_TRY(cuda::LaunchFrontEnd(frames, xyb, next, linear, slot.stream));
  S2C_CUDA_TRY(Mark(slot, 2));
  if (observer) {
    S2C_RETURN_IF_ERROR(Observe(observer, slot.stream, Stage::kLinear, 0, linear));
    S2C_RETURN_IF_ERROR(Observe(observer, slot.stream, Stage::kXyb, 0, xyb));
  }
  return Status::Ok();
}

Status EnqueueAfterFrontEnd(PairSlot& slot, const Pyramid& pyr, CudaSumMode mode,
                            PlaneObserver* observer) {
  return EnqueueStages(slot, pyr, mode, observer, /*overlap=*/false);
}

Status RecordAfterFrontEnd(PairSlot& slot, const Pyramid& pyr, CudaSumMode mode) {
  S2C_CUDA_TRY(cudaStreamBeginCapture(slot.stream, cudaStreamCaptureModeThreadLocal));
  const Status enqueued = EnqueueStages(slot, pyr, mode, nullptr, /*overlap=*/true);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(slot.stream, &graph);
  cudaGraphExec_t exec = nullptr;
  cudaError_t made = ended;
  if (enqueued.ok() && ended == cudaSuccess) made = cudaGraphInstantiate(&exec, graph, 0);
  if (graph) cudaGraphDestroy(graph);
  S2C_RETURN_IF_ERROR(enqueued);
  S2C_CUDA_TRY(made);
  slot.after_front_end.Reset(exec);
  return Status::Ok();
}

CudaStageTimes SlotStageTimes(const PairSlot& slot, const Pyramid& pyr) {
  auto ms = [&](int a, int b) {
    float t = 0.0f;
    cudaEventElapsedTime(&t, slot.stage[a], slot.stage[b]);
    return t;
  };
  CudaStageTimes t;
  t.upload = ms(0, 1);
  int prev = 1;
  for (int s = 0; s < pyr.num_scales; ++s) {
    const int base = 2 + kStageEventsPerScale * s;
    t.scale_start += ms(prev, base);
    t.blur_horizontal += ms(base, base + 1);
    t.blur_vertical += ms(base + 1, base + 2);
    t.sums += ms(base + 2, base + 3);
    prev = base + 3;
  }
  t.sums += ms(prev, kWalksStageEvent);
  return t;
}

}  // namespace s2c
