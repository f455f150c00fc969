// SPDX-License-Identifier: BSD-3-Clause
#include "cpu/cpu_backend.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <limits>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include "cpu/cpu_reference.h"
#include "cpu/ssim_reference.h"
#include "frontend.h"
#include "ssim_planes.h"
#include "thread_pool.h"

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

// Pairs are scored one at a time, in order, by a worker thread that owns
// the CpuReference (whose pool spreads each pair over the cores). Submit
// only checks and queues, so the caller (the element's streaming thread)
// never waits for a score unless it asks to. Cancel abandons the pair being
// scored through the pool's cancel flag, which the CPU reference checks
// between its stages: a flush or a stop waits for a few rows of work, not
// for the pairs in flight.
class CpuBackend : public Backend {
 public:
  explicit CpuBackend(int threads) : reference_(threads), worker_([this] { Work(); }) {
    reference_.pool()->set_cancel_flag(&abandon_);
  }

  ~CpuBackend() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      queued_.clear();
      abandon_ = true;
    }
    queued_cv_.notify_all();
    worker_.join();
  }

  const char* name() const override { return "cpu"; }

  Status SetMetrics(unsigned metrics) override {
    S2C_RETURN_IF_ERROR(CheckMetrics(metrics));
    metrics_ = metrics;
    return Status::Ok();
  }

  // Refuses a size whose planes do not fit in the memory available now,
  // before anything is allocated, then allocates them: the worker's first
  // pair of the size, which a flush may abandon, does not have to. Called
  // with nothing in flight, so the worker does not use the reference.
  Status Configure(int width, int height) override {
    S2C_RETURN_IF_ERROR(CheckFrameSize(width, height));
    const double needed =
        ((metrics_ & kMetricSsimulacra2) ? CpuReference::WorkspaceBytes(width, height) : 0.0) +
        ((metrics_ & kMetricSsim) ? SsimWorkspaceBytes(width, height) : 0.0);
    const double available = AvailableHostBytes();
    if (available >= 0.0 && needed > available) {
      return Status(StatusCode::kOutOfMemory,
                    "frames of " + SizeText(width, height) + " need " + MiB(needed) +
                        " MiB of host memory for the CPU backend but only " +
                        MiB(available) + " MiB are available");
    }
    if (metrics_ & kMetricSsimulacra2) {
      try {
        reference_.Reserve(width, height);
      } catch (const std::bad_alloc&) {
        return Status(StatusCode::kOutOfMemory,
                      "out of host memory for the CPU backend's " + MiB(needed) +
                          " MiB of planes for " + SizeText(width, height) + " frames");
      }
    }
    width_ = width;
    height_ = height;
    return Status::Ok();
  }

  // Everything Compare would refuse is refused here, so a queued pair can
  // fail only for want of memory.
  Status Submit(const FrameView& ref, const FrameView& dist, MemoryKind memory,
                uint64_t tag) override {
    if (memory != MemoryKind::kHost) {
      return Unsupported("the CPU backend reads host memory only");
    }
    if (width_ == 0) {
      return InvalidArgument("Submit before Configure: no frame size set");
    }
    if (ref.desc.width != width_ || ref.desc.height != height_) {
      return InvalidArgument("frame size " + SizeText(ref.desc.width, ref.desc.height) +
                             " differs from the configured " + SizeText(width_, height_));
    }
    FrameLayout layout[2];
    S2C_RETURN_IF_ERROR(CheckFramePair(ref, dist, layout));
    if (metrics_ & kMetricSsim) S2C_RETURN_IF_ERROR(CheckSsimFormats(layout[0].format, layout[1].format));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (cancelled_) return Cancelled();
      Pair pair;
      pair.ref = ref;
      pair.dist = dist;
      pair.tag = tag;
      pair.metrics = metrics_;
      queued_.push_back(pair);
      ++in_flight_;
    }
    queued_cv_.notify_one();
    return Status::Ok();
  }

  int InFlight() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return in_flight_;
  }

  // The queue has no bound: the caller decides how many pairs wait.
  int Capacity() const override { return std::numeric_limits<int>::max(); }

  size_t DeviceBytes() const override { return 0; }

  Status CollectOldest(bool wait, bool* ready, uint64_t* tag, Result* out) override {
    std::unique_lock<std::mutex> lock(mutex_);
    if (in_flight_ == 0 && !cancelled_) {
      *ready = false;
      return Status(StatusCode::kInternal, "no pair in flight");
    }
    if (wait) done_cv_.wait(lock, [this] { return cancelled_ || !done_.empty(); });
    if (cancelled_) {
      *ready = false;
      done_cv_.wait(lock, [this] { return !scoring_; });
      return Cancelled();
    }
    if (done_.empty()) {
      *ready = false;
      return Status::Ok();
    }
    Done done = done_.front();
    done_.pop_front();
    --in_flight_;
    *ready = true;
    *tag = done.tag;
    if (!done.status.ok()) return done.status;
    *out = done.result;
    return Status::Ok();
  }

  void Cancel() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      cancelled_ = true;
      queued_.clear();
      abandon_ = true;
    }
    done_cv_.notify_all();
  }

  void DropInFlight() override {
    std::unique_lock<std::mutex> lock(mutex_);
    queued_.clear();
    abandon_ = true;
    done_cv_.wait(lock, [this] { return !scoring_; });
    abandon_ = false;
    done_.clear();
    in_flight_ = 0;
    cancelled_ = false;
  }

 private:
  struct Pair {
    FrameView ref, dist;
    uint64_t tag = 0;
    unsigned metrics = 0;
  };
  struct Done {
    uint64_t tag = 0;
    Status status;
    Result result;
  };

  void Work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      queued_cv_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
      if (queued_.empty()) return;  // stopping, nothing left to score
      const Pair pair = queued_.front();
      queued_.pop_front();
      scoring_ = true;
      lock.unlock();
      Done done;
      done.tag = pair.tag;
      done.status = Score(pair, &done.result);
      lock.lock();
      scoring_ = false;
      done_.push_back(done);  // an abandoned pair's goes with DropInFlight
      done_cv_.notify_all();
    }
  }

  // Memory can still run out after Configure's check (other processes):
  // an error for this pair, never an exception through the element.
  Status Score(const Pair& pair, Result* out) {
    try {
      if (pair.metrics & kMetricSsimulacra2) {
        S2C_RETURN_IF_ERROR(reference_.Compare(pair.ref, pair.dist, out));
      }
      if (pair.metrics & kMetricSsim) {
        S2C_RETURN_IF_ERROR(SsimCompare(pair.ref, pair.dist, &out->ssim, reference_.pool()));
      }
      out->metrics = pair.metrics;
      return Status::Ok();
    } catch (const std::bad_alloc&) {
      return Status(StatusCode::kOutOfMemory,
                    "out of host memory scoring a " +
                        SizeText(pair.ref.desc.width, pair.ref.desc.height) + " pair (" +
                        MiB(CpuReference::WorkspaceBytes(pair.ref.desc.width,
                                                         pair.ref.desc.height)) +
                        " MiB of planes)");
    }
  }

  // Set (under mutex_) to stop the pair being scored: the pool's cancel
  // flag. Declared before the reference, whose pool reads it.
  std::atomic<bool> abandon_{false};
  CpuReference reference_;  // the worker's, and Configure's (nothing in flight then)
  int width_ = 0, height_ = 0;  // the caller's alone
  unsigned metrics_ = kMetricSsimulacra2;  // the caller's alone

  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable queued_cv_, done_cv_;
  std::deque<Pair> queued_;
  std::deque<Done> done_;
  int in_flight_ = 0;  // submitted and not yet collected
  bool scoring_ = false;  // the worker is reading a pair's planes
  bool cancelled_ = false;  // from Cancel to DropInFlight
  bool stopping_ = false;
  std::thread worker_;  // last: starts once everything above exists
};

}  // namespace

std::unique_ptr<Backend> MakeCpuBackend(int threads) {
  return std::unique_ptr<Backend>(new CpuBackend(threads));
}

}  // namespace s2c
