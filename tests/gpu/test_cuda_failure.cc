// SPDX-License-Identifier: BSD-3-Clause
// A GPU that runs short of memory or fails mid-stream.
//
// A device memory limit: below one pair's workspace, Configure fails with
// kOutOfMemory and says why; with room for some but not all of
// max_in_flight pairs, the backend keeps as many in flight as fit
// (Capacity), holds no more device memory than the limit, and still gives
// the CPU's scores.
//
// A fault: a pair whose device planes point at memory the device cannot
// read makes the kernels fault. The backend must hand back an error for
// that pair (naming the CUDA error), must not write a score, and must not
// score later pairs on the broken context either. Runs in a process of its
// own, after the limit's checks: a device fault ends the CUDA context for
// the whole process.
#include <cstdint>
#include <cstdio>
#include <string>

#include "check.h"
#include "cpu/cpu_reference.h"
#include "cuda/cuda_backend.h"
#include "generated_frames.h"

namespace {

constexpr int kWidth = 256, kHeight = 192;

std::unique_ptr<s2c::CudaBackend> MakeWithLimit(int max_in_flight, size_t limit) {
  s2c::CudaBackendOptions options;
  options.max_in_flight = max_in_flight;
  options.device_memory_limit = limit;
  std::unique_ptr<s2c::CudaBackend> gpu;
  const s2c::Status made = s2c::MakeCudaBackend(options, &gpu);
  S2C_CHECK(made.ok(), "MakeCudaBackend, limit %zu: %s", limit, made.message().c_str());
  return gpu;
}

// The device bytes one pair in flight of kWidth x kHeight takes, as the
// backend reports them with one pair and no limit.
size_t BytesPerPair() {
  std::unique_ptr<s2c::CudaBackend> one = MakeWithLimit(1, 0);
  if (!one || !S2C_CHECK(one->Configure(kWidth, kHeight).ok(), "Configure, no limit")) return 0;
  return one->DeviceBytes();
}

void TestLimitBelowOnePair(size_t per_pair) {
  const size_t limit = per_pair / 2;
  std::unique_ptr<s2c::CudaBackend> gpu = MakeWithLimit(2, limit);
  if (!gpu) return;
  const s2c::Status st = gpu->Configure(kWidth, kHeight);
  std::printf("limit of half a pair: %s\n", st.message().c_str());
  S2C_CHECK(st.code() == s2c::StatusCode::kOutOfMemory, "Configure with half a pair: code %d",
            static_cast<int>(st.code()));
  const std::string limit_mib = "limit of " + std::to_string(limit >> 20) + " MiB";
  for (const std::string& part : {std::string("256x192"), limit_mib}) {
    S2C_CHECK(st.message().find(part) != std::string::npos, "\"%s\" not in \"%s\"",
              part.c_str(), st.message().c_str());
  }
  S2C_CHECK(gpu->DeviceBytes() <= limit, "a refused Configure holds %zu device bytes, limit %zu",
            gpu->DeviceBytes(), limit);
  const s2c::test::Frame f = s2c::test::MakeFrame(s2c::PixelFormat::kI420, kWidth, kHeight, 1, 0);
  S2C_CHECK(!gpu->Submit(f.View(), f.View(), s2c::MemoryKind::kHost, 1).ok(),
            "Submit after a refused Configure");
}

// Room for two and a half pairs of max_in_flight 4: two in flight, the
// CPU's scores for pairs that go round the two slots several times, and
// never more device memory than the limit. A smaller frame size then fits
// all four, and the first size two again.
void TestLimitOfTwoAndAHalfPairs(size_t per_pair) {
  const size_t limit = per_pair * 5 / 2;
  std::unique_ptr<s2c::CudaBackend> gpu = MakeWithLimit(4, limit);
  if (!gpu) return;
  s2c::Status st = gpu->Configure(kWidth, kHeight);
  if (!S2C_CHECK(st.ok(), "Configure with 2.5 pairs: %s", st.message().c_str())) return;
  S2C_CHECK(gpu->Capacity() == 2, "Capacity %d with room for 2.5 pairs", gpu->Capacity());
  S2C_CHECK(gpu->DeviceBytes() <= limit, "%zu device bytes after Configure, limit %zu",
            gpu->DeviceBytes(), limit);

  constexpr int kPairs = 5;
  s2c::test::Frame ref[kPairs], dist[kPairs];
  for (int i = 0; i < kPairs; ++i) {
    ref[i] = s2c::test::MakeFrame(s2c::PixelFormat::kI420, kWidth, kHeight, 10 + i, 0);
    dist[i] = s2c::test::MakeFrame(s2c::PixelFormat::kI420, kWidth, kHeight, 20 + i, 6 + i);
  }
  s2c::CpuReference cpu(0);
  int next = 0;
  for (int collected = 0; collected < kPairs; ++collected) {
    while (next < kPairs && gpu->InFlight() < gpu->Capacity()) {
      st = gpu->Submit(ref[next].View(), dist[next].View(), s2c::MemoryKind::kHost, next);
      if (!S2C_CHECK(st.ok(), "Submit %d: %s", next, st.message().c_str())) return;
      ++next;
    }
    if (next < kPairs) {
      S2C_CHECK(!gpu->Submit(ref[next].View(), dist[next].View(), s2c::MemoryKind::kHost, 99).ok(),
                "a third pair accepted with Capacity 2");
    }
    bool ready = false;
    uint64_t tag = 0;
    s2c::Result got, want;
    st = gpu->CollectOldest(true, &ready, &tag, &got);
    if (!S2C_CHECK(st.ok() && ready, "collect %d: %s", collected, st.message().c_str())) return;
    S2C_CHECK(tag == static_cast<uint64_t>(collected), "tag %llu, expected %d",
              static_cast<unsigned long long>(tag), collected);
    S2C_CHECK(cpu.Compare(ref[collected].View(), dist[collected].View(), &want).ok(), "cpu");
    S2C_CHECK_SAME(got.score, want.score, "pair %d under the limit: score", collected);
    S2C_CHECK(gpu->DeviceBytes() <= limit, "%zu device bytes while scoring, limit %zu",
              gpu->DeviceBytes(), limit);
  }

  st = gpu->Configure(kWidth / 2, kHeight / 2);
  S2C_CHECK(st.ok() && gpu->Capacity() == 4, "a quarter of the size: Capacity %d (%s)",
            gpu->Capacity(), st.message().c_str());
  S2C_CHECK(gpu->DeviceBytes() <= limit, "%zu device bytes at a quarter size, limit %zu",
            gpu->DeviceBytes(), limit);
  st = gpu->Configure(kWidth, kHeight);
  S2C_CHECK(st.ok() && gpu->Capacity() == 2, "the first size again: Capacity %d (%s)",
            gpu->Capacity(), st.message().c_str());
  S2C_CHECK(gpu->DeviceBytes() <= limit, "%zu device bytes at the first size again, limit %zu",
            gpu->DeviceBytes(), limit);
}

}  // namespace

int main() {
  std::unique_ptr<s2c::Backend> gpu;
  const s2c::Status made = s2c::MakeCudaBackend(-1, 2, s2c::DeviceFp64::kAuto, &gpu);
  if (made.code() == s2c::StatusCode::kNoDevice) return s2c::test::Skip(made.message().c_str());
  S2C_CHECK(made.ok(), "MakeCudaBackend: %s", made.message().c_str());
  if (!made.ok()) return s2c::test::Finish();

  const size_t per_pair = BytesPerPair();
  if (S2C_CHECK(per_pair > 0, "one pair holds no device memory")) {
    TestLimitBelowOnePair(per_pair);
    TestLimitOfTwoAndAHalfPairs(per_pair);
  }

  const int w = 64, h = 48;
  S2C_CHECK(gpu->Configure(w, h).ok(), "Configure");

  // I420 planes at an address no allocation has: the front end faults.
  const s2c::test::Frame good = s2c::test::MakeFrame(s2c::PixelFormat::kI420, w, h, 1, 0);
  s2c::FrameView bad = good.View();
  for (int p = 0; p < 3; ++p) {
    bad.data[p] = reinterpret_cast<const uint8_t*>(uintptr_t{0x10} << 40);
  }
  constexpr double kUntouched = -12345.0;
  s2c::Result result;
  result.score = kUntouched;
  const s2c::Status submitted = gpu->Submit(bad, bad, s2c::MemoryKind::kDevice, 7);
  if (submitted.ok()) {
    bool ready = false;
    uint64_t tag = 0;
    const s2c::Status collected = gpu->CollectOldest(true, &ready, &tag, &result);
    std::printf("faulting pair: %s\n", collected.message().c_str());
    S2C_CHECK(!collected.ok(), "a faulting pair was collected as a score");
    S2C_CHECK(collected.code() == s2c::StatusCode::kDeviceError, "code %d",
              static_cast<int>(collected.code()));
    S2C_CHECK(gpu->InFlight() == 0, "the failed pair is still in flight");
  } else {
    std::printf("faulting pair refused at Submit: %s\n", submitted.message().c_str());
    S2C_CHECK(submitted.code() == s2c::StatusCode::kDeviceError, "code %d",
              static_cast<int>(submitted.code()));
  }
  S2C_CHECK(result.score == kUntouched, "a score was written: %.17g", result.score);

  // Afterwards the context is broken: a good pair must fail too, not score.
  const s2c::Status again = gpu->Submit(good.View(), good.View(), s2c::MemoryKind::kHost, 8);
  if (again.ok()) {
    bool ready = false;
    uint64_t tag = 0;
    const s2c::Status collected = gpu->CollectOldest(true, &ready, &tag, &result);
    std::printf("next pair: %s\n", collected.message().c_str());
    S2C_CHECK(!collected.ok(), "a pair on the faulted context was scored");
  } else {
    std::printf("next pair refused at Submit: %s\n", again.message().c_str());
  }
  S2C_CHECK(result.score == kUntouched, "a score was written: %.17g", result.score);
  return s2c::test::Finish();
}
