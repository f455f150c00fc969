// SPDX-License-Identifier: BSD-3-Clause
// The CUDA backend's host side: context and device choice, one slot (device
// buffers, streams) per pair in flight, uploads of host frames, the pipeline
// of cuda_pipeline.h (after the front end, recorded once per slot and
// replayed as a CUDA graph), and results turned into norms and a score on
// the host (subscores.h), as the CPU does.
#include "cuda/cuda_backend.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuda/cuda_pipeline.h"
#include "cuda/cuda_status.h"
#include "device_memory_budget.h"
#include "frontend.h"
#include "ssim_launch.h"
#include "ssim_planes.h"
#include "ssimulacra2_launch.h"
#include "thread_pool.h"

namespace s2c {
namespace {

using cuda::PairFrames;

// Host-to-staging copies of frames in host memory: up to 8 threads, 64 rows
// per task.
constexpr int kCopyRows = 64;
int CopyThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return cores > 0 ? std::min(8, cores) : 1;
}

// Whether every plane of a host frame is page-locked memory the device can
// copy from directly (cudaHostAlloc, cudaHostRegister).
bool IsPinned(const FrameView& frame) {
  for (int p = 0; p < NumPlanes(frame.desc.format); ++p) {
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, frame.data[p]) != cudaSuccess) {
      cudaGetLastError();  // not a CUDA pointer: plain host memory
      return false;
    }
    if (attr.type != cudaMemoryTypeHost) return false;
  }
  return true;
}

class CudaBackendImpl : public CudaBackend {
 public:
  explicit CudaBackendImpl(const CudaBackendOptions& options)
      : options_(options), slots_(options.max_in_flight), capacity_(options.max_in_flight) {}

  ~CudaBackendImpl() override {
    for (PairSlot& s : slots_) DestroySlot(s);
  }

  Status Init() {
    for (PairSlot& s : slots_) {
      S2C_RETURN_IF_ERROR(CreateSlot(s, options_.time_stages));
      s.f64_path = options_.device_fp64 == DeviceFp64::kInteger ? cuda::F64Path::kInteger
                                                                : cuda::F64Path::kNative;
    }
    return Status::Ok();
  }

  const char* name() const override { return "cuda"; }

  Status SetMetrics(unsigned metrics) override {
    S2C_RETURN_IF_ERROR(CheckMetrics(metrics));
    if (count_ != 0) return InvalidArgument("SetMetrics with pairs in flight: collect them first");
    if (metrics == metrics_) return Status::Ok();
    // The next Configure sizes the slots for the new set.
    for (PairSlot& s : slots_) FreeWorkspaces(s);
    width_ = height_ = 0;
    metrics_ = metrics;
    return Status::Ok();
  }

  Status Configure(int width, int height) override {
    S2C_RETURN_IF_ERROR(CheckFrameSize(width, height));
    if (count_ != 0) {
      return InvalidArgument("Configure with pairs in flight: collect them first");
    }
    if (width == width_ && height == height_) return Status::Ok();
    // Refuse a size the device (or the limit) cannot hold before any work
    // starts.
    for (PairSlot& s : slots_) FreeWorkspaces(s);
    width_ = height_ = 0;
    size_t free_bytes = 0, total_bytes = 0;
    S2C_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    // SSIM's workspace is sized at the first pair, for its format; 8-bit
    // 4:2:0 here.
    size_t per_slot = (metrics_ & kMetricSsimulacra2) ? SlotDeviceBytes(width, height) : 0;
    if (metrics_ & kMetricSsim) {
      FrameDesc i420;
      i420.format = PixelFormat::kI420;
      i420.width = width;
      i420.height = height;
      FrameLayout layout;
      S2C_RETURN_IF_ERROR(DescribeFormat(i420, &layout));
      per_slot += CudaSsim::DeviceBytes(layout);
    }
    int pairs = 0;
    S2C_RETURN_IF_ERROR(FitPairsInFlight(per_slot, options_.device_memory_limit,
                                         static_cast<int>(slots_.size()), width, height, &pairs));
    const size_t needed = per_slot * pairs;
    if (needed > free_bytes) {
      return Status(StatusCode::kOutOfMemory,
                    "frames of " + SizeText(width, height) + " need " +
                        std::to_string(needed >> 20) + " MiB of device memory (" +
                        std::to_string(pairs) + " pairs in flight) but only " +
                        std::to_string(free_bytes >> 20) + " MiB are free");
    }
    // Only the first `pairs` slots take pairs (Submit, Retire); the others
    // keep no workspace.
    if (metrics_ & kMetricSsimulacra2) {
      for (int i = 0; i < pairs; ++i) S2C_RETURN_IF_ERROR(AllocateSlot(slots_[i], width, height));
    }
    capacity_ = pairs;
    head_ = 0;
    width_ = width;
    height_ = height;
    return Status::Ok();
  }

  Status Submit(const FrameView& ref, const FrameView& dist, MemoryKind memory,
                uint64_t tag) override {
    if (count_ == capacity_) {
      return InvalidArgument("already " + std::to_string(count_) +
                             " pairs in flight: collect one first");
    }
    PairSlot& slot = slots_[(head_ + count_) % capacity_];
    PairFrames frames;
    S2C_RETURN_IF_ERROR(Prepare(ref, dist, memory, slot, &frames));
    slot.tag = tag;
    slot.timed = options_.time_stages;
    const Status st = Enqueue(slot, frames, nullptr);
    if (!st.ok()) {
      WaitForSlot(slot);  // whatever was enqueued finishes before reuse
      return st;
    }
    ++count_;
    return Status::Ok();
  }

  int InFlight() const override { return count_; }
  int Capacity() const override { return capacity_; }

  Status CollectOldest(bool wait, bool* ready, uint64_t* tag,
                       Result* out) override {
    *ready = false;
    if (count_ == 0) return Status(StatusCode::kInternal, "no pair in flight");
    PairSlot& slot = slots_[head_];
    if (!wait) {
      const cudaError_t e = cudaEventQuery(slot.done);
      if (e == cudaErrorNotReady) return Status::Ok();
      if (e != cudaSuccess) return Retire(CudaStatus(e, "cudaEventQuery", __FILE__, __LINE__));
    } else {
      const cudaError_t e = cudaEventSynchronize(slot.done);
      if (e != cudaSuccess) {
        return Retire(CudaStatus(e, "cudaEventSynchronize", __FILE__, __LINE__));
      }
    }
    *ready = true;
    *tag = slot.tag;
    FinishResult(slot, out);
    if (slot.timed) times_ = SlotStageTimes(slot, Pyramid(width_, height_));
    return Retire(Status::Ok());
  }

  Status CompareWithPlanes(const FrameView& ref, const FrameView& dist,
                           MemoryKind memory, Result* out,
                           PlaneObserver* observer) override {
    if (count_ != 0) return InvalidArgument("CompareWithPlanes with pairs in flight");
    if (!(metrics_ & kMetricSsimulacra2)) {
      return InvalidArgument("CompareWithPlanes observes SSIMULACRA 2's planes: it is not computed");
    }
    PairSlot& slot = slots_[head_];
    PairFrames frames;
    S2C_RETURN_IF_ERROR(Prepare(ref, dist, memory, slot, &frames));
    slot.timed = false;
    const Status st = Enqueue(slot, frames, observer);
    if (!st.ok()) {
      WaitForSlot(slot);
      return st;
    }
    S2C_CUDA_TRY(cudaEventSynchronize(slot.done));
    FinishResult(slot, out);
    return Status::Ok();
  }

  size_t DeviceBytes() const override {
    size_t total = 0;
    for (const PairSlot& s : slots_) {
      total += s.planes.bytes() + s.sums.bytes() + s.raw[0].bytes() + s.raw[1].bytes() +
               s.debug_linear.bytes() + s.ssim.bytes() + s.ssim_sums.bytes();
    }
    return total;
  }

  CudaStageTimes LastStageTimes() const override { return times_; }

  bool GraphsInUse() const override { return graphs_usable_; }
  DeviceFp64 F64PathInUse() const override { return options_.device_fp64; }

 private:
  // Validates the pair and gives the device views the kernels read: the
  // caller's planes for device memory, else the slot's raw buffers, filled
  // by copies enqueued on the slot's stream (Upload).
  Status Prepare(const FrameView& ref, const FrameView& dist,
                 MemoryKind memory, PairSlot& slot, PairFrames* frames) {
    if (width_ == 0) return InvalidArgument("Submit before Configure");
    const FrameView* views[2] = {&ref, &dist};
    for (int i = 0; i < 2; ++i) {
      if (views[i]->desc.width != width_ || views[i]->desc.height != height_) {
        return InvalidArgument(
            std::string(i ? "distorted" : "reference") + " frame is " +
            SizeText(views[i]->desc.width, views[i]->desc.height) + ", configured " +
            SizeText(width_, height_));
      }
      S2C_RETURN_IF_ERROR(DescribeFrame(*views[i], &frames->layout[i]));
      frames->view[i] = *views[i];
    }
    if (metrics_ & kMetricSsimulacra2) {
      // Host frames are read for an alpha below the maximum, which a second
      // pass needs; device frames with alpha are taken to have one.
      bool transparent[2];
      for (int i = 0; i < 2; ++i) {
        transparent[i] = memory == MemoryKind::kHost
                             ? HasTransparency(frames->layout[i], *views[i])
                             : frames->layout[i].has_alpha;
      }
      slot.alpha = PlanAlphaPasses(frames->layout, transparent);
    }
    if (metrics_ & kMetricSsim) {
      S2C_RETURN_IF_ERROR(CheckSsimFormats(frames->layout[0].format, frames->layout[1].format));
      S2C_RETURN_IF_ERROR(slot.ssim.Prepare(frames->layout[0], ref.desc.pixel_aspect));
    }
    if (options_.time_stages) {
      S2C_CUDA_TRY(cudaEventRecord(slot.stage[0], slot.stream));
    }
    if (memory == MemoryKind::kDevice) return Status::Ok();
    for (int i = 0; i < 2; ++i) {
      S2C_RETURN_IF_ERROR(Upload(*views[i], slot.raw[i], slot.staging[i],
                                 slot.stream, &copy_pool_, &frames->view[i]));
    }
    return Status::Ok();
  }

  // Gives the device a copy of a host frame in `raw`, one copy per plane
  // enqueued on `stream`: straight from the frame when it is pinned (the
  // caller keeps it unchanged until the pair is collected), else through the
  // slot's pinned staging, filled by a host copy on several threads (the
  // slot is idle, so its staging is free).
  static Status Upload(const FrameView& host, DeviceBuffer& raw,
                       PinnedBuffer& staging, cudaStream_t stream,
                       ThreadPool* copy_pool, FrameView* device) {
    const PixelFormat f = host.desc.format;
    const int planes = NumPlanes(f);
    size_t offset[kMaxPlanes] = {}, total = 0;
    int blocks[kMaxPlanes] = {}, num_blocks = 0;
    for (int p = 0; p < planes; ++p) {
      offset[p] = total;
      total += CudaAlignUp(PlaneRowBytes(f, host.desc.width, p) *
                           PlaneRows(f, host.desc.height, p));
      blocks[p] = (PlaneRows(f, host.desc.height, p) + kCopyRows - 1) / kCopyRows;
      num_blocks += blocks[p];
    }
    // Grows once per larger format, not per frame; cudaFree/cudaMalloc may
    // synchronise the device when that happens.
    if (raw.bytes() < total) S2C_RETURN_IF_ERROR(raw.Resize(total));
    *device = host;
    for (int p = 0; p < planes; ++p) {
      device->data[p] = raw.get() + offset[p];
      device->stride[p] = static_cast<ptrdiff_t>(PlaneRowBytes(f, host.desc.width, p));
    }
    if (IsPinned(host)) {
      for (int p = 0; p < planes; ++p) {
        S2C_CUDA_TRY(cudaMemcpy2DAsync(raw.get() + offset[p], device->stride[p], host.data[p],
                                       host.stride[p], device->stride[p],
                                       PlaneRows(f, host.desc.height, p),
                                       cudaMemcpyHostToDevice, stream));
      }
      return Status::Ok();
    }
    if (staging.bytes() < total) S2C_RETURN_IF_ERROR(staging.Resize(total));
    // Blocks of rows on several threads: one thread's memcpy stays well below
    // the host's memory bandwidth, and this copy is most of what Submit
    // costs a frame in host memory.
    copy_pool->Run(num_blocks, [&](int block) {
      int p = 0;
      while (block >= blocks[p]) block -= blocks[p++];
      const size_t row = static_cast<size_t>(device->stride[p]);
      const int rows = PlaneRows(f, host.desc.height, p);
      const int y_end = std::min(rows, (block + 1) * kCopyRows);
      for (int y = block * kCopyRows; y < y_end; ++y) {
        std::memcpy(staging.get() + offset[p] + y * row,
                    host.data[p] + y * host.stride[p], row);
      }
    });
    S2C_CUDA_TRY(cudaMemcpyAsync(raw.get(), staging.get(), total,
                                 cudaMemcpyHostToDevice, stream));
    return Status::Ok();
  }

  // One pair's metrics, ending with the slot's `done` event on its stream.
  Status Enqueue(PairSlot& slot, const PairFrames& frames, PlaneObserver* observer) {
    const bool ssimulacra2 = (metrics_ & kMetricSsimulacra2) != 0;
    if (metrics_ & kMetricSsim) {
      S2C_RETURN_IF_ERROR(EnqueueSsim(slot, frames, ssimulacra2));
    }
    if (ssimulacra2) S2C_RETURN_IF_ERROR(EnqueueSsimulacra2(slot, frames, observer));
    if ((metrics_ & kMetricSsim) && ssimulacra2) {
      S2C_CUDA_TRY(cudaStreamWaitEvent(slot.stream, slot.ssim_done, 0));
    }
    S2C_CUDA_TRY(cudaEventRecord(slot.done, slot.stream));
    return Status::Ok();
  }

  // SSIM's three sums and their copy to the pinned results: beside
  // SSIMULACRA 2 on the slot's SSIM stream (forked here, after the upload;
  // Enqueue joins it), or alone on the slot's stream.
  Status EnqueueSsim(PairSlot& slot, const PairFrames& frames, bool beside) {
    cudaStream_t st = slot.stream;
    if (beside) {
      S2C_CUDA_TRY(cudaEventRecord(slot.ssim_start, slot.stream));
      S2C_CUDA_TRY(cudaStreamWaitEvent(slot.ssim_stream, slot.ssim_start, 0));
      st = slot.ssim_stream;
    }
    double* d_sums = reinterpret_cast<double*>(slot.ssim_sums.get());
    S2C_RETURN_IF_ERROR(
        slot.ssim.Enqueue(frames, options_.sum_mode == CudaSumMode::kExact, slot.f64_path, d_sums,
                          st));
    double* host = reinterpret_cast<double*>(slot.host_sums.get()) + kSsimSumsOffset;
    S2C_CUDA_TRY(cudaMemcpyAsync(host, d_sums, 3 * sizeof(double), cudaMemcpyDeviceToHost, st));
    if (beside) S2C_CUDA_TRY(cudaEventRecord(slot.ssim_done, st));
    return Status::Ok();
  }

  // SSIMULACRA 2 on the slot's stream, once per background of slot.alpha:
  // the scale-0 front end (it reads this pair's frames), then the rest,
  // which reads only the slot's buffers and is the same for every pair of
  // this size: replayed as one CUDA graph (use_graphs), or enqueued call by
  // call when stage events are recorded or planes observed. With an
  // observer, waits after each stage and hands the planes over (debug only).
  Status EnqueueSsimulacra2(PairSlot& slot, const PairFrames& frames, PlaneObserver* observer) {
    const Pyramid pyr(width_, height_);
    for (int p = 0; p < slot.alpha.count; ++p) {
      PairFrames pass = frames;
      pass.background = slot.alpha.background[p];
      S2C_RETURN_IF_ERROR(EnqueueFrontEnd(slot, pyr, pass, observer));
      bool replay = graphs_usable_ && !slot.timed && observer == nullptr;
      if (replay && slot.after_front_end.get() == nullptr &&
          !RecordAfterFrontEnd(slot, pyr, options_.sum_mode).ok()) {
        // Graphs are an optimisation: where recording fails, pairs go call
        // by call from now on, and a device fault shows up in those calls.
        graphs_usable_ = replay = false;
        cudaGetLastError();  // the failed capture's error, if it is not sticky
      }
      if (replay) {
        S2C_CUDA_TRY(cudaGraphLaunch(slot.after_front_end.get(), slot.stream));
      } else {
        S2C_RETURN_IF_ERROR(EnqueueAfterFrontEnd(slot, pyr, options_.sum_mode, observer));
      }
      if (p == 0 && slot.alpha.count == 2) {
        // The second pass writes over the sums and their pinned copy.
        double* first = reinterpret_cast<double*>(slot.host_sums.get()) + kFirstPassSumsOffset;
        S2C_CUDA_TRY(cudaMemcpyAsync(first, slot.d_sums,
                                     pyr.num_scales * kSumsPerScale * sizeof(double),
                                     cudaMemcpyDeviceToHost, slot.stream));
      }
    }
    return Status::Ok();
  }

  // The norms and score of one pass from its sums in the pinned results.
  static void ScoreFromSums(const double* all, const Pyramid& pyr, Subscores* sub,
                            double* score) {
    *sub = Subscores();
    for (int s = 0; s < pyr.num_scales; ++s) {
      double sums[kNumChannels][6];
      std::memcpy(sums, all + s * kSumsPerScale, sizeof(sums));
      NormsFromSums(sums, pyr.w[s], pyr.h[s], &sub->scale[s]);
      sub->num_scales = s + 1;
    }
    *score = sub->Score();
  }

  void FinishResult(const PairSlot& slot, Result* out) const {
    const double* all = reinterpret_cast<const double*>(slot.host_sums.get());
    out->metrics = metrics_;
    if (metrics_ & kMetricSsim) out->ssim = slot.ssim.Finish(all + kSsimSumsOffset);
    if (!(metrics_ & kMetricSsimulacra2)) return;
    const Pyramid pyr(width_, height_);
    ScoreFromSums(all, pyr, &out->subscores, &out->score);
    if (slot.alpha.count == 2) {
      Subscores first;
      double first_score = 0.0;
      ScoreFromSums(all + kFirstPassSumsOffset, pyr, &first, &first_score);
      // std::min(first, second) keeps the first unless the second is lower.
      if (!(out->score < first_score)) {
        out->subscores = first;
        out->score = first_score;
      }
    }
  }

  // Waits for every stream a slot's pair may have work on.
  static void WaitForSlot(PairSlot& slot) {
    slot.ssim.WaitIdle();
    cudaStreamSynchronize(slot.ssim_stream);
    cudaStreamSynchronize(slot.stream);
  }

  // Everything of a slot sized for a frame size or format: the pipeline's
  // buffers, the uploads' copies and SSIM's workspace. They are made again
  // for the next size (Configure) and at its first pair (Prepare).
  static void FreeWorkspaces(PairSlot& slot) {
    FreeSlot(slot);
    slot.raw[0].Free();
    slot.raw[1].Free();
    slot.ssim.Release();
  }

  // Drops the oldest pair, passing `st` through.
  Status Retire(Status st) {
    head_ = (head_ + 1) % capacity_;
    --count_;
    return st;
  }

  CudaBackendOptions options_;
  bool graphs_usable_ = options_.use_graphs;
  std::vector<PairSlot> slots_;
  int capacity_;  // the slots in use, from the front: Configure fits them
  ThreadPool copy_pool_{CopyThreads()};
  int head_ = 0;
  int count_ = 0;
  int width_ = 0, height_ = 0;
  unsigned metrics_ = kMetricSsimulacra2;
  CudaStageTimes times_;
};

// The driver context current on this thread, or null; looked up through the
// runtime so that the library does not link libcuda itself.
CUcontext CurrentDriverContext() {
  using GetCurrent = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000,
                                       cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess || fn == nullptr) {
    return nullptr;
  }
  CUcontext ctx = nullptr;
  if (reinterpret_cast<GetCurrent>(fn)(&ctx) != CUDA_SUCCESS) return nullptr;
  return ctx;
}

Status NoDevice(const Status& why) {
  return Status(StatusCode::kNoDevice, "no usable CUDA device: " + why.message());
}

}  // namespace

Status MakeCudaBackend(const CudaBackendOptions& options,
                       std::unique_ptr<CudaBackend>* out) {
  if (options.max_in_flight < 1) {
    return InvalidArgument("max_in_flight must be at least 1");
  }
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) return NoDevice(CudaStatus(e, "cudaGetDeviceCount", __FILE__, __LINE__));
  if (count == 0) return Status(StatusCode::kNoDevice, "no CUDA device found");
  if (CurrentDriverContext() != nullptr) {
    int current = -1;
    e = cudaGetDevice(&current);
    if (e != cudaSuccess) return NoDevice(CudaStatus(e, "cudaGetDevice", __FILE__, __LINE__));
    if (options.device_id >= 0 && options.device_id != current) {
      return InvalidArgument("device " + std::to_string(options.device_id) +
                             " requested, but the current context is on device " +
                             std::to_string(current));
    }
  } else {
    const int device = options.device_id < 0 ? 0 : options.device_id;
    if (device >= count) {
      return Status(StatusCode::kNoDevice,
                    "CUDA device " + std::to_string(device) + " requested, " +
                        std::to_string(count) + " present");
    }
    e = cudaSetDevice(device);
    if (e != cudaSuccess) return NoDevice(CudaStatus(e, "cudaSetDevice", __FILE__, __LINE__));
  }
  e = cuda::CheckKernelImage();
  if (e != cudaSuccess) {
    // No machine code for this GPU and no PTX it can take: name the build
    // option that would add it. Never a wrong score.
    return NoDevice(CudaStatus(e,
                               "loading the kernels (built for " S2C_GPU_ARCH
                               "; rebuild with -Dgpu_arch listing this GPU's sm_XY)",
                               __FILE__, __LINE__));
  }
  S2C_CUDA_TRY(cuda::PrepareBlurKernels());  // for the context used from now on
  int device = 0, major = 0, minor = 0;
  S2C_CUDA_TRY(cudaGetDevice(&device));
  S2C_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  S2C_CUDA_TRY(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  CudaBackendOptions resolved = options;
  resolved.device_fp64 = ResolveDeviceFp64(options.device_fp64, major, minor);
  std::unique_ptr<CudaBackendImpl> backend(new CudaBackendImpl(resolved));
  S2C_RETURN_IF_ERROR(backend->Init());
  *out = std::move(backend);
  return Status::Ok();
}

Status MakeCudaBackend(int device_id, int max_in_flight, DeviceFp64 device_fp64,
                       std::unique_ptr<Backend>* out) {
  CudaBackendOptions options;
  options.device_id = device_id;
  options.max_in_flight = max_in_flight;
  options.device_fp64 = device_fp64;
  std::unique_ptr<CudaBackend> backend;
  S2C_RETURN_IF_ERROR(MakeCudaBackend(options, &backend));
  *out = std::move(backend);
  return Status::Ok();
}

}  // namespace s2c
