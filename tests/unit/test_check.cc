// SPDX-License-Identifier: BSD-3-Clause
// The harness itself (tests/common/check.h): checks made on several threads
// at once, as the soft double's draws make them, are all counted, passes
// and failures. The deliberate failures are printed as any failure is; the
// test passes when the tally holds exactly what was checked.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

#include "check.h"

int main() {
  constexpr int kThreads = 4;
  constexpr long kPasses = 4000000;  // per thread
  constexpr long kFailures = 20;     // per thread
  // All threads check at once: each waits until every one has started.
  std::atomic<int> started{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &started] {
      ++started;
      while (started < kThreads) std::this_thread::yield();
      for (long i = 0; i < kPasses; ++i) {
        // Work between the checks, as a real test has: the compiler may
        // not keep a count in a register across it.
        std::atomic_signal_fence(std::memory_order_seq_cst);
        S2C_CHECK(i >= 0, "a check that holds");
      }
      for (long i = 0; i < kFailures; ++i) {
        S2C_CHECK(i < 0, "deliberate failure %ld of thread %d", i, t);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const long passed = s2c::test::GlobalTally().passed;
  const long failed = s2c::test::GlobalTally().failed;
  const bool exact = passed == kThreads * kPasses && failed == kThreads * kFailures;
  std::printf("%s: %ld passes and %ld failures counted of %ld and %ld made on %d threads\n",
              exact ? "ok" : "FAIL", passed, failed, kThreads * kPasses, kThreads * kFailures,
              kThreads);
  return exact ? 0 : 1;
}
