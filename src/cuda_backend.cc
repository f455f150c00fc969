// SPDX-License-Identifier: BSD-3-Clause
// The CUDA backend's host side: context and device choice, one workspace and
// stream per pair in flight, uploads through pinned staging, the pipeline
// enqueued stage by stage in CpuReference::Compare's order (after the front
// end, recorded once per slot and replayed as a CUDA graph), and results
// turned into norms and a score on the host (subscores.h), as the CPU does.
#include "cuda_backend.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "blur_coeffs.h"
#include "cuda_status.h"
#include "frontend.h"
#include "launch.h"
#include "thread_pool.h"

namespace s2c {
namespace {

using cuda::BlurPlanes;
using cuda::PairFrames;
using cuda::PairPlanes;

constexpr int kSumsPerScale = 18;  // 3 channels x 6 terms
constexpr size_t kAlign = 256;     // start of every carved buffer

size_t AlignUp(size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

// Host-to-staging copies of frames in host memory: up to 8 threads, 64 rows
// per task.
constexpr int kCopyRows = 64;
int CopyThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return cores > 0 ? std::min(8, cores) : 1;
}

// Device or pinned host memory, sized once and reused; `Memory` supplies
// the CUDA allocation and release calls.
template <class Memory>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  ~CudaBuffer() { Free(); }
  Status Resize(size_t bytes) {
    Free();
    if (bytes == 0) return Status::Ok();
    S2C_CUDA_TRY(Memory::Allocate(&ptr_, bytes));
    bytes_ = bytes;
    return Status::Ok();
  }
  void Free() {
    if (ptr_) Memory::Release(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
  }
  uint8_t* get() const { return static_cast<uint8_t*>(ptr_); }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

struct DeviceMemory {
  static cudaError_t Allocate(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
  static void Release(void* p) { cudaFree(p); }
};
struct PinnedMemory {
  static cudaError_t Allocate(void** p, size_t bytes) {
    return cudaHostAlloc(p, bytes, cudaHostAllocDefault);
  }
  static void Release(void* p) { cudaFreeHost(p); }
};
using DeviceBuffer = CudaBuffer<DeviceMemory>;
using PinnedBuffer = CudaBuffer<PinnedMemory>;

// An instantiated CUDA graph, destroyed with its owner.
class GraphExec {
 public:
  GraphExec() = default;
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  ~GraphExec() { Reset(); }
  void Reset(cudaGraphExec_t exec = nullptr) {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = exec;
  }
  cudaGraphExec_t get() const { return exec_; }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// Sizes of the pyramid for a frame size: the canonical loop's scales.
struct Pyramid {
  int num_scales = 0;
  int w[kNumScales] = {};
  int h[kNumScales] = {};
  explicit Pyramid(int width, int height) {
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
};

// Planes of one size carved from one allocation, `count` of them.
struct PlaneBlock {
  float* base = nullptr;
  ptrdiff_t pitch = 0;  // floats
  size_t plane_floats = 0;
  static size_t Bytes(int w, int h, int count) {
    return count * AlignUp(PitchOf(w) * h * sizeof(float));
  }
  static ptrdiff_t PitchOf(int w) { return (static_cast<ptrdiff_t>(w) + 31) & ~ptrdiff_t{31}; }
  void Carve(uint8_t* at, int w, int h) {
    base = reinterpret_cast<float*>(at);
    pitch = PitchOf(w);
    plane_floats = AlignUp(pitch * h * sizeof(float)) / sizeof(float);
  }
  PlaneView View(int index, int w, int h) const {
    PlaneView v;
    v.data = base + index * plane_floats;
    v.pitch = pitch;
    v.width = w;
    v.height = h;
    return v;
  }
  PairPlanes Pair(int first, int w, int h) const {
    PairPlanes p;
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) p.img[i].c[c] = View(first + i * 3 + c, w, h);
    }
    return p;
  }
};

// Stage events (time_stages): [0] before the upload, [1] after it, then per
// scale after the scale start, the horizontal blur, the vertical blur and
// the sums.
constexpr int kStageEventsPerScale = 4;
constexpr int kNumStageEvents = 2 + kStageEventsPerScale * kNumScales;

// Everything one pair in flight owns.
struct Slot {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  cudaEvent_t stage[kNumStageEvents] = {};
  DeviceBuffer planes;        // XYB, blurred, linear scales >= 1
  PlaneBlock xyb, blurred, linear_odd, linear_even;
  DeviceBuffer sums;          // per-scale sums, then sum workspaces
  double* d_sums = nullptr;
  double* d_partials = nullptr;
  void* d_sum_workspace = nullptr;
  PinnedBuffer host_sums;
  DeviceBuffer raw[2];        // device copies of host frames
  PinnedBuffer staging[2];
  DeviceBuffer debug_linear;  // scale-0 linear planes, debug mode only
  // Everything after the scale-0 front end, recorded once per frame size
  // from this slot's buffers (use_graphs).
  GraphExec after_front_end;
  uint64_t tag = 0;
  bool timed = false;
};

class CudaBackendImpl : public CudaBackend {
 public:
  explicit CudaBackendImpl(const CudaBackendOptions& options)
      : options_(options), slots_(options.max_in_flight) {}

  ~CudaBackendImpl() override {
    // The destructor waits for pairs still in flight: their buffers go away.
    for (Slot& s : slots_) {
      if (s.stream) cudaStreamSynchronize(s.stream);
      s.after_front_end.Reset();
      for (cudaEvent_t e : s.stage) {
        if (e) cudaEventDestroy(e);
      }
      if (s.done) cudaEventDestroy(s.done);
      if (s.stream) cudaStreamDestroy(s.stream);
    }
  }

  Status Init() {
    for (Slot& s : slots_) {
      S2C_CUDA_TRY(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
      S2C_CUDA_TRY(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
      if (options_.time_stages) {
        for (cudaEvent_t& e : s.stage) S2C_CUDA_TRY(cudaEventCreate(&e));
      }
      S2C_RETURN_IF_ERROR(
          s.host_sums.Resize(kNumScales * kSumsPerScale * sizeof(double)));
    }
    return Status::Ok();
  }

  const char* name() const override { return "cuda"; }

  Status Configure(int width, int height) override {
    S2C_RETURN_IF_ERROR(CheckFrameSize(width, height));
    if (count_ != 0) {
      return InvalidArgument("Configure with pairs in flight: collect them first");
    }
    if (width == width_ && height == height_) return Status::Ok();
    const Pyramid pyr(width, height);
    const int w1 = pyr.w[1], h1 = pyr.h[1];
    const int w2 = pyr.num_scales > 2 ? pyr.w[2] : 1, h2 = pyr.num_scales > 2 ? pyr.h[2] : 1;
    const size_t xyb_bytes = PlaneBlock::Bytes(width, height, 6);
    const size_t blur_bytes = PlaneBlock::Bytes(width, height, 15);
    const size_t odd_bytes = PlaneBlock::Bytes(w1, h1, 6);
    const size_t even_bytes = PlaneBlock::Bytes(w2, h2, 6);
    const size_t plane_bytes = xyb_bytes + blur_bytes + odd_bytes + even_bytes;
    const size_t sums_bytes =
        AlignUp(kNumScales * kSumsPerScale * sizeof(double)) +
        AlignUp(cuda::kTreeSumPartials * kSumsPerScale * sizeof(double)) +
        AlignUp(cuda::MapSumsWorkspaceBytes(width, height));

    // Refuse a size the device cannot hold before any work starts.
    for (Slot& s : slots_) {
      s.after_front_end.Reset();  // recorded with the old buffers
      s.planes.Free();
      s.sums.Free();
      s.debug_linear.Free();
    }
    width_ = height_ = 0;
    size_t free_bytes = 0, total_bytes = 0;
    S2C_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t needed = (plane_bytes + sums_bytes) * slots_.size();
    if (needed > free_bytes) {
      return Status(StatusCode::kOutOfMemory,
                    "frames of " + std::to_string(width) + "x" +
                        std::to_string(height) + " need " +
                        std::to_string(needed >> 20) + " MiB of device memory (" +
                        std::to_string(slots_.size()) +
                        " pairs in flight) but only " +
                        std::to_string(free_bytes >> 20) + " MiB are free");
    }
    for (Slot& s : slots_) {
      S2C_RETURN_IF_ERROR(s.planes.Resize(plane_bytes));
      uint8_t* at = s.planes.get();
      s.xyb.Carve(at, width, height);
      at += xyb_bytes;
      s.blurred.Carve(at, width, height);
      at += blur_bytes;
      s.linear_odd.Carve(at, w1, h1);
      at += odd_bytes;
      s.linear_even.Carve(at, w2, h2);
      S2C_RETURN_IF_ERROR(s.sums.Resize(sums_bytes));
      at = s.sums.get();
      s.d_sums = reinterpret_cast<double*>(at);
      at += AlignUp(kNumScales * kSumsPerScale * sizeof(double));
      s.d_partials = reinterpret_cast<double*>(at);
      at += AlignUp(cuda::kTreeSumPartials * kSumsPerScale * sizeof(double));
      s.d_sum_workspace = at;
    }
    width_ = width;
    height_ = height;
    return Status::Ok();
  }

  Status Submit(const FrameView& ref, const FrameView& dist, MemoryKind memory,
                uint64_t tag) override {
    if (count_ == static_cast<int>(slots_.size())) {
      return InvalidArgument("already " + std::to_string(count_) +
                             " pairs in flight: collect one first");
    }
    Slot& slot = slots_[(head_ + count_) % slots_.size()];
    PairFrames frames;
    S2C_RETURN_IF_ERROR(Prepare(ref, dist, memory, slot, &frames));
    slot.tag = tag;
    slot.timed = options_.time_stages;
    const Status st = Enqueue(slot, frames, nullptr);
    if (!st.ok()) {
      // Let whatever was enqueued finish before the slot is reused.
      cudaStreamSynchronize(slot.stream);
      return st;
    }
    ++count_;
    return Status::Ok();
  }

  int InFlight() const override { return count_; }

  Status CollectOldest(bool wait, bool* ready, uint64_t* tag,
                       Result* out) override {
    *ready = false;
    if (count_ == 0) return Status(StatusCode::kInternal, "no pair in flight");
    Slot& slot = slots_[head_];
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
    if (slot.timed) RecordStageTimes(slot);
    return Retire(Status::Ok());
  }

  Status CompareWithPlanes(const FrameView& ref, const FrameView& dist,
                           MemoryKind memory, Result* out,
                           PlaneObserver* observer) override {
    if (count_ != 0) return InvalidArgument("CompareWithPlanes with pairs in flight");
    Slot& slot = slots_[head_];
    PairFrames frames;
    S2C_RETURN_IF_ERROR(Prepare(ref, dist, memory, slot, &frames));
    if (slot.debug_linear.bytes() == 0) {
      S2C_RETURN_IF_ERROR(slot.debug_linear.Resize(PlaneBlock::Bytes(width_, height_, 6)));
    }
    slot.timed = false;
    const Status st = Enqueue(slot, frames, observer);
    if (!st.ok()) {
      cudaStreamSynchronize(slot.stream);
      return st;
    }
    S2C_CUDA_TRY(cudaEventSynchronize(slot.done));
    FinishResult(slot, out);
    return Status::Ok();
  }

  size_t DeviceBytes() const override {
    size_t total = 0;
    for (const Slot& s : slots_) {
      total += s.planes.bytes() + s.sums.bytes() + s.raw[0].bytes() +
               s.raw[1].bytes() + s.debug_linear.bytes();
    }
    return total;
  }

  CudaStageTimes LastStageTimes() const override { return times_; }

  bool GraphsInUse() const override { return graphs_usable_; }

 private:
  // Validates the pair and gives the device views the kernels read: the
  // caller's planes for device memory, else the slot's raw buffers, filled
  // from pinned staging by copies enqueued on the slot's stream.
  Status Prepare(const FrameView& ref, const FrameView& dist,
                 MemoryKind memory, Slot& slot, PairFrames* frames) {
    if (width_ == 0) return InvalidArgument("Submit before Configure");
    const FrameView* views[2] = {&ref, &dist};
    for (int i = 0; i < 2; ++i) {
      if (views[i]->desc.width != width_ || views[i]->desc.height != height_) {
        return InvalidArgument(
            std::string(i ? "distorted" : "reference") + " frame is " +
            std::to_string(views[i]->desc.width) + "x" +
            std::to_string(views[i]->desc.height) + ", configured " +
            std::to_string(width_) + "x" + std::to_string(height_));
      }
      S2C_RETURN_IF_ERROR(DescribeFrame(*views[i], &frames->layout[i]));
      frames->view[i] = *views[i];
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

  // Packs the frame's rows into pinned memory (a host copy: the slot is
  // idle, so its staging is free) and enqueues one copy to the device.
  static Status Upload(const FrameView& host, DeviceBuffer& raw,
                       PinnedBuffer& staging, cudaStream_t stream,
                       ThreadPool* copy_pool, FrameView* device) {
    const PixelFormat f = host.desc.format;
    const int planes = NumPlanes(f);
    size_t offset[kMaxPlanes] = {}, total = 0;
    int blocks[kMaxPlanes] = {}, num_blocks = 0;
    for (int p = 0; p < planes; ++p) {
      offset[p] = total;
      total += AlignUp(PlaneRowBytes(f, host.desc.width, p) *
                       PlaneRows(f, host.desc.height, p));
      blocks[p] = (PlaneRows(f, host.desc.height, p) + kCopyRows - 1) / kCopyRows;
      num_blocks += blocks[p];
    }
    // Grows once per larger format, not per frame; cudaFree/cudaMalloc may
    // synchronise the device when that happens.
    if (raw.bytes() < total) S2C_RETURN_IF_ERROR(raw.Resize(total));
    if (staging.bytes() < total) S2C_RETURN_IF_ERROR(staging.Resize(total));
    *device = host;
    for (int p = 0; p < planes; ++p) {
      device->data[p] = raw.get() + offset[p];
      device->stride[p] = static_cast<ptrdiff_t>(PlaneRowBytes(f, host.desc.width, p));
    }
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

  // The whole pipeline of one pair on the slot's stream: the scale-0 front
  // end (it reads this pair's frames), then the rest, which reads only the
  // slot's buffers and is the same for every pair of this size: replayed as
  // one CUDA graph (use_graphs), or enqueued call by call when stage events
  // are recorded or planes observed. With an observer, waits after each
  // stage and hands the planes over (debug only).
  Status Enqueue(Slot& slot, const PairFrames& frames, PlaneObserver* observer) {
    const Pyramid pyr(width_, height_);
    S2C_CUDA_TRY(Mark(slot, 1));
    S2C_RETURN_IF_ERROR(EnqueueScaleStart(slot, pyr, 0, &frames, observer));
    bool replay = graphs_usable_ && !slot.timed && observer == nullptr;
    if (replay && slot.after_front_end.get() == nullptr && !RecordAfterFrontEnd(slot, pyr).ok()) {
      // Graphs are an optimisation: where recording fails, pairs go call by
      // call from now on, and a device fault shows up in those calls.
      graphs_usable_ = replay = false;
      cudaGetLastError();  // the failed capture's error, if it is not sticky
    }
    if (replay) {
      S2C_CUDA_TRY(cudaGraphLaunch(slot.after_front_end.get(), slot.stream));
    } else {
      S2C_RETURN_IF_ERROR(EnqueueAfterFrontEnd(slot, pyr, observer));
    }
    S2C_CUDA_TRY(cudaEventRecord(slot.done, slot.stream));
    return Status::Ok();
  }

  // Records EnqueueAfterFrontEnd into the slot's graph (stream capture: the
  // kernels are recorded, not run).
  Status RecordAfterFrontEnd(Slot& slot, const Pyramid& pyr) {
    S2C_CUDA_TRY(cudaStreamBeginCapture(slot.stream, cudaStreamCaptureModeThreadLocal));
    const Status enqueued = EnqueueAfterFrontEnd(slot, pyr, nullptr);
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

  cudaError_t Mark(const Slot& slot, int index) const {
    return slot.timed ? cudaEventRecord(slot.stage[index], slot.stream) : cudaSuccess;
  }

  // Scale s's start: the front end from the pair's frames (s == 0) or the
  // downsample of scale s - 1's linear planes, and positive XYB.
  Status EnqueueScaleStart(Slot& slot, const Pyramid& pyr, int s,
                           const PairFrames* frames, PlaneObserver* observer) {
    const int w = pyr.w[s], h = pyr.h[s];
    const PairPlanes xyb = slot.xyb.Pair(0, w, h);
    PairPlanes next;
    if (s + 1 < pyr.num_scales) {
      next = LinearOf(slot, s + 1, pyr.w[s + 1], pyr.h[s + 1]);
    }
    PairPlanes linear;
    if (s == 0) {
      if (observer) {
        PlaneBlock dbg;
        dbg.Carve(slot.debug_linear.get(), w, h);
        linear = dbg.Pair(0, w, h);
      }
      S2C_CUDA_TRY(cuda::LaunchFrontEnd(*frames, xyb, next, linear, slot.stream));
    } else {
      linear = LinearOf(slot, s, w, h);
      S2C_CUDA_TRY(cuda::LaunchScaleStart(linear, xyb, next, slot.stream));
    }
    S2C_CUDA_TRY(Mark(slot, 2 + kStageEventsPerScale * s));
    if (observer) {
      S2C_RETURN_IF_ERROR(Observe(observer, slot.stream, Stage::kLinear, s, linear));
      S2C_RETURN_IF_ERROR(Observe(observer, slot.stream, Stage::kXyb, s, xyb));
    }
    return Status::Ok();
  }

  // Scale 0's blurs and sums, the later scales whole, and the sums' copy to
  // the host.
  Status EnqueueAfterFrontEnd(Slot& slot, const Pyramid& pyr, PlaneObserver* observer) {
    const RecursiveGaussian& rg = Sigma15Gaussian();
    cudaStream_t st = slot.stream;
    for (int s = 0; s < pyr.num_scales; ++s) {
      const int w = pyr.w[s], h = pyr.h[s];
      if (s > 0) S2C_RETURN_IF_ERROR(EnqueueScaleStart(slot, pyr, s, nullptr, observer));
      const PairPlanes xyb = slot.xyb.Pair(0, w, h);
      const int base = 2 + kStageEventsPerScale * s;
      BlurPlanes blurred;
      for (int c = 0; c < 3; ++c) {
        for (int k = 0; k < cuda::kNumBlurKinds; ++k) {
          blurred.p[c][k] = slot.blurred.View(c * cuda::kNumBlurKinds + k, w, h);
        }
      }
      S2C_CUDA_TRY(cuda::LaunchBlurHorizontal(rg, xyb, blurred, st));
      S2C_CUDA_TRY(Mark(slot, base + 1));
      S2C_CUDA_TRY(cuda::LaunchBlurVertical(rg, blurred, st));
      S2C_CUDA_TRY(Mark(slot, base + 2));
      if (observer) S2C_RETURN_IF_ERROR(ObserveBlurred(observer, st, s, blurred));
      double* sums = slot.d_sums + s * kSumsPerScale;
      if (options_.sum_mode == CudaSumMode::kExact) {
        S2C_CUDA_TRY(cuda::LaunchMapSumsExact(xyb, blurred, slot.d_sum_workspace,
                                              sums, st));
      } else {
        S2C_CUDA_TRY(cuda::LaunchMapSumsTree(xyb, blurred, slot.d_partials, sums, st));
      }
      S2C_CUDA_TRY(Mark(slot, base + 3));
    }
    S2C_CUDA_TRY(cudaMemcpyAsync(slot.host_sums.get(), slot.d_sums,
                                 pyr.num_scales * kSumsPerScale * sizeof(double),
                                 cudaMemcpyDeviceToHost, st));
    return Status::Ok();
  }

  // Scales 1, 3, 5 use the block sized for scale 1; 2, 4 the one for scale 2.
  static PairPlanes LinearOf(const Slot& slot, int scale, int w, int h) {
    return (scale % 2 ? slot.linear_odd : slot.linear_even).Pair(0, w, h);
  }

  static Status Observe(PlaneObserver* observer, cudaStream_t st, Stage stage,
                        int scale, const PairPlanes& planes) {
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) {
        S2C_RETURN_IF_ERROR(ObserveOne(observer, st, stage, scale, i, c,
                                       planes.img[i].c[c]));
      }
    }
    return Status::Ok();
  }

  static Status ObserveBlurred(PlaneObserver* observer, cudaStream_t st,
                               int scale, const BlurPlanes& b) {
    for (int c = 0; c < 3; ++c) {
      S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kMu, scale, 0, c, b.p[c][cuda::kMu1]));
      S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kMu, scale, 1, c, b.p[c][cuda::kMu2]));
      S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kSigmaSq, scale, 0, c, b.p[c][cuda::kSigma11]));
      S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kSigmaSq, scale, 1, c, b.p[c][cuda::kSigma22]));
      S2C_RETURN_IF_ERROR(ObserveOne(observer, st, Stage::kSigma12, scale, 0, c, b.p[c][cuda::kSigma12]));
    }
    return Status::Ok();
  }

  // Debug only: a blocking download of one plane.
  static Status ObserveOne(PlaneObserver* observer, cudaStream_t st, Stage stage,
                           int scale, int image, int channel, const PlaneView& d) {
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

  void FinishResult(const Slot& slot, Result* out) const {
    const Pyramid pyr(width_, height_);
    const double* all = reinterpret_cast<const double*>(slot.host_sums.get());
    Subscores& sub = out->subscores;
    sub = Subscores();
    for (int s = 0; s < pyr.num_scales; ++s) {
      double sums[kNumChannels][6];
      std::memcpy(sums, all + s * kSumsPerScale, sizeof(sums));
      NormsFromSums(sums, pyr.w[s], pyr.h[s], &sub.scale[s]);
      sub.num_scales = s + 1;
    }
    out->score = sub.Score();
  }

  void RecordStageTimes(const Slot& slot) {
    const Pyramid pyr(width_, height_);
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
    times_ = t;
  }

  // Drops the oldest pair, passing `st` through.
  Status Retire(Status st) {
    head_ = (head_ + 1) % slots_.size();
    --count_;
    return st;
  }

  CudaBackendOptions options_;
  bool graphs_usable_ = options_.use_graphs;
  std::vector<Slot> slots_;
  ThreadPool copy_pool_{CopyThreads()};
  int head_ = 0;
  int count_ = 0;
  int width_ = 0, height_ = 0;
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
    return NoDevice(CudaStatus(e, "loading the kernels (built for " S2C_GPU_ARCH ")",
                               __FILE__, __LINE__));
  }
  S2C_CUDA_TRY(cuda::PrepareBlurKernels());  // for the context used from now on
  std::unique_ptr<CudaBackendImpl> backend(new CudaBackendImpl(options));
  S2C_RETURN_IF_ERROR(backend->Init());
  *out = std::move(backend);
  return Status::Ok();
}

Status MakeCudaBackend(int device_id, int max_in_flight,
                       std::unique_ptr<Backend>* out) {
  CudaBackendOptions options;
  options.device_id = device_id;
  options.max_in_flight = max_in_flight;
  std::unique_ptr<CudaBackend> backend;
  S2C_RETURN_IF_ERROR(MakeCudaBackend(options, &backend));
  *out = std::move(backend);
  return Status::Ok();
}

}  // namespace s2c
