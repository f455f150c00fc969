// SPDX-License-Identifier: BSD-3-Clause
// Element tests that apply to some machines only. Meson runs each as a test
// of its own (its name is the argument); where it does not apply, it exits
// 77, skipped, and says why.
//
//   cuda-memory       both pads in CUDA memory (read in place with
//                     GST_MAP_CUDA) give the bits of system memory, for both
//                     metrics, and the meta survives cudadownload. Applies
//                     where the element's CUDA backend runs and nvcodec's
//                     cudaupload is installed.
//   cuda-without-gpu  backend=cuda where the CUDA backend cannot start is an
//                     error at start that names backend=cpu. Applies where
//                     no CUDA device works (or the build has no CUDA).
//   too-large         frames whose planes cannot fit in memory are a clear
//                     error naming the size and the memory, before anything
//                     is allocated. Applies on the CUDA backend, and on the
//                     CPU backend where less memory is available than the
//                     largest frame GStreamer describes needs.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "check.h"
#include "pipeline_run.h"
#include "test_pipelines.h"

namespace {

using s2c_test::Contains;
using s2c_test::I420;
using s2c_test::RunPipeline;
using s2c_test::RunResult;
using s2c_test::Source;
using s2c_test::TwoSources;

std::string FirstError(const RunResult& r) { return r.errors.empty() ? "(none)" : r.errors[0]; }

// Whether the element's CUDA backend scores a pair here.
bool CudaBackendWorks(RunResult* r) {
  *r = RunPipeline(TwoSources(Source(2, I420(25).c_str()), Source(2, I420(25).c_str())),
                   {"backend=cuda"});
  return r->errors.empty() && r->frames.size() == 2;
}

int CudaMemory() {
  RunResult probe;
  if (!CudaBackendWorks(&probe)) {
    return s2c::test::Skip(("the CUDA backend does not run here: " + FirstError(probe)).c_str());
  }
  GstElementFactory* upload = gst_element_factory_find("cudaupload");
  if (upload == nullptr) return s2c::test::Skip("nvcodec's cudaupload is not installed");
  gst_object_unref(upload);
  const std::string ref = Source(6, I420(25).c_str());
  const std::string dist = Source(6, I420(25).c_str(), "ball");
  const std::vector<std::string> props = {"backend=cuda", "metrics=ssimulacra2+ssim"};
  const RunResult host = RunPipeline(TwoSources(ref, dist), props);
  const RunResult device = RunPipeline(
      ref + " ! cudaupload ! cmp.ref_sink " + dist +
          " ! cudaupload ! cmp.dist_sink ssimulacra2cmp name=cmp ! cudadownload ! fakesink name=out",
      props);
  if (!S2C_CHECK(device.errors.empty() && host.errors.empty(), "errors: %s / %s",
                 FirstError(host).c_str(), FirstError(device).c_str()) ||
      !S2C_CHECK(device.frames.size() == 6 && host.frames.size() == 6 && device.out.size() == 6,
                 "%zu and %zu frames scored, %zu buffers out", host.frames.size(),
                 device.frames.size(), device.out.size())) {
    return s2c::test::Finish();
  }
  for (size_t i = 0; i < 6; ++i) {
    S2C_CHECK_SAME(device.frames[i].score, host.frames[i].score, "frame %zu: score", i);
    S2C_CHECK_SAME(device.frames[i].ssim.combined, host.frames[i].ssim.combined,
                   "frame %zu: ssim", i);
    S2C_CHECK_SAME(device.frames[i].ssim.plane[1], host.frames[i].ssim.plane[1],
                   "frame %zu: ssim-cb", i);
    if (S2C_CHECK(device.out[i].has_meta, "buffer %zu has no meta after cudadownload", i)) {
      S2C_CHECK_SAME(device.out[i].meta.score, host.frames[i].score, "buffer %zu: meta", i);
    }
  }
  return s2c::test::Finish();
}

int CudaWithoutGpu() {
  RunResult r;
  if (CudaBackendWorks(&r)) return s2c::test::Skip("a CUDA device works here");
  S2C_CHECK(r.frames.empty(), "%zu frames scored on backend=cuda that failed", r.frames.size());
  S2C_CHECK(Contains(r.errors, "backend=cpu"), "the error does not name backend=cpu: %s",
            FirstError(r).c_str());
  return s2c::test::Finish();
}

// MemAvailable of /proc/meminfo in MiB, 0 where unknown.
long long AvailableMiB() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  long long kib = 0;
  while (in >> key >> kib) {
    if (key == "MemAvailable:") return kib / 1024;
    in.ignore(64, '\n');
  }
  return 0;
}

// 30000x30000 is about the largest I420 frame GStreamer describes (2 GiB);
// the CPU backend needs 122 GB for it. The buffers here are a few bytes:
// the backend is configured before a frame is mapped.
int TooLarge() {
  const bool cpu = std::strcmp(s2c_test::TestBackend(), "cpu") == 0;
  if (cpu && AvailableMiB() > 125000) {
    return s2c::test::Skip("more than 125000 MiB of memory are available to the CPU backend");
  }
  const std::string caps = "video/x-raw,format=I420,width=30000,height=30000,framerate=25/1";
  const RunResult r = RunPipeline(
      "appsrc name=r format=time caps=" + caps + " ! cmp.ref_sink appsrc name=d format=time caps=" +
          caps + " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
      {}, [](GstElement* pipeline) {
        for (const char* name : {"r", "d"}) {
          GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), name);
          GstBuffer* b = gst_buffer_new_allocate(nullptr, 16, nullptr);
          GST_BUFFER_PTS(b) = 0;
          GstFlowReturn flow;
          g_signal_emit_by_name(src, "push-buffer", b, &flow);
          g_signal_emit_by_name(src, "end-of-stream", &flow);
          gst_buffer_unref(b);
          gst_object_unref(src);
        }
      });
  S2C_CHECK(Contains(r.errors, "30000x30000") && Contains(r.errors, "MiB"),
            "the error does not name the size and the memory: %s", FirstError(r).c_str());
  S2C_CHECK(r.frames.empty(), "%zu frames scored", r.frames.size());
  return s2c::test::Finish();
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const std::string name = argc > 1 ? argv[1] : "";
  if (name == "cuda-memory") return CudaMemory();
  if (name == "cuda-without-gpu") return CudaWithoutGpu();
  if (name == "too-large") return TooLarge();
  std::printf("usage: %s cuda-memory|cuda-without-gpu|too-large\n", argv[0]);
  return 1;
}
