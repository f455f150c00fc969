// SPDX-License-Identifier: BSD-3-Clause
// The harness itself (tests/common/check.h): checks made on several threads
// at once, as the soft double's draws make them, are all counted, passes
// and failures. The deliberate failures are printed as any failure is; the
// test passes when the tally holds exactly what was checked. Then the same
// checks in a child process under S2C_CHECK_EXIT_AT_FAILURE: it must end
// at its first failure, with status 1 and that failure printed alone.
#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "check.h"

namespace {

// Checks on several threads at once; true when the tally holds exactly
// what was checked.
bool CountsEveryCheck() {
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
  return exact;
}

// Runs this program again with --exit-at-failure under
// S2C_CHECK_EXIT_AT_FAILURE (this process has read the variable already);
// true when it ended at its first failure, before the line that
// CountsEveryCheck prints at its end. popen's shell is this process's
// child, so /proc/$PPID/exe is this program.
bool ExitsAtTheFirstFailure() {
  const char command[] = "S2C_CHECK_EXIT_AT_FAILURE=1 exec /proc/$PPID/exe --exit-at-failure";
  FILE* child = popen(command, "r");
  if (!child) {
    std::printf("FAIL: cannot run %s\n", command);
    return false;
  }
  int failure_lines = 0, summary_lines = 0;
  char line[512];
  while (std::fgets(line, sizeof line, child)) {
    failure_lines += std::strncmp(line, "FAIL ", 5) == 0;
    summary_lines += std::strstr(line, "passes and") != nullptr;
  }
  const int status = pclose(child);
  const bool exited_at_failure = WIFEXITED(status) && WEXITSTATUS(status) == 1 &&
                                 failure_lines == 1 && summary_lines == 0;
  std::printf("%s: under S2C_CHECK_EXIT_AT_FAILURE the checks printed %d failure(s) and %d "
              "closing line(s), exit status %d\n",
              exited_at_failure ? "ok" : "FAIL", failure_lines, summary_lines,
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return exited_at_failure;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--exit-at-failure") == 0) {
    CountsEveryCheck();
    return 0;  // not reached: the first failure ends the process
  }
  unsetenv("S2C_CHECK_EXIT_AT_FAILURE");  // this run counts every check
  const bool counts = CountsEveryCheck();
  return counts && ExitsAtTheFirstFailure() ? 0 : 1;
}
