// SPDX-License-Identifier: BSD-3-Clause
// CUDA memory whose producer is still writing it on the memory's CUDA
// stream, as GStreamer >= 1.24 allows: GST_MAP_CUDA does not wait for that
// stream, so the element must before its backend reads the frame. Each
// frame here is pushed while its content is still queued on the stream,
// behind a host function that sleeps; the scores must be the bits of the
// same frames pushed in system memory, both on the CUDA backend. Applies
// where a CUDA driver and device are: exits 77 (skipped) elsewhere, and
// says why.
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "pipeline_run.h"
#include "test_pipelines.h"

#include <gst/check/gstcheck.h>
#include <gst/cuda/gstcuda.h>
#include <gst/video/video.h>

namespace {

using s2c_test::AssertBits;

constexpr int kPairs = 3;
constexpr GstClockTime kFrame = 40 * GST_MSECOND;
// Far longer than the backend takes to score a 64x48 pair, so that a
// backend that does not wait reads the frame before it is written.
constexpr gulong kWriteDelayUs = 300 * 1000;

#define CHECK_CUDA(expr)                                                        \
  do {                                                                          \
    const cudaError_t e_ = (expr);                                              \
    fail_unless(e_ == cudaSuccess, "%s: %s", #expr, cudaGetErrorString(e_));    \
  } while (0)

std::string Caps(bool cuda) {
  return std::string("video/x-raw") + (cuda ? "(memory:CUDAMemory)" : "") +
         ",format=I420,width=" + std::to_string(s2c_test::kWidth) +
         ",height=" + std::to_string(s2c_test::kHeight) + ",framerate=25/1";
}

// A frame in system memory whose content depends on `seed`.
GstBuffer* SystemFrame(const GstVideoInfo& info, int seed, int index) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); ++p) {
    auto* data = static_cast<guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p); ++y) {
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&frame, p); ++x) {
        data[y * stride + x] = static_cast<guint8>((x * 7 + y * 13 + seed * 53 + p * 29) & 0xff);
      }
    }
  }
  gst_video_frame_unmap(&frame);
  GST_BUFFER_PTS(buffer) = index * kFrame;
  GST_BUFFER_DURATION(buffer) = kFrame;
  return buffer;
}

void SleepOnStream(void*) { g_usleep(kWriteDelayUs); }

// Writes frames into CUDA memory of one context and stream, late: each
// memory is zeroed, then a host function that sleeps and the copy of the
// frame are queued on the stream, and the buffer is returned at once.
class LateWriter {
 public:
  explicit LateWriter(GstCudaContext* context)
      : context_(GST_CUDA_CONTEXT(gst_object_ref(context))),
        stream_(gst_cuda_stream_new(context)) {}
  ~LateWriter() {
    gst_cuda_context_push(context_);
    cudaStreamSynchronize(Handle());
    for (void* p : pinned_) cudaFreeHost(p);
    gst_cuda_context_pop(nullptr);
    gst_cuda_stream_unref(stream_);
    gst_object_unref(context_);
  }
  bool ok() const { return stream_ != nullptr; }

  GstBuffer* Write(const GstVideoInfo& info, GstBuffer* system) {
    GstMemory* mem = gst_cuda_allocator_alloc(nullptr, context_, stream_, &info);
    fail_unless(mem != nullptr, "gst_cuda_allocator_alloc failed");
    GstCudaMemory* cmem = GST_CUDA_MEMORY_CAST(mem);
    GstBuffer* buffer = gst_buffer_new();
    gst_buffer_append_memory(buffer, mem);
    gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
                                   GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                                   GST_VIDEO_INFO_N_PLANES(&info), cmem->info.offset,
                                   cmem->info.stride);
    GST_BUFFER_PTS(buffer) = GST_BUFFER_PTS(system);
    GST_BUFFER_DURATION(buffer) = GST_BUFFER_DURATION(system);

    fail_unless(gst_cuda_context_push(context_));
    // The frame in the memory's layout, in pinned memory: a copy from
    // pinned memory is queued, where one from pageable memory may be made
    // before the call returns.
    void* pinned = nullptr;
    CHECK_CUDA(cudaMallocHost(&pinned, mem->size));
    pinned_.push_back(pinned);
    GstBuffer* staging = gst_buffer_new_wrapped_full(static_cast<GstMemoryFlags>(0), pinned,
                                                     mem->size, 0, mem->size, nullptr, nullptr);
    GstVideoFrame from, to;
    fail_unless(gst_video_frame_map(&from, &info, system, GST_MAP_READ));
    fail_unless(gst_video_frame_map(&to, &cmem->info, staging, GST_MAP_WRITE));
    fail_unless(gst_video_frame_copy(&to, &from));
    gst_video_frame_unmap(&to);
    gst_video_frame_unmap(&from);
    gst_buffer_unref(staging);

    // A write map on a memory with a stream marks it as needing a sync,
    // as GStreamer's CUDA elements leave the memory they push.
    GstMapInfo map;
    fail_unless(gst_memory_map(mem, &map, static_cast<GstMapFlags>(GST_MAP_WRITE | GST_MAP_CUDA)));
    CHECK_CUDA(cudaMemsetAsync(map.data, 0, mem->size, Handle()));
    CHECK_CUDA(cudaLaunchHostFunc(Handle(), SleepOnStream, nullptr));
    CHECK_CUDA(cudaMemcpyAsync(map.data, pinned, mem->size, cudaMemcpyHostToDevice, Handle()));
    gst_memory_unmap(mem, &map);
    gst_cuda_context_pop(nullptr);
    return buffer;
  }

 private:
  cudaStream_t Handle() { return reinterpret_cast<cudaStream_t>(gst_cuda_stream_get_handle(stream_)); }

  GstCudaContext* context_;
  GstCudaStream* stream_;
  std::vector<void*> pinned_;
};

void PushAll(GstElement* pipeline, const char* name, const std::vector<GstBuffer*>& buffers) {
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), name);
  GstFlowReturn flow;
  for (GstBuffer* b : buffers) g_signal_emit_by_name(src, "push-buffer", b, &flow);
  g_signal_emit_by_name(src, "end-of-stream", &flow);
  gst_object_unref(src);
}

s2c_test::RunResult Run(bool cuda, GstCudaContext* context, const std::vector<GstBuffer*>& ref,
                        const std::vector<GstBuffer*>& dist) {
  const std::string caps = Caps(cuda);
  return s2c_test::RunPipeline(
      "appsrc name=ref format=time caps=\"" + caps + "\" ! cmp.ref_sink appsrc name=dist " +
          "format=time caps=\"" + caps + "\" ! cmp.dist_sink ssimulacra2cmp name=cmp " +
          "max-in-flight=" + std::to_string(kPairs) + " ! fakesink name=out",
      {"backend=cuda"}, [&](GstElement* pipeline) {
        if (cuda) {
          // The element reads in place only memory of its own context.
          GstElement* cmp = gst_bin_get_by_name(GST_BIN(pipeline), "cmp");
          GstContext* shared = gst_context_new_cuda_context(context);
          gst_element_set_context(cmp, shared);
          gst_context_unref(shared);
          gst_object_unref(cmp);
        }
        PushAll(pipeline, "ref", ref);
        PushAll(pipeline, "dist", dist);
      });
}

GST_START_TEST(test_frames_still_written_on_their_stream_score_as_in_system_memory) {
  GstCudaContext* context = gst_cuda_context_new(0);
  fail_unless(context != nullptr, "gst_cuda_context_new(0) failed");
  GstVideoInfo info;
  GstCaps* caps = gst_caps_from_string(Caps(false).c_str());
  fail_unless(gst_video_info_from_caps(&info, caps));
  gst_caps_unref(caps);

  std::vector<GstBuffer*> ref, dist;
  for (int i = 0; i < kPairs; ++i) {
    ref.push_back(SystemFrame(info, 0, i));
    dist.push_back(SystemFrame(info, 1 + i, i));
  }
  const s2c_test::RunResult host = Run(false, context, ref, dist);

  LateWriter writer(context);
  fail_unless(writer.ok(), "gst_cuda_stream_new failed");
  std::vector<GstBuffer*> late_ref, late_dist;
  for (int i = 0; i < kPairs; ++i) {
    late_ref.push_back(writer.Write(info, ref[i]));
    late_dist.push_back(writer.Write(info, dist[i]));
  }
  const s2c_test::RunResult device = Run(true, context, late_ref, late_dist);

  fail_unless(host.errors.empty() && device.errors.empty(), "error: %s",
              !host.errors.empty() ? host.errors[0].c_str()
              : !device.errors.empty() ? device.errors[0].c_str() : "");
  fail_unless_equals_int(host.frames.size(), kPairs);
  fail_unless_equals_int(device.frames.size(), kPairs);
  for (int i = 0; i < kPairs; ++i) {
    fail_if(host.frames[i].score == 100.0, "pair %d: the frames differ, the score cannot be 100", i);
    AssertBits(device.frames[i].score, host.frames[i].score);
  }
  for (GstBuffer* b : ref) gst_buffer_unref(b);
  for (GstBuffer* b : dist) gst_buffer_unref(b);
  for (GstBuffer* b : late_ref) gst_buffer_unref(b);
  for (GstBuffer* b : late_dist) gst_buffer_unref(b);
  gst_object_unref(context);
}
GST_END_TEST;

}  // namespace

static Suite* cuda_stream_memory_suite() {
  Suite* s = suite_create("ssimulacra2cmp-cuda-stream-memory");
  TCase* tc = tcase_create("cuda");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_frames_still_written_on_their_stream_score_as_in_system_memory);
  return s;
}

// Why the test does not apply here, or "" where it does.
static std::string WhyNotHere() {
  if (!gst_cuda_load_library()) return "no CUDA driver (libcuda) was found";
  GstCudaContext* context = gst_cuda_context_new(0);
  if (context == nullptr) return "no CUDA device";
  gst_object_unref(context);
  return "";
}

int main(int argc, char** argv) {
  gst_check_init(&argc, &argv);
  const std::string why = WhyNotHere();
  if (!why.empty()) return s2c::test::Skip(why.c_str());
  return gst_check_run_suite(cuda_stream_memory_suite(), "cuda_stream_memory", __FILE__);
}
