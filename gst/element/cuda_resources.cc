// SPDX-License-Identifier: BSD-3-Clause
#include "cuda_resources.h"

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#if !GST_CHECK_VERSION(1, 24, 0)
#include <dlfcn.h>
#endif

#include <string>
#include <utility>

#include "cuda/cuda_backend.h"

GST_DEBUG_CATEGORY_EXTERN(gst_ssimulacra2_cmp_debug);
#define GST_CAT_DEFAULT gst_ssimulacra2_cmp_debug

namespace s2c {

namespace {

constexpr char kContextKey[] = "s2c-cuda-context";

// The element's CUDA context. gst_cuda_ensure_element_context and
// gst_cuda_handle_set_context both write it where it lives, as GStreamer's
// CUDA elements pass &self->context to both: a context that a neighbour or
// the application gives while ensure queries for one (set_context, from
// the NEED_CONTEXT message) is then the one ensure finds, rather than a
// second context it creates.
struct ContextSlot {
  GstCudaContext* context = nullptr;
};

void FreeSlot(gpointer data) {
  ContextSlot* slot = static_cast<ContextSlot*>(data);
  if (slot->context != nullptr) gst_object_unref(slot->context);
  delete slot;
}

// Made on first use under the object lock: the application's thread
// (set_context) and a streaming thread (a context query) may ask at once.
ContextSlot* SlotOf(GstElement* element) {
  GST_OBJECT_LOCK(element);
  auto* slot = static_cast<ContextSlot*>(g_object_get_data(G_OBJECT(element), kContextKey));
  if (slot == nullptr) {
    slot = new ContextSlot;
    g_object_set_data_full(G_OBJECT(element), kContextKey, slot, FreeSlot);
  }
  GST_OBJECT_UNLOCK(element);
  return slot;
}

GstCudaContext* ContextOf(GstElement* element) { return SlotOf(element)->context; }

// Runs the wrapped backend with the element's CUDA context current: the
// streaming thread that calls it has no context of its own.
class ContextBoundBackend : public Backend {
 public:
  ContextBoundBackend(GstCudaContext* context, std::unique_ptr<Backend> inner)
      : context_(GST_CUDA_CONTEXT(gst_object_ref(context))), inner_(std::move(inner)) {}
  ~ContextBoundBackend() override {
    // The backend frees device memory: its context must be current.
    const bool pushed = gst_cuda_context_push(context_);
    inner_.reset();
    if (pushed) gst_cuda_context_pop(nullptr);
    gst_object_unref(context_);
  }

  const char* name() const override { return inner_->name(); }

  Status SetMetrics(unsigned metrics) override {
    return Bound([&] { return inner_->SetMetrics(metrics); });
  }
  Status Configure(int width, int height) override {
    return Bound([&] { return inner_->Configure(width, height); });
  }
  Status Submit(const FrameView& ref, const FrameView& dist, MemoryKind memory,
                uint64_t tag) override {
    return Bound([&] { return inner_->Submit(ref, dist, memory, tag); });
  }
  int InFlight() const override { return inner_->InFlight(); }
  int Capacity() const override { return inner_->Capacity(); }
  size_t DeviceBytes() const override { return inner_->DeviceBytes(); }
  Status CollectOldest(bool wait, bool* ready, uint64_t* tag, Result* out) override {
    return Bound([&] { return inner_->CollectOldest(wait, ready, tag, out); });
  }

 private:
  template <typename F>
  Status Bound(F call) {
    if (!gst_cuda_context_push(context_)) {
      return Status(StatusCode::kDeviceError, "could not make the CUDA context current");
    }
    Status status = call();
    gst_cuda_context_pop(nullptr);
    return status;
  }

  GstCudaContext* context_;
  std::unique_ptr<Backend> inner_;
};

// gst_cuda_memory_sync() of the libgstcuda this process runs with, or null
// where it has none (GStreamer 1.22). A build against 1.22 headers looks the
// function up at run time, so that the same binary also waits under a later
// libgstcuda (the library's soname is the same).
using MemorySync = void (*)(GstCudaMemory*);
MemorySync RuntimeMemorySync() {
#if GST_CHECK_VERSION(1, 24, 0)
  return gst_cuda_memory_sync;
#else
  static const MemorySync sync =
      reinterpret_cast<MemorySync>(dlsym(RTLD_DEFAULT, "gst_cuda_memory_sync"));
  return sync;
#endif
}

// True when every memory of `buffer` is CUDA memory the element's context
// can read in place (its own context, or a peer one).
bool IsReadableInPlace(GstElement* element, GstBuffer* buffer) {
  GstCudaContext* ours = ContextOf(element);
  if (ours == nullptr) return false;
  const guint n = gst_buffer_n_memory(buffer);
  for (guint i = 0; i < n; ++i) {
    GstMemory* mem = gst_buffer_peek_memory(buffer, i);
    if (!gst_is_cuda_memory(mem)) return false;
    GstCudaContext* theirs = reinterpret_cast<GstCudaMemory*>(mem)->context;
    if (theirs != ours && !gst_cuda_context_can_access_peer(ours, theirs)) return false;
  }
  return true;
}

// Waits until the writes to `buffer`'s CUDA memory that its producer left
// running on the memory's CUDA stream have finished, so that the backend,
// on streams of its own, reads the finished frame. Called after mapping
// the buffer with GST_MAP_CUDA: the map itself may enqueue an upload on
// that stream. CUDA memory carries a stream from GStreamer 1.24 on, and
// GST_MAP_CUDA does not wait for it; in 1.22 the memory has no stream and
// its producers finish their writes before pushing, so there is nothing to
// wait for (docs/decisions.md, D31).
void WaitForCudaWriters(GstBuffer* buffer) {
  // As GStreamer's own CUDA elements do for memory of a stream other than
  // theirs (nvencoder, cudaconvert): gst_cuda_memory_sync() waits for the
  // memory's stream only when a write left it marked as needing a sync, and
  // clears the mark, so a second reader of the same buffer does not wait.
  const MemorySync sync = RuntimeMemorySync();
  if (sync == nullptr) return;
  const guint n = gst_buffer_n_memory(buffer);
  for (guint i = 0; i < n; ++i) {
    GstMemory* mem = gst_buffer_peek_memory(buffer, i);
    if (gst_is_cuda_memory(mem)) sync(reinterpret_cast<GstCudaMemory*>(mem));
  }
}

}  // namespace

bool HandleCudaContextQuery(GstElement* element, GstQuery* query) {
  GstCudaContext* context = ContextOf(element);
  return context != nullptr && gst_cuda_handle_context_query(element, query, context);
}

// Takes the context where the element holds none (GstCuda never replaces
// one it holds).
void SetCudaContext(GstElement* element, GstContext* context, int device_id) {
  gst_cuda_handle_set_context(element, context, device_id, &SlotOf(element)->context);
}

void ReleaseCudaContext(GstElement* element) {
  GstCudaContext** slot = &SlotOf(element)->context;
  if (*slot != nullptr) gst_object_unref(*slot);
  *slot = nullptr;
}

Status MakeContextBoundCudaBackend(GstElement* element, const BackendRequest& request,
                                   std::unique_ptr<Backend>* out) {
  const int device_id = request.cuda_device_id;
  if (!gst_cuda_load_library()) {
    return Status(StatusCode::kNoDevice, "the CUDA driver library could not be loaded");
  }
  GstCudaContext** slot = &SlotOf(element)->context;
  if (!gst_cuda_ensure_element_context(element, device_id, slot) || *slot == nullptr) {
    return Status(StatusCode::kNoDevice,
                  "no CUDA context for device " + std::to_string(device_id));
  }
  GstCudaContext* context = *slot;
  guint context_device = 0;
  g_object_get(context, "cuda-device-id", &context_device, nullptr);

  std::unique_ptr<CudaBackend> cuda;
  if (!gst_cuda_context_push(context)) {
    return Status(StatusCode::kDeviceError, "could not make the CUDA context current");
  }
  CudaBackendOptions options;
  options.device_id = static_cast<int>(context_device);
  options.max_in_flight = request.max_in_flight;
  options.device_fp64 = request.device_fp64;
  options.device_memory_limit = static_cast<size_t>(request.device_memory_limit);
  const Status status = MakeCudaBackend(options, &cuda);
  gst_cuda_context_pop(nullptr);
  if (!status.ok()) return status;
  GST_INFO_OBJECT(element, "CUDA context %p, device %u: f64 steps on the %s path (device-fp64=%s)",
                  static_cast<void*>(context), context_device, DeviceFp64Name(cuda->F64PathInUse()),
                  DeviceFp64Name(request.device_fp64));
  *out = std::make_unique<ContextBoundBackend>(context, std::move(cuda));
  return Status::Ok();
}

MemoryKind PairMemory(GstElement* element, bool cuda_pair, GstBuffer* ref, GstBuffer* dist) {
  return cuda_pair && IsReadableInPlace(element, ref) && IsReadableInPlace(element, dist)
             ? MemoryKind::kDevice
             : MemoryKind::kHost;
}

bool MapForBackend(GstVideoFrame* frame, GstVideoInfo* info, GstBuffer* buffer,
                   MemoryKind memory) {
  const bool device = memory == MemoryKind::kDevice;
  const int flags = device ? GST_MAP_READ | GST_MAP_CUDA : GST_MAP_READ;
  if (!gst_video_frame_map(frame, info, buffer, static_cast<GstMapFlags>(flags))) return false;
  if (device) WaitForCudaWriters(buffer);
  return true;
}

}  // namespace s2c
