// SPDX-License-Identifier: BSD-3-Clause
// A GPU that fails mid-stream: a pair whose device planes point at memory the
// device cannot read makes the kernels fault. The backend must hand back an
// error for that pair (naming the CUDA error), must not write a score, and
// must not score later pairs on the broken context either. Runs in a process
// of its own: a device fault ends the CUDA context for the whole process.
#include <cstdint>
#include <cstdio>

#include "check.h"
#include "cuda/cuda_backend.h"
#include "generated_frames.h"

int main() {
  std::unique_ptr<s2c::Backend> gpu;
  const s2c::Status made = s2c::MakeCudaBackend(-1, 2, s2c::DeviceFp64::kAuto, &gpu);
  if (made.code() == s2c::StatusCode::kNoDevice) return s2c::test::Skip(made.message().c_str());
  S2C_CHECK(made.ok(), "MakeCudaBackend: %s", made.message().c_str());
  if (!made.ok()) return s2c::test::Finish();
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
