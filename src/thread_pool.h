// SPDX-License-Identifier: BSD-3-Clause
// A fixed set of worker threads for the CPU reference. Run() hands out task
// indices and returns when all are done; the calling thread works too. The
// tasks of one Run() are independent (lines, column blocks, channels), so the
// thread count never changes a result.
#ifndef S2C_THREAD_POOL_H_
#define S2C_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace s2c {

class ThreadPool {
 public:
  // threads <= 0: one per hardware thread.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(i) for every i in [0, num_tasks), spread over the threads.
  // Once the cancel flag is set, tasks not yet begun are skipped.
  void Run(int num_tasks, const std::function<void(int)>& task);

  // A flag whose owner sets it to abandon the computation running on the
  // pool (CpuBackend::Cancel): Run then returns as soon as the tasks begun
  // are done, and the computation, which checks cancelled() between its
  // stages, stops without a result. Null (the default): never cancelled.
  void set_cancel_flag(const std::atomic<bool>* flag) { cancel_ = flag; }
  bool cancelled() const {
    return cancel_ != nullptr && cancel_->load(std::memory_order_relaxed);
  }

 private:
  void WorkerLoop();
  void Drain();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* task_ = nullptr;
  int num_tasks_ = 0;
  std::atomic<int> next_{0};
  int busy_ = 0;
  unsigned generation_ = 0;
  bool stop_ = false;
  const std::atomic<bool>* cancel_ = nullptr;
};

}  // namespace s2c

#endif  // S2C_THREAD_POOL_H_
