// SPDX-License-Identifier: BSD-3-Clause
// Bad input never crashes and never yields a score: frames below 8x8,
// mismatched sizes, unknown formats, null planes and strides smaller than a
// row each give an error Status whose message names the problem, through
// CpuReference::Compare and through the CPU backend's Submit/CollectOldest,
// and the caller's Result is left as it was. Frames too large for memory
// are refused at Configure by an estimate of the host memory they need; the
// estimates are checked against what scoring really allocates (this file
// counts the bytes of every operator new).
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <string>
#include <vector>

#include "check.h"
#include "cpu/cpu_backend.h"
#include "cpu/cpu_reference.h"
#include "cpu/ssim_reference.h"
#include "thread_pool.h"

// Every allocation through operator new is counted: the bytes held now, and
// the most held since ResetPeak.
namespace {
std::atomic<long> g_held{0};
std::atomic<long> g_peak{0};
constexpr size_t kHeader = alignof(std::max_align_t);
}  // namespace

void* operator new(size_t n) {
  void* p = std::malloc(n + kHeader);
  if (p == nullptr) throw std::bad_alloc();
  *static_cast<size_t*>(p) = n;
  const long held = g_held += static_cast<long>(n);
  long peak = g_peak.load();
  while (held > peak && !g_peak.compare_exchange_weak(peak, held)) {
  }
  return static_cast<char*>(p) + kHeader;
}

void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  char* block = static_cast<char*>(p) - kHeader;
  g_held -= static_cast<long>(*reinterpret_cast<size_t*>(block));
  std::free(block);
}

void operator delete(void* p, size_t) noexcept { operator delete(p); }

namespace {

using s2c::FrameView;
using s2c::PixelFormat;
using s2c::Status;
using s2c::StatusCode;

constexpr double kUntouched = -12345.678;

// A Result a failed call must leave alone.
s2c::Result Sentinel() {
  s2c::Result r;
  r.score = kUntouched;
  r.subscores.num_scales = -1;
  return r;
}
bool IsSentinel(const s2c::Result& r) {
  return s2c::test::Bits(r.score) == s2c::test::Bits(kUntouched) &&
         r.subscores.num_scales == -1;
}

void ExpectError(const Status& st, StatusCode code,
                 const std::vector<const char*>& words, const char* what) {
  S2C_CHECK(!st.ok(), "%s: accepted", what);
  S2C_CHECK(st.code() == code, "%s: code %d, expected %d (%s)", what,
            static_cast<int>(st.code()), static_cast<int>(code), st.message().c_str());
  for (const char* w : words) {
    S2C_CHECK(st.message().find(w) != std::string::npos,
              "%s: message \"%s\" does not mention \"%s\"", what, st.message().c_str(), w);
  }
}

// An 8-bit RGB frame of any size (even 0x0), backed by real memory.
struct Frame {
  std::vector<uint8_t> bytes;
  FrameView view;
  Frame(int w, int h) {
    bytes.assign(static_cast<size_t>(w > 0 ? w : 1) * (h > 0 ? h : 1) * 3, 128);
    view.desc.format = PixelFormat::kRGB;
    view.desc.width = w;
    view.desc.height = h;
    view.data[0] = bytes.data();
    view.stride[0] = static_cast<ptrdiff_t>(w) * 3;
  }
};

// One I420 frame, three planes, for the per-plane checks.
struct I420Frame {
  std::vector<uint8_t> y, u, v;
  FrameView view;
  I420Frame(int w, int h)
      : y(static_cast<size_t>(w) * h, 100),
        u(static_cast<size_t>((w + 1) / 2) * ((h + 1) / 2), 128),
        v(u) {
    view.desc.format = PixelFormat::kI420;
    view.desc.width = w;
    view.desc.height = h;
    view.data[0] = y.data();
    view.data[1] = u.data();
    view.data[2] = v.data();
    view.stride[0] = w;
    view.stride[1] = view.stride[2] = (w + 1) / 2;
  }
};

struct BadCase {
  const char* what;
  FrameView ref, dist;
  StatusCode code;
  std::vector<const char*> words;
};

std::vector<BadCase> MakeCases(const Frame& good, const I420Frame& yuv) {
  std::vector<BadCase> cases;
  auto add = [&](const char* what, FrameView ref, FrameView dist, StatusCode code,
                 std::vector<const char*> words) {
    cases.push_back(BadCase{what, ref, dist, code, std::move(words)});
  };
  const StatusCode kInvalid = StatusCode::kInvalidArgument;
  static const Frame f7x8(7, 8), f8x7(8, 7), f1x1(1, 1), f0x0(0, 0), fneg(-16, 16);
  add("7x8", f7x8.view, f7x8.view, kInvalid, {"7x8", "minimum"});
  add("8x7", f8x7.view, f8x7.view, kInvalid, {"8x7", "minimum"});
  add("1x1", f1x1.view, f1x1.view, kInvalid, {"1x1", "minimum"});
  add("0x0", f0x0.view, f0x0.view, kInvalid, {"0x0", "minimum"});
  add("-16x16", fneg.view, fneg.view, kInvalid, {"-16x16", "minimum"});
  add("distorted 7x8 only", good.view, f7x8.view, kInvalid, {"7x8"});

  static const Frame f16x17(16, 17), f17x16(17, 16);
  add("16x16 vs 16x17", good.view, f16x17.view, kInvalid, {"differ", "16x16", "16x17"});
  add("16x16 vs 17x16", good.view, f17x16.view, kInvalid, {"differ", "17x16"});

  FrameView v = good.view;
  v.desc.format = PixelFormat::kUnknown;
  add("format kUnknown", v, good.view, kInvalid, {"format"});
  add("distorted format kUnknown", good.view, v, kInvalid, {"format"});
  v.desc.format = PixelFormat::kCount;
  add("format kCount", v, good.view, kInvalid, {"format"});
  v.desc.format = static_cast<PixelFormat>(999);
  add("format 999", v, good.view, kInvalid, {"format", "999"});
  v.desc.format = static_cast<PixelFormat>(-1);
  add("format -1", v, good.view, kInvalid, {"format", "-1"});

  v = good.view;
  v.data[0] = nullptr;
  add("null plane", v, good.view, kInvalid, {"plane 0", "null"});
  add("distorted null plane", good.view, v, kInvalid, {"plane 0", "null"});
  FrameView y = yuv.view;
  y.data[2] = nullptr;
  add("I420 null plane 2", y, y, kInvalid, {"plane 2", "I420", "null"});

  v = good.view;
  v.stride[0] = 16 * 3 - 1;
  add("stride one byte short", v, good.view, kInvalid, {"stride", "47", "48"});
  v.stride[0] = 0;
  add("stride 0", v, good.view, kInvalid, {"stride", "48"});
  v.stride[0] = -16 * 3;
  add("negative stride", v, good.view, kInvalid, {"stride", "-48"});
  y = yuv.view;
  y.stride[1] = 7;
  add("I420 chroma stride short", y, y, kInvalid, {"plane 1", "stride", "7"});

  y = yuv.view;
  y.desc.matrix = static_cast<s2c::YuvMatrix>(7);
  add("I420 matrix out of range", y, y, kInvalid, {"matrix", "I420"});
  y = yuv.view;
  y.desc.range = static_cast<s2c::YuvRange>(-3);
  add("I420 range out of range", y, y, kInvalid, {"range", "I420"});
  return cases;
}

void TestCompare(const std::vector<BadCase>& cases) {
  s2c::CpuReference cpu(2);
  for (const BadCase& k : cases) {
    s2c::Result r = Sentinel();
    ExpectError(cpu.Compare(k.ref, k.dist, &r), k.code, k.words, k.what);
    S2C_CHECK(IsSentinel(r), "%s: Compare wrote a result (score %.17g)", k.what, r.score);
  }
}

void TestBackend(const std::vector<BadCase>& cases, const Frame& good, const Frame& other) {
  std::unique_ptr<s2c::Backend> backend = s2c::MakeCpuBackend(2);

  for (auto size : {std::pair<int, int>{7, 8}, {8, 7}, {1, 1}, {0, 0}, {-8, 8}}) {
    char what[64];
    std::snprintf(what, sizeof(what), "Configure(%d, %d)", size.first, size.second);
    char words[32];
    std::snprintf(words, sizeof(words), "%dx%d", size.first, size.second);
    ExpectError(backend->Configure(size.first, size.second), StatusCode::kInvalidArgument,
                {words, "minimum"}, what);
  }

  // A size whose planes cannot fit in any machine's memory (19.5 planes of
  // 200000 x 200000 floats, 3.1 TB): refused up front, naming the size, the
  // memory it needs by the estimate (TestWorkspaceEstimates) and the memory
  // available, and nothing is allocated.
  const std::string needed = std::to_string(
      static_cast<long long>(s2c::CpuReference::WorkspaceBytes(200000, 200000) / 1048576.0));
  const long held = g_held;
  ExpectError(backend->Configure(200000, 200000), StatusCode::kOutOfMemory,
              {"200000x200000", ("need " + needed + " MiB").c_str(), "available"},
              "Configure(200000, 200000)");
  S2C_CHECK(g_held == held, "a refused Configure holds %ld bytes more", g_held - held);

  // Nothing in flight: CollectOldest says so and writes no result.
  s2c::Result r = Sentinel();
  bool ready = true;
  uint64_t tag = 77;
  Status st = backend->CollectOldest(true, &ready, &tag, &r);
  S2C_CHECK(!st.ok() && !ready && tag == 77 && IsSentinel(r),
            "CollectOldest with nothing in flight: %s", st.message().c_str());

  S2C_CHECK(backend->Configure(16, 16).ok(), "Configure(16, 16)");
  for (const BadCase& k : cases) {
    // The backend checks the reference's size against the configured one
    // first; that message names the configured size.
    const bool other_size = k.ref.desc.width != 16 || k.ref.desc.height != 16;
    ExpectError(backend->Submit(k.ref, k.dist, s2c::MemoryKind::kHost, 1), k.code,
                other_size ? std::vector<const char*>{"configured", "16x16"} : k.words, k.what);
    S2C_CHECK(backend->InFlight() == 0, "%s: a failed Submit left %d pairs in flight", k.what,
              backend->InFlight());
  }
  ExpectError(backend->Submit(good.view, good.view, s2c::MemoryKind::kDevice, 2),
              StatusCode::kUnsupported, {"host"}, "device memory on the CPU backend");
  S2C_CHECK(backend->InFlight() == 0, "device memory: pair left in flight");

  // After all that, a good pair goes through with its tag and the score a
  // fresh CpuReference gives.
  S2C_CHECK(backend->Submit(good.view, other.view, s2c::MemoryKind::kHost, 42).ok(),
            "good pair after errors");
  r = Sentinel();
  st = backend->CollectOldest(true, &ready, &tag, &r);
  s2c::Result direct;
  s2c::CpuReference cpu(1);
  S2C_CHECK(cpu.Compare(good.view, other.view, &direct).ok(), "direct compare");
  S2C_CHECK(st.ok() && ready && tag == 42, "collect after errors: %s", st.message().c_str());
  S2C_CHECK_SAME(r.score, direct.score, "score after errors");
  S2C_CHECK(backend->InFlight() == 0, "in flight after collect");
}

// The metric set: empty or unknown bits are refused; with SSIM, RGB is
// refused at Submit naming videoconvert and nothing stays in flight; a YUV
// pair's result holds SSIM alone, the CPU reference's bits; the memory SSIM
// alone asks for at Configure is its own, a small part of SSIMULACRA 2's.
void TestMetrics(const Frame& rgb, const I420Frame& yuv) {
  std::unique_ptr<s2c::Backend> backend = s2c::MakeCpuBackend(2);
  ExpectError(backend->SetMetrics(0), StatusCode::kInvalidArgument, {"ssimulacra2", "ssim"},
              "SetMetrics(0)");
  ExpectError(backend->SetMetrics(4), StatusCode::kInvalidArgument, {"ssim"}, "SetMetrics(4)");
  S2C_CHECK(backend->SetMetrics(s2c::kMetricSsim).ok(), "SetMetrics(ssim)");
  S2C_CHECK(s2c::CpuReference::WorkspaceBytes(60000, 60000) > s2c::SsimWorkspaceBytes(60000, 60000) * 50,
            "SSIM's host memory is a small part of SSIMULACRA 2's");
  S2C_CHECK(backend->Configure(16, 16).ok(), "Configure(16, 16) for SSIM");
  ExpectError(backend->Submit(rgb.view, rgb.view, s2c::MemoryKind::kHost, 1),
              StatusCode::kInvalidArgument, {"YUV", "videoconvert"}, "SSIM of RGB frames");
  S2C_CHECK(backend->InFlight() == 0, "SSIM of RGB: nothing in flight");
  S2C_CHECK(backend->Submit(yuv.view, yuv.view, s2c::MemoryKind::kHost, 5).ok(), "SSIM of YUV");
  s2c::Result r;
  bool ready = false;
  uint64_t tag = 0;
  const Status st = backend->CollectOldest(true, &ready, &tag, &r);
  s2c::SsimResult direct;
  S2C_CHECK(s2c::SsimCompare(yuv.view, yuv.view, &direct).ok(), "direct SSIM");
  S2C_CHECK(st.ok() && ready && tag == 5 && r.metrics == s2c::kMetricSsim,
            "SSIM result: %s", st.message().c_str());
  S2C_CHECK_SAME(r.ssim.combined, direct.combined, "SSIM through the backend");
}

// The estimates Configure goes by are what scoring a pair holds: the first
// pair of a size allocates SSIMULACRA 2's workspace, exactly
// CpuReference::WorkspaceBytes, and keeps it for the next pairs, with
// nothing but a few bytes more at any moment; SSIM holds its
// SsimWorkspaceBytes while it scores, and its windows (a few ints per row
// and column) besides.
void TestWorkspaceEstimates() {
  const int kSizes[][2] = {{8, 8}, {64, 48}, {65, 9}, {333, 257}, {1001, 17}};
  for (const auto& size : kSizes) {
    const int w = size[0], h = size[1];
    Frame a(w, h), b(w, h);
    for (size_t i = 0; i < b.bytes.size(); ++i) b.bytes[i] = static_cast<uint8_t>(i * 37);
    s2c::CpuReference cpu(2);
    long before = g_held;
    g_peak = before;
    s2c::Result r;
    S2C_CHECK(cpu.Compare(a.view, b.view, &r).ok(), "%dx%d: Compare", w, h);
    const double estimate = s2c::CpuReference::WorkspaceBytes(w, h);
    S2C_CHECK(static_cast<double>(g_held - before) == estimate,
              "%dx%d: the workspace holds %ld bytes, the estimate is %.0f", w, h,
              g_held - before, estimate);
    S2C_CHECK(g_peak - before <= estimate + 1024,
              "%dx%d: %ld bytes held while scoring, the estimate is %.0f", w, h,
              g_peak - before, estimate);

    I420Frame ya(w, h), yb(w, h);
    for (size_t i = 0; i < yb.y.size(); ++i) yb.y[i] = static_cast<uint8_t>(i * 37);
    s2c::ThreadPool pool(2);
    before = g_held;
    g_peak = before;
    s2c::SsimResult sr;
    S2C_CHECK(s2c::SsimCompare(ya.view, yb.view, &sr, &pool).ok(), "%dx%d: SsimCompare", w, h);
    const double ssim_estimate = s2c::SsimWorkspaceBytes(w, h);
    const long windows = 4 * static_cast<long>(sizeof(int)) * (w + h) + 4096;
    S2C_CHECK(g_peak - before >= ssim_estimate && g_peak - before <= ssim_estimate + windows,
              "%dx%d: SSIM held %ld bytes while scoring, the estimate is %.0f", w, h,
              g_peak - before, ssim_estimate);
    S2C_CHECK(g_held == before, "%dx%d: SSIM keeps %ld bytes", w, h, g_held - before);
  }
}

}  // namespace

int main() {
  const Frame good(16, 16);
  Frame other(16, 16);
  for (size_t i = 0; i < other.bytes.size(); ++i) other.bytes[i] = static_cast<uint8_t>(i * 37);
  const I420Frame yuv(16, 16);
  const std::vector<BadCase> cases = MakeCases(good, yuv);
  TestCompare(cases);
  TestBackend(cases, good, other);
  TestMetrics(good, yuv);
  TestWorkspaceEstimates();
  return s2c::test::Finish();
}
