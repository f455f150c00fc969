// SPDX-License-Identifier: BSD-3-Clause
#include "cpu_backend.h"

#include <cstdio>
#include <deque>
#include <new>
#include <string>

#include "cpu_reference.h"
#include "frontend.h"

namespace s2c {
namespace {

// The host memory the kernel says is available (MemAvailable in
// /proc/meminfo), or a negative value where that is unknown.
double AvailableHostBytes() {
  std::FILE* f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return -1.0;
  char line[128];
  double bytes = -1.0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    unsigned long long kib = 0;
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
      bytes = static_cast<double>(kib) * 1024.0;
      break;
    }
  }
  std::fclose(f);
  return bytes;
}

std::string MiB(double bytes) { return std::to_string(static_cast<long long>(bytes / 1048576.0)); }

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(int threads) : reference_(threads) {}

  const char* name() const override { return "cpu"; }

  // Refuses a size whose planes do not fit in the memory available now,
  // before anything is allocated (Compare allocates at the first pair).
  Status Configure(int width, int height) override {
    S2C_RETURN_IF_ERROR(CheckFrameSize(width, height));
    const double needed = CpuReference::WorkspaceBytes(width, height);
    const double available = AvailableHostBytes();
    if (available >= 0.0 && needed > available) {
      return Status(StatusCode::kOutOfMemory,
                    "frames of " + std::to_string(width) + "x" + std::to_string(height) +
                        " need " + MiB(needed) + " MiB of host memory for the CPU backend " +
                        "but only " + MiB(available) + " MiB are available");
    }
    width_ = width;
    height_ = height;
    return Status::Ok();
  }

  Status Submit(const FrameView& ref, const FrameView& dist, MemoryKind memory,
                uint64_t tag) override {
    if (memory != MemoryKind::kHost) {
      return Unsupported("the CPU backend reads host memory only");
    }
    if (width_ == 0) {
      return InvalidArgument("Submit before Configure: no frame size set");
    }
    if (ref.desc.width != width_ || ref.desc.height != height_) {
      return InvalidArgument(
          "frame size " + std::to_string(ref.desc.width) + "x" +
          std::to_string(ref.desc.height) + " differs from the configured " +
          std::to_string(width_) + "x" + std::to_string(height_));
    }
    Done done;
    done.tag = tag;
    // Memory can still run out after Configure's check (other processes):
    // an error for this pair, never an exception through the element.
    try {
      S2C_RETURN_IF_ERROR(reference_.Compare(ref, dist, &done.result));
      done_.push_back(done);
    } catch (const std::bad_alloc&) {
      return Status(StatusCode::kOutOfMemory,
                    "out of host memory scoring a " + std::to_string(width_) + "x" +
                        std::to_string(height_) + " pair (" +
                        MiB(CpuReference::WorkspaceBytes(width_, height_)) + " MiB of planes)");
    }
    return Status::Ok();
  }

  int InFlight() const override { return static_cast<int>(done_.size()); }

  Status CollectOldest(bool /*wait*/, bool* ready, uint64_t* tag,
                       Result* out) override {
    if (done_.empty()) {
      *ready = false;
      return Status(StatusCode::kInternal, "no pair in flight");
    }
    *ready = true;
    *tag = done_.front().tag;
    *out = done_.front().result;
    done_.pop_front();
    return Status::Ok();
  }

 private:
  struct Done {
    uint64_t tag;
    Result result;
  };
  CpuReference reference_;
  std::deque<Done> done_;
  int width_ = 0, height_ = 0;
};

}  // namespace

std::unique_ptr<Backend> MakeCpuBackend(int threads) {
  return std::unique_ptr<Backend>(new CpuBackend(threads));
}

}  // namespace s2c
