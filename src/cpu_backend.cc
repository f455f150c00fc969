// SPDX-License-Identifier: BSD-3-Clause
#include "cpu_backend.h"

#include <deque>
#include <string>

#include "cpu_reference.h"
#include "frontend.h"

namespace s2c {
namespace {

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(int threads) : reference_(threads) {}

  const char* name() const override { return "cpu"; }

  Status Configure(int width, int height) override {
    S2C_RETURN_IF_ERROR(CheckFrameSize(width, height));
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
    S2C_RETURN_IF_ERROR(reference_.Compare(ref, dist, &done.result));
    done_.push_back(done);
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
