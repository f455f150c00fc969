// SPDX-License-Identifier: BSD-3-Clause
#include "delayed_backend.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <thread>
#include <utility>

namespace s2c {
namespace {

using Clock = std::chrono::steady_clock;

class DelayedBackend : public Backend {
 public:
  DelayedBackend(std::unique_ptr<Backend> inner, double delay_ms, long pairs)
      : inner_(std::move(inner)),
        delay_(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double, std::milli>(delay_ms))),
        delayed_left_(pairs) {}

  const char* name() const override { return inner_->name(); }
  Status SetMetrics(unsigned metrics) override { return inner_->SetMetrics(metrics); }
  Status Configure(int width, int height) override { return inner_->Configure(width, height); }

  Status Submit(const FrameView& ref, const FrameView& dist, MemoryKind memory,
                uint64_t tag) override {
    S2C_RETURN_IF_ERROR(inner_->Submit(ref, dist, memory, tag));
    const Clock::time_point start =
        ready_at_.empty() ? Clock::now() : std::max(Clock::now(), ready_at_.back());
    const bool delayed = delayed_left_ != 0;
    if (delayed_left_ > 0) --delayed_left_;
    ready_at_.push_back(delayed ? start + delay_ : start);
    return Status::Ok();
  }

  int InFlight() const override { return inner_->InFlight(); }
  int Capacity() const override { return inner_->Capacity(); }
  size_t DeviceBytes() const override { return inner_->DeviceBytes(); }

  Status CollectOldest(bool wait, bool* ready, uint64_t* tag, Result* out) override {
    if (!ready_at_.empty()) {
      if (wait) {
        std::this_thread::sleep_until(ready_at_.front());
      } else if (Clock::now() < ready_at_.front()) {
        *ready = false;
        return Status::Ok();
      }
    }
    const int before = inner_->InFlight();
    const Status status = inner_->CollectOldest(wait, ready, tag, out);
    if (inner_->InFlight() < before) ready_at_.pop_front();  // scored or failed
    return status;
  }

  // The delay itself is not cut short: a pair already being waited for
  // keeps its ready time.
  void Cancel() override { inner_->Cancel(); }

  void DropInFlight() override {
    inner_->DropInFlight();
    ready_at_.clear();
  }

 private:
  std::unique_ptr<Backend> inner_;
  Clock::duration delay_;
  long delayed_left_;  // pairs still to delay; negative: all
  std::deque<Clock::time_point> ready_at_;  // of the pairs in flight, oldest first
};

}  // namespace

std::unique_ptr<Backend> WithPairDelay(std::unique_ptr<Backend> inner, double delay_ms,
                                       long pairs) {
  return std::unique_ptr<Backend>(new DelayedBackend(std::move(inner), delay_ms, pairs));
}

}  // namespace s2c
