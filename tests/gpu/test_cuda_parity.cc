// SPDX-License-Identifier: BSD-3-Clause
// Layer 3 of the exactness contract: the CUDA backend returns the CPU
// reference's bits. For generated pairs of every size class and every pixel
// format, every float plane of the pipeline (linear RGB, XYB, the five
// blurred planes) is equal bit for bit, and so are the 108 sub-scores and
// the score; identical frames give exactly 100; host and device memory input
// and several pairs in flight give the same bits, whether Submit replays
// the pipeline as CUDA graphs or enqueues it call by call; frames with alpha
// are scored on the same backgrounds; the shared test images give the
// canonical scores. `--quick` runs small sizes only (for
// compute-sanitizer). Exits 77 without a CUDA device.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "check.h"
#include "cpu/cpu_reference.h"
#include "cuda/cuda_backend.h"
#include "device_fp64_env.h"
#include "frontend.h"
#include "generated_frames.h"
#include "image_io.h"
#include "placed_frame.h"
#include "png_reader.h"

namespace {

using s2c::FrameView;
using s2c::PixelFormat;
using s2c::test::Frame;
using s2c::test::MakeFrame;
using s2c::test::Placement;
using s2c::test::PlacedFrame;

// stage, scale, image, channel, and the pass (a pair with alpha is scored
// on two backgrounds, each pass handing over every plane).
using PlaneKey = std::tuple<int, int, int, int, int>;

// Which pass a plane belongs to: the number of times its stage, scale,
// image and channel came before.
class PassCounter {
 public:
  PlaneKey Key(s2c::Stage stage, int scale, int image, int channel) {
    const auto plane = std::make_tuple(static_cast<int>(stage), scale, image, channel);
    const int pass = seen_[plane]++;
    return PlaneKey(static_cast<int>(stage), scale, image, channel, pass);
  }

 private:
  std::map<std::tuple<int, int, int, int>, int> seen_;
};

// Records the CPU's planes.
class Recorder : public s2c::PlaneObserver {
 public:
  void OnPlane(s2c::Stage stage, int scale, int image, int channel,
               const s2c::PlaneView& p) override {
    std::vector<float>& v = planes[passes_.Key(stage, scale, image, channel)];
    v.resize(static_cast<size_t>(p.width) * p.height);
    for (int y = 0; y < p.height; ++y) {
      std::memcpy(&v[static_cast<size_t>(y) * p.width], p.Row(y), p.width * sizeof(float));
    }
  }
  std::map<PlaneKey, std::vector<float>> planes;

 private:
  PassCounter passes_;
};

// Compares the GPU's planes with the recorded ones as they arrive.
class Comparer : public s2c::PlaneObserver {
 public:
  Comparer(const Recorder& cpu, const std::string& what) : cpu_(cpu), what_(what) {}
  void OnPlane(s2c::Stage stage, int scale, int image, int channel,
               const s2c::PlaneView& p) override {
    ++seen;
    const auto it = cpu_.planes.find(passes_.Key(stage, scale, image, channel));
    if (!S2C_CHECK(it != cpu_.planes.end(), "%s: unexpected plane", what_.c_str())) return;
    const std::vector<float>& ref = it->second;
    // The first pixel that differs, if any.
    int x = 0, y = 0;
    for (y = 0; y < p.height; ++y) {
      for (x = 0; x < p.width; ++x) {
        if (!s2c::test::SameBits(ref[static_cast<size_t>(y) * p.width + x], p.Row(y)[x])) break;
      }
      if (x < p.width) break;
    }
    S2C_CHECK(y == p.height,
              "%s: plane stage %d scale %d image %d channel %d differs at (%d, %d): cpu %.9g "
              "gpu %.9g",
              what_.c_str(), static_cast<int>(stage), scale, image, channel, x, y,
              y < p.height ? ref[static_cast<size_t>(y) * p.width + x] : 0.0f,
              y < p.height ? p.Row(y)[x] : 0.0f);
  }
  int seen = 0;

 private:
  const Recorder& cpu_;
  std::string what_;
  PassCounter passes_;
};

void CheckSameResult(const s2c::Result& cpu, const s2c::Result& gpu,
                     const std::string& what) {
  double a[s2c::kNumWeights], b[s2c::kNumWeights];
  const int n = cpu.subscores.InWeightOrder(a);
  const int m = gpu.subscores.InWeightOrder(b);
  S2C_CHECK(n == m, "%s: %d vs %d sub-scores", what.c_str(), n, m);
  int differing = 0;
  for (int i = 0; i < n && i < m; ++i) {
    if (s2c::test::Bits(a[i]) != s2c::test::Bits(b[i])) {
      if (differing++ < 3) {
        std::printf("  %s: sub-score %d cpu %.17g gpu %.17g\n", what.c_str(), i, a[i], b[i]);
      }
    }
  }
  S2C_CHECK(differing == 0, "%s: %d of %d sub-scores differ", what.c_str(), differing, n);
  S2C_CHECK_SAME(gpu.score, cpu.score, "%s: score", what.c_str());
}

struct Env {
  s2c::CpuReference cpu{0};
  std::unique_ptr<s2c::CudaBackend> gpu;
};

// CPU vs GPU on one pair; planes compared when `planes` is set.
void CheckPair(Env& env, const Frame& ref, const Frame& dist, bool planes,
               const std::string& what) {
  const int w = ref.desc.width, h = ref.desc.height;
  s2c::Status st = env.gpu->Configure(w, h);
  S2C_CHECK(st.ok(), "%s: Configure: %s", what.c_str(), st.message().c_str());
  if (!st.ok()) return;
  Recorder rec;
  s2c::Result cpu_result, gpu_result;
  st = env.cpu.Compare(ref.View(), dist.View(), &cpu_result, planes ? &rec : nullptr);
  S2C_CHECK(st.ok(), "%s: cpu: %s", what.c_str(), st.message().c_str());
  if (planes) {
    Comparer cmp(rec, what);
    st = env.gpu->CompareWithPlanes(ref.View(), dist.View(), s2c::MemoryKind::kHost,
                                    &gpu_result, &cmp);
    S2C_CHECK(st.ok(), "%s: gpu: %s", what.c_str(), st.message().c_str());
    S2C_CHECK(cmp.seen == static_cast<int>(rec.planes.size()),
              "%s: gpu gave %d planes, cpu %d", what.c_str(), cmp.seen,
              static_cast<int>(rec.planes.size()));
  } else {
    st = env.gpu->Submit(ref.View(), dist.View(), s2c::MemoryKind::kHost, 7);
    S2C_CHECK(st.ok(), "%s: submit: %s", what.c_str(), st.message().c_str());
    bool ready = false;
    uint64_t tag = 0;
    st = env.gpu->CollectOldest(true, &ready, &tag, &gpu_result);
    S2C_CHECK(st.ok() && ready && tag == 7, "%s: collect: %s", what.c_str(),
              st.message().c_str());
  }
  CheckSameResult(cpu_result, gpu_result, what);
}

std::string Name(PixelFormat f, int w, int h) {
  return std::string(s2c::PixelFormatName(f)) + " " + std::to_string(w) + "x" +
         std::to_string(h);
}

void CheckSizes(Env& env, bool quick) {
  const int full[][2] = {{8, 8}, {9, 17}, {33, 31}, {64, 48}, {113, 113},
                         {577, 323}, {1921, 1081}, {3840, 2160}};
  const PixelFormat formats[] = {PixelFormat::kI420, PixelFormat::kRGB,
                                 PixelFormat::kP010_10LE};
  for (const auto& s : full) {
    const int w = s[0], h = s[1];
    if (quick && w > 64) break;
    for (PixelFormat f : formats) {
      const Frame ref = MakeFrame(f, w, h, 1, 0);
      const Frame dist = MakeFrame(f, w, h, 2, 6);
      CheckPair(env, ref, dist, w * h <= 577 * 323, "sizes " + Name(f, w, h));
    }
  }
}

void CheckFormats(Env& env, bool quick) {
  const int sizes[][2] = {{33, 31}, {113, 113}, {577, 323}};
  for (const auto& s : sizes) {
    if (quick && s[0] > 33) break;
    for (int i = 1; i < static_cast<int>(PixelFormat::kCount); ++i) {
      const PixelFormat f = static_cast<PixelFormat>(i);
      const Frame ref = MakeFrame(f, s[0], s[1], 3, 0);
      const Frame dist = MakeFrame(f, s[0], s[1], 4, 9);
      CheckPair(env, ref, dist, true, "formats " + Name(f, s[0], s[1]));
    }
  }
}

// The score of one pair by `gpu`.
s2c::Result GpuScore(s2c::CudaBackend& gpu, const Frame& ref, const Frame& dist,
                     const std::string& what) {
  s2c::Result r;
  bool ready = false;
  uint64_t tag = 0;
  S2C_CHECK(gpu.Configure(ref.desc.width, ref.desc.height).ok() &&
                gpu.Submit(ref.View(), dist.View(), s2c::MemoryKind::kHost, 3).ok() &&
                gpu.CollectOldest(true, &ready, &tag, &r).ok() && ready && tag == 3,
            "%s: %s path", what.c_str(), s2c::DeviceFp64Name(gpu.F64PathInUse()));
  return r;
}

// --paths: the integer path's scores equal the native path's, and both the
// CPU's, on the sizes' and formats' frames, pair by pair.
void CheckPathsAgree(Env& env) {
  std::unique_ptr<s2c::CudaBackend> path[2];
  const s2c::DeviceFp64 kinds[2] = {s2c::DeviceFp64::kNative, s2c::DeviceFp64::kInteger};
  for (int p = 0; p < 2; ++p) {
    s2c::CudaBackendOptions options;
    options.device_fp64 = kinds[p];
    S2C_CHECK(s2c::MakeCudaBackend(options, &path[p]).ok() && path[p]->F64PathInUse() == kinds[p],
              "MakeCudaBackend, device-fp64=%s", s2c::DeviceFp64Name(kinds[p]));
    if (!path[p]) return;
  }
  int pairs = 0;
  const int sizes[][2] = {{9, 17}, {113, 113}, {577, 323}, {1921, 1081}, {3840, 2160}};
  for (const auto& sz : sizes) {
    for (int i = 1; i < static_cast<int>(PixelFormat::kCount); ++i) {
      const PixelFormat f = static_cast<PixelFormat>(i);
      if (sz[0] > 577 && f != PixelFormat::kI420 && f != PixelFormat::kP010_10LE) continue;
      const Frame ref = MakeFrame(f, sz[0], sz[1], 5, 0);
      const Frame dist = MakeFrame(f, sz[0], sz[1], 6, 8);
      const std::string what = "paths " + Name(f, sz[0], sz[1]);
      s2c::Result cpu;
      S2C_CHECK(env.cpu.Compare(ref.View(), dist.View(), &cpu).ok(), "%s: cpu", what.c_str());
      const s2c::Result native = GpuScore(*path[0], ref, dist, what);
      const s2c::Result integer = GpuScore(*path[1], ref, dist, what);
      CheckSameResult(cpu, native, what + " native == cpu");
      CheckSameResult(native, integer, what + " integer == native");
      S2C_CHECK_SAME(integer.score, cpu.score, "%s: integer score == cpu", what.c_str());
      ++pairs;
    }
  }
  std::printf("integer == native == cpu: %d pairs\n", pairs);
}

// Matrices, ranges, sitings, BT.2020 primaries, and pairs of two different
// formats.
void CheckColorimetry(Env& env) {
  const s2c::YuvMatrix matrices[] = {s2c::YuvMatrix::kBT601, s2c::YuvMatrix::kBT709,
                                     s2c::YuvMatrix::kBT2020};
  const s2c::YuvRange ranges[] = {s2c::YuvRange::kLimited, s2c::YuvRange::kFull};
  for (auto m : matrices) {
    for (auto r : ranges) {
      for (int siting = 0; siting < 4; ++siting) {
        s2c::FrameDesc d;
        d.matrix = m;
        d.range = r;
        d.siting.h_cosited = siting & 1;
        d.siting.v_cosited = siting & 2;
        const Frame ref = MakeFrame(PixelFormat::kI420_10LE, 37, 29, 5, 0, &d);
        const Frame dist = MakeFrame(PixelFormat::kI420_10LE, 37, 29, 6, 20, &d);
        CheckPair(env, ref, dist, true,
                  "colorimetry m" + std::to_string(static_cast<int>(m)) + " r" +
                      std::to_string(static_cast<int>(r)) + " s" + std::to_string(siting));
      }
    }
  }
  const Frame ref = MakeFrame(PixelFormat::kNV12, 64, 40, 7, 0);
  const Frame dist = MakeFrame(PixelFormat::kBGRA, 64, 40, 8, 3);
  CheckPair(env, ref, dist, true, "mixed NV12 vs BGRA");
  // BT.2020 primaries converted to BT.709's (frontend.md, 9): YUV and RGB
  // of 8 to 16 bits, and a converted reference against a BT.709 frame.
  s2c::FrameDesc wide;
  wide.matrix = s2c::YuvMatrix::kBT2020;
  wide.primaries = s2c::RgbPrimaries::kBT2020;
  for (PixelFormat f : {PixelFormat::kI420_10LE, PixelFormat::kNV12, PixelFormat::kRGB,
                        PixelFormat::kARGB64}) {
    CheckPair(env, MakeFrame(f, 37, 29, 9, 0, &wide), MakeFrame(f, 37, 29, 10, 40, &wide), true,
              std::string("BT.2020 primaries ") + s2c::PixelFormatName(f));
  }
  CheckPair(env, MakeFrame(PixelFormat::kP010_10LE, 64, 40, 11, 0, &wide),
            MakeFrame(PixelFormat::kI420, 64, 40, 12, 30), true, "BT.2020 P010 vs BT.709 I420");
}

// A frame whose alpha is a ramp from transparent (left) to opaque, or
// opaque everywhere.
Frame WithAlpha(Frame f, bool ramp) {
  s2c::FrameLayout l;
  if (!s2c::DescribeFrame(f.View(), &l).ok() || !l.has_alpha) return f;
  const uint32_t max = (1u << l.bit_depth) - 1;
  for (int y = 0; y < l.height; ++y) {
    for (int x = 0; x < l.width; ++x) {
      const uint32_t a = ramp ? static_cast<uint32_t>(uint64_t{max} * x / (l.width - 1)) : max;
      uint8_t* at = f.planes[0].data() + y * f.stride[0] + x * l.alpha.step + l.alpha.offset;
      for (int b = 0; b < l.alpha.bytes; ++b) at[b] = static_cast<uint8_t>(a >> (8 * b));
    }
  }
  return f;
}

// The canonical alpha rule (frontend.md, 8): a reference with alpha on two
// backgrounds, a distorted frame with alpha alone on one, planes of both
// passes compared; host and device memory; opaque alpha, which the CPU
// scores in one pass and the GPU, from device memory, in two.
void CheckAlpha(Env& env) {
  const int w = 75, h = 41;
  const Frame rgba = WithAlpha(MakeFrame(PixelFormat::kRGBA, w, h, 40, 0), true);
  const Frame argb64 = WithAlpha(MakeFrame(PixelFormat::kARGB64, w, h, 41, 8), true);
  const Frame bgra = WithAlpha(MakeFrame(PixelFormat::kBGRA, w, h, 42, 5), true);
  const Frame opaque_bgra = WithAlpha(MakeFrame(PixelFormat::kBGRA, w, h, 42, 5), false);
  const Frame rgb = MakeFrame(PixelFormat::kRGB, w, h, 43, 6);
  CheckPair(env, rgba, argb64, true, "alpha: both frames");
  CheckPair(env, rgba, rgb, true, "alpha: reference only");
  CheckPair(env, rgb, bgra, true, "alpha: distorted only");
  CheckPair(env, opaque_bgra, rgba, true, "alpha: opaque reference");
  const std::pair<const Frame*, const Frame*> device_pairs[] = {
      {&rgba, &argb64}, {&opaque_bgra, &rgb}};
  for (const auto& pair : device_pairs) {
    const PlacedFrame a(*pair.first, Placement::kDevice), b(*pair.second, Placement::kDevice);
    s2c::Result cpu, gpu;
    bool ready = false;
    uint64_t tag = 0;
    S2C_CHECK(env.gpu->Configure(w, h).ok() &&
                  env.gpu->Submit(a.view, b.view, s2c::MemoryKind::kDevice, 3).ok() &&
                  env.gpu->CollectOldest(true, &ready, &tag, &gpu).ok() && ready,
              "alpha from device memory");
    env.cpu.Compare(pair.first->View(), pair.second->View(), &cpu);
    CheckSameResult(cpu, gpu, std::string("alpha from device memory, ") +
                                  s2c::PixelFormatName(pair.first->desc.format));
  }
}

void CheckIdentical(Env& env) {
  for (PixelFormat f : {PixelFormat::kI420, PixelFormat::kRGBA64_LE}) {
    const Frame a = MakeFrame(f, 97, 61, 9, 5);
    S2C_CHECK(env.gpu->Configure(97, 61).ok(), "configure");
    S2C_CHECK(env.gpu->Submit(a.View(), a.View(), s2c::MemoryKind::kHost, 1).ok(), "submit");
    bool ready = false;
    uint64_t tag = 0;
    s2c::Result r;
    S2C_CHECK(env.gpu->CollectOldest(true, &ready, &tag, &r).ok() && ready, "collect");
    S2C_CHECK(r.score == 100.0, "identical %s frames: %.17g", s2c::PixelFormatName(f), r.score);
  }
}

// Three pairs in flight at once, from pageable host memory, pinned host
// memory and device memory, collected in order with their tags; each equal
// to the CPU's result.
void CheckInFlight(Env& env) {
  const int w = 130, h = 70;
  S2C_CHECK(env.gpu->Configure(w, h).ok(), "configure");
  const PixelFormat formats[] = {PixelFormat::kI420, PixelFormat::kP010_10LE,
                                 PixelFormat::kARGB64};
  std::vector<Frame> refs, dists;
  std::vector<std::unique_ptr<PlacedFrame>> placed[2];  // [Placement]
  for (int i = 0; i < 3; ++i) {
    refs.push_back(MakeFrame(formats[i], w, h, 10 + i, 0));
    dists.push_back(MakeFrame(formats[i], w, h, 20 + i, 4 + i));
  }
  for (Placement where : {Placement::kDevice, Placement::kPinned}) {
    for (int i = 0; i < 3; ++i) {
      placed[static_cast<int>(where)].emplace_back(new PlacedFrame(refs[i], where));
      placed[static_cast<int>(where)].emplace_back(new PlacedFrame(dists[i], where));
    }
  }
  const char* names[] = {"host", "pinned host", "device"};
  for (int round = 0; round < 3; ++round) {
    const bool device = round == 2;
    for (int i = 0; i < 3; ++i) {
      FrameView a = refs[i].View(), b = dists[i].View();
      if (round > 0) {
        const auto& frames = placed[static_cast<int>(device ? Placement::kDevice : Placement::kPinned)];
        a = frames[2 * i]->view;
        b = frames[2 * i + 1]->view;
      }
      const s2c::Status st = env.gpu->Submit(
          a, b, device ? s2c::MemoryKind::kDevice : s2c::MemoryKind::kHost, 100 + i);
      S2C_CHECK(st.ok(), "submit %d: %s", i, st.message().c_str());
    }
    S2C_CHECK(env.gpu->InFlight() == 3, "in flight: %d", env.gpu->InFlight());
    for (int i = 0; i < 3; ++i) {
      bool ready = false;
      uint64_t tag = 0;
      s2c::Result gpu, cpu;
      const s2c::Status st = env.gpu->CollectOldest(true, &ready, &tag, &gpu);
      S2C_CHECK(st.ok() && ready && tag == static_cast<uint64_t>(100 + i),
                "collect %d: tag %llu: %s", i, static_cast<unsigned long long>(tag),
                st.message().c_str());
      env.cpu.Compare(refs[i].View(), dists[i].View(), &cpu);
      CheckSameResult(cpu, gpu, std::string(names[round]) + " in flight " +
                                    s2c::PixelFormatName(formats[i]));
    }
  }
}

void CheckErrors(Env& env) {
  const Frame a = MakeFrame(PixelFormat::kI420, 64, 64, 1, 0);
  S2C_CHECK(env.gpu->Configure(32, 32).ok(), "configure");
  const s2c::Status wrong = env.gpu->Submit(a.View(), a.View(), s2c::MemoryKind::kHost, 0);
  S2C_CHECK(wrong.code() == s2c::StatusCode::kInvalidArgument, "size mismatch: %s",
            wrong.message().c_str());
  const s2c::Status huge = env.gpu->Configure(200000, 200000);
  S2C_CHECK(huge.code() == s2c::StatusCode::kOutOfMemory, "huge frame: %s",
            huge.message().c_str());
  std::printf("huge frame refused: %s\n", huge.message().c_str());
  const s2c::Status small = env.gpu->Configure(7, 100);
  S2C_CHECK(small.code() == s2c::StatusCode::kInvalidArgument, "7x100: %s",
            small.message().c_str());
}

// The element's situation: a driver context of its own (not the primary
// one) pushed around every call. The backend must work in it and give the
// same bits.
template <class Fn>
Fn Driver(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion(name, &fn, 13000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess) {
    return nullptr;
  }
  return reinterpret_cast<Fn>(fn);
}

void CheckDriverContext(Env& env) {
  const auto device_get = Driver<CUresult (*)(CUdevice*, int)>("cuDeviceGet");
  const auto create =
      Driver<CUresult (*)(CUcontext*, CUctxCreateParams*, unsigned, CUdevice)>("cuCtxCreate");
  const auto pop = Driver<CUresult (*)(CUcontext*)>("cuCtxPopCurrent");
  const auto destroy = Driver<CUresult (*)(CUcontext)>("cuCtxDestroy");
  S2C_CHECK(device_get && create && pop && destroy, "driver entry points");
  if (!device_get || !create || !pop || !destroy) return;
  CUdevice dev;
  CUcontext ctx = nullptr;
  S2C_CHECK(device_get(&dev, 0) == CUDA_SUCCESS && create(&ctx, nullptr, 0, dev) == CUDA_SUCCESS,
            "cuCtxCreate");  // pushes ctx
  if (!ctx) return;
  {
    std::unique_ptr<s2c::Backend> b;
    const s2c::Status st = s2c::MakeCudaBackend(-1, 2, s2c::test::DeviceFp64FromEnv(), &b);
    S2C_CHECK(st.ok(), "backend in a pushed context: %s", st.message().c_str());
    if (st.ok()) {
      const Frame ref = MakeFrame(PixelFormat::kNV12, 70, 50, 30, 0);
      const Frame dist = MakeFrame(PixelFormat::kNV12, 70, 50, 31, 7);
      bool ready = false;
      uint64_t tag = 0;
      s2c::Result gpu, cpu;
      S2C_CHECK(b->Configure(70, 50).ok() &&
                    b->Submit(ref.View(), dist.View(), s2c::MemoryKind::kHost, 5).ok() &&
                    b->CollectOldest(true, &ready, &tag, &gpu).ok() && ready && tag == 5,
                "pair in a pushed context");
      env.cpu.Compare(ref.View(), dist.View(), &cpu);
      CheckSameResult(cpu, gpu, "pushed driver context");
    }
  }
  CUcontext popped = nullptr;
  S2C_CHECK(pop(&popped) == CUDA_SUCCESS && popped == ctx, "the pushed context is still current");
  destroy(ctx);
}

void CheckCanonical(Env& env) {
  const std::string dir = s2c::test::TestdataDir();
  struct Case { const char* dist; const char* score; };
  const Case cases[] = {{"flower_small_q30.png", "62.22503421"},
                        {"flower_small_q70.png", "81.74290736"},
                        {"flower_small_q90.png", "90.00349983"},
                        {"flower_small.png", "100.00000000"}};
  s2c::test::HostImage ref;
  if (!s2c::test::LoadPng(dir + "/flower_small.png", &ref)) return;
  for (const Case& c : cases) {
    s2c::test::HostImage dist;
    if (!s2c::test::LoadPng(dir + "/" + c.dist, &dist)) continue;
    S2C_CHECK(env.gpu->Configure(ref.desc.width, ref.desc.height).ok(), "configure");
    S2C_CHECK(env.gpu->Submit(ref.View(), dist.View(), s2c::MemoryKind::kHost, 0).ok(), "submit");
    bool ready = false;
    uint64_t tag = 0;
    s2c::Result r;
    S2C_CHECK(env.gpu->CollectOldest(true, &ready, &tag, &r).ok(), "collect");
    char got[64];
    std::snprintf(got, sizeof(got), "%.8f", r.score);
    S2C_CHECK(std::string(got) == c.score, "%s: gpu %s, canonical %s", c.dist, got, c.score);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const bool paths = argc > 1 && std::strcmp(argv[1], "--paths") == 0;
  Env env;
  s2c::CudaBackendOptions options;
  options.max_in_flight = 3;
  options.device_fp64 = s2c::test::DeviceFp64FromEnv();
  const s2c::Status st = s2c::MakeCudaBackend(options, &env.gpu);
  if (st.code() == s2c::StatusCode::kNoDevice) return s2c::test::Skip(st.message().c_str());
  S2C_CHECK(st.ok(), "MakeCudaBackend: %s", st.message().c_str());
  if (!st.ok()) return s2c::test::Finish();
  std::printf("f64 path: %s (device-fp64=%s)\n", s2c::DeviceFp64Name(env.gpu->F64PathInUse()),
              s2c::DeviceFp64Name(options.device_fp64));
  S2C_CHECK(options.device_fp64 == s2c::DeviceFp64::kAuto ||
                env.gpu->F64PathInUse() == options.device_fp64,
            "the f64 path asked for is the one in use");
  if (paths) {
    CheckPathsAgree(env);
    return s2c::test::Finish();
  }
  CheckErrors(env);
  CheckDriverContext(env);
  CheckIdentical(env);
  CheckInFlight(env);
  CheckAlpha(env);
  CheckColorimetry(env);
  CheckFormats(env, quick);
  CheckSizes(env, quick);
  if (!quick) CheckCanonical(env);
  // Submit replays the pipeline as CUDA graphs by default; pairs enqueued
  // call by call (use_graphs off) must give the same results.
  S2C_CHECK(env.gpu->GraphsInUse(), "pairs were not replayed as CUDA graphs");
  std::printf("device memory held: %zu MiB\n", env.gpu->DeviceBytes() >> 20);
  Env calls;
  options.use_graphs = false;
  S2C_CHECK(s2c::MakeCudaBackend(options, &calls.gpu).ok(), "MakeCudaBackend, call by call");
  if (calls.gpu) {
    CheckInFlight(calls);
    CheckIdentical(calls);
    S2C_CHECK(!calls.gpu->GraphsInUse(), "use_graphs off, yet graphs in use");
  }
  return s2c::test::Finish();
}
