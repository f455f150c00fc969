// SPDX-License-Identifier: BSD-3-Clause
// SSIM on the GPU returns the CPU reference's bits (src/cpu/ssim_reference.h):
// every plane value, the combined score and the dB, on the reference pairs
// of tests/data/ssim and on a seeded sweep of sizes (8x8 to
// 1921x1081, and 4K), formats (planar and semi-planar, 4:2:0, 4:2:2,
// 4:4:4, 8 to 16 bits), pixel aspects and noise levels, including frames so
// different that many terms are negative, and identical frames (1 and
// +inf dB). `--quick` runs small sizes only (for compute-sanitizer). Exits
// 77 without a CUDA device.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check.h"
#include "cpu/ssim_reference.h"
#include "cuda/cuda_ssim.h"
#include "device_fp64_env.h"
#include "frontend.h"
#include "generated_frames.h"
#include "image_io.h"
#include "placed_frame.h"
#include "ssim_table.h"
#include "y4m_reader.h"

namespace {

using s2c::FrameView;
using s2c::PixelFormat;
using s2c::SsimResult;
using s2c::test::Placement;
using s2c::test::PlacedFrame;

// The f64 path of every SSIM here: S2C_TEST_DEVICE_FP64, auto resolved by
// the device's compute capability as the backend resolves it.
s2c::cuda::F64Path g_path = s2c::cuda::F64Path::kNative;

// SSIM of a pair of device frames by the CUDA path.
s2c::Status GpuSsim(const FrameView& ref, const FrameView& dist, s2c::CudaSsim* ssim,
                    double* d_sums, SsimResult* out) {
  s2c::cuda::PairFrames frames;
  S2C_RETURN_IF_ERROR(s2c::DescribeFrame(ref, &frames.layout[0]));
  S2C_RETURN_IF_ERROR(s2c::DescribeFrame(dist, &frames.layout[1]));
  frames.view[0] = ref;
  frames.view[1] = dist;
  S2C_RETURN_IF_ERROR(ssim->Prepare(frames.layout[0], ref.desc.pixel_aspect));
  S2C_RETURN_IF_ERROR(ssim->Enqueue(frames, true, g_path, d_sums, nullptr));
  double sums[3];
  if (cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost) != cudaSuccess) {
    return s2c::Status(s2c::StatusCode::kInternal, "copy of the sums failed");
  }
  *out = ssim->Finish(sums);
  return s2c::Status::Ok();
}

void ExpectSame(const SsimResult& gpu, const SsimResult& cpu, const std::string& what) {
  const char* names[3] = {"Y'", "Cb", "Cr"};
  for (int k = 0; k < 3; ++k) {
    S2C_CHECK_SAME(gpu.plane[k], cpu.plane[k], "%s, %s", what.c_str(), names[k]);
    S2C_CHECK_SAME(gpu.plane_db[k], cpu.plane_db[k], "%s, dB %s", what.c_str(), names[k]);
  }
  S2C_CHECK_SAME(gpu.combined, cpu.combined, "%s, combined", what.c_str());
  S2C_CHECK_SAME(gpu.combined_db, cpu.combined_db, "%s, dB", what.c_str());
}

// One pair on both paths, device copies made here.
void ComparePair(const FrameView& ref, const FrameView& dist, s2c::CudaSsim* ssim,
                 double* d_sums, const std::string& what) {
  SsimResult cpu, gpu;
  const s2c::Status c = s2c::SsimCompare(ref, dist, &cpu);
  S2C_CHECK(c.ok(), "%s: CPU: %s", what.c_str(), c.message().c_str());
  s2c::test::Frame copy[2];
  const FrameView* views[2] = {&ref, &dist};
  for (int i = 0; i < 2; ++i) {
    copy[i].desc = views[i]->desc;
    for (int p = 0; p < s2c::NumPlanes(views[i]->desc.format); ++p) {
      const size_t bytes = views[i]->stride[p] *
                           static_cast<size_t>(s2c::PlaneRows(views[i]->desc.format,
                                                              views[i]->desc.height, p));
      copy[i].planes[p].assign(views[i]->data[p], views[i]->data[p] + bytes);
      copy[i].stride[p] = views[i]->stride[p];
    }
  }
  PlacedFrame dref(copy[0], Placement::kDevice), ddist(copy[1], Placement::kDevice);
  const s2c::Status g = GpuSsim(dref.view, ddist.view, ssim, d_sums, &gpu);
  S2C_CHECK(g.ok(), "%s: GPU: %s", what.c_str(), g.message().c_str());
  if (c.ok() && g.ok()) ExpectSame(gpu, cpu, what);
}

void TestReferencePairs(s2c::CudaSsim* ssim, double* d_sums) {
  const std::vector<s2c::test::SsimExpected> rows = s2c::test::ReadSsimTable();
  S2C_CHECK(rows.size() == s2c::test::kSsimPairs, "the README's table has %zu pairs, want %zu",
            rows.size(), s2c::test::kSsimPairs);
  for (const s2c::test::SsimExpected& e : rows) {
    s2c::test::Y4mFrame ref, dist;
    std::string error;
    const bool read = s2c::test::ReadSsimPair(e, &ref, &dist, &error);
    S2C_CHECK(read, "%s", error.c_str());
    if (read) ComparePair(ref.View(), dist.View(), ssim, d_sums, e.ref + " / " + e.dist);
  }
  std::printf("reference pairs: %zu\n", rows.size());
}

void TestSweep(bool quick, s2c::CudaSsim* ssim, double* d_sums) {
  const PixelFormat formats[] = {
      PixelFormat::kI420,      PixelFormat::kNV12,      PixelFormat::kYV12,
      PixelFormat::kY42B,      PixelFormat::kNV16,      PixelFormat::kY444,
      PixelFormat::kNV24,      PixelFormat::kI420_10LE, PixelFormat::kP010_10LE,
      PixelFormat::kI422_10LE, PixelFormat::kY444_12LE, PixelFormat::kP016_LE,
      PixelFormat::kY444_16LE};
  std::mt19937 rng(20261130);
  std::vector<std::pair<int, int>> sizes = {{8, 8}, {9, 13}, {64, 8}, {333, 97}};
  const int drawn = quick ? 6 : 30;
  for (int i = 0; i < drawn; ++i) {
    sizes.push_back({8 + static_cast<int>(rng() % (quick ? 200 : 1914)),
                     8 + static_cast<int>(rng() % (quick ? 150 : 1074))});
  }
  if (!quick) {
    sizes.push_back({1921, 1081});
    sizes.push_back({3840, 2160});
  }
  int pairs = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const int w = sizes[i].first, h = sizes[i].second;
    const PixelFormat format = (w == 3840) ? PixelFormat::kI420 : formats[i % std::size(formats)];
    // Noise levels: none on either (identical), light, and uncorrelated
    // heavy noise, where many terms are negative.
    const int levels[][2] = {{0, 0}, {0, 6}, {90, 90}};
    for (const auto& level : levels) {
      s2c::FrameDesc desc;
      desc.pixel_aspect = (i % 5 == 3) ? 16.0 / 11.0 : 1.0;
      const s2c::test::Frame ref = s2c::test::MakeFrame(format, w, h, 1, level[0], &desc);
      const s2c::test::Frame dist = s2c::test::MakeFrame(format, w, h, 2, level[1], &desc);
      char what[160];
      std::snprintf(what, sizeof what, "%s %dx%d, noise %d/%d, aspect %.3f",
                    s2c::PixelFormatName(format), w, h, level[0], level[1], desc.pixel_aspect);
      ComparePair(ref.View(), (level[1] == 0 ? ref : dist).View(), ssim, d_sums, what);
      if (level[1] == 0) {
        SsimResult cpu;
        S2C_CHECK(s2c::SsimCompare(ref.View(), ref.View(), &cpu).ok(), "%s", what);
        S2C_CHECK(cpu.combined == 1.0 && std::isinf(cpu.combined_db), "%s: identical: %.17g",
                  what, cpu.combined);
      }
      ++pairs;
    }
  }
  std::printf("sweep: %d pairs\n", pairs);
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    return s2c::test::Skip("no CUDA device");
  }
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  int major = 0, minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  const s2c::DeviceFp64 path = s2c::ResolveDeviceFp64(s2c::test::DeviceFp64FromEnv(), major, minor);
  g_path = path == s2c::DeviceFp64::kInteger ? s2c::cuda::F64Path::kInteger
                                             : s2c::cuda::F64Path::kNative;
  std::printf("f64 path: %s\n", s2c::DeviceFp64Name(path));
  s2c::CudaSsim ssim;
  double* d_sums = nullptr;
  if (!S2C_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_sums), 3 * sizeof(double)) == cudaSuccess,
                 "cudaMalloc of the sums")) {
    return s2c::test::Finish();
  }
  TestReferencePairs(&ssim, d_sums);
  TestSweep(quick, &ssim, d_sums);
  cudaFree(d_sums);
  return s2c::test::Finish();
}
