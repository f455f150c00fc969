// SPDX-License-Identifier: BSD-3-Clause
// The harness of every test that is not a gst-check suite (those use
// gst-check's fail_unless, and may use SameBits from here):
//
//   S2C_CHECK(cond, "format", ...)        passes when cond holds; otherwise
//                                         prints "FAIL file:line: cond:" and
//                                         the message (optional: printf's
//                                         format and arguments), which says
//                                         what was checked and the values
//   S2C_CHECK_SAME(got, want, "format", ...)
//                                         the same bits, for two doubles, two
//                                         floats or two doubles' bit patterns
//                                         (uint64_t); a failure prints both
//                                         values and their bits
//   return s2c::test::Finish();           from main: the summary, and exit
//                                         status 1 after any failure, else 0
//   return s2c::test::Skip("why");        from main: nothing this test checks
//                                         applies here (Meson's 77, SKIP)
//
// Both checks are expressions with the check's outcome, so a test can
// leave a case early: `if (!S2C_CHECK(st.ok(), ...)) return;`. S2C_CHECK
// evaluates its message's arguments only when the check fails. The first
// 50 failures are printed; the summary counts all of them. With
// S2C_CHECK_EXIT_AT_FAILURE set in the environment, the first failure is
// printed and ends the process with status 1 at once: the mutation tests
// (tests/unit/mutations.sh) need to know that a test fails, not how often.
//
// Checks may run on several threads at once (the soft double's draws): a
// failure is counted atomically and printed whole, and a pass costs an
// increment of a counter of the thread's own, added to the tally when the
// thread ends (the calling thread's at Finish), so a thread must end
// before Finish to have its passes counted.
// Header-only, so that the ordered-sum and soft double tests compile
// standalone (tests/unit/mutations.sh).
#ifndef S2C_TESTS_CHECK_H_
#define S2C_TESTS_CHECK_H_

#include <atomic>
#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

namespace s2c {
namespace test {

inline uint64_t Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}
inline uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline double Double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
inline float Float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Exact equality: the same bits (so NaN equals the same NaN, and 0.0 is
// not -0.0).
inline bool SameBits(double a, double b) { return Bits(a) == Bits(b); }
inline bool SameBits(float a, float b) { return Bits(a) == Bits(b); }

struct Tally {
  std::atomic<long> passed{0};
  std::atomic<long> failed{0};
  std::mutex print;  // one failure's lines at a time
};

inline Tally& GlobalTally() {
  static Tally tally;
  return tally;
}

// The passes of one thread, added to the tally when the thread ends.
struct ThreadPasses {
  long count = 0;
  ~ThreadPasses() { GlobalTally().passed += count; }
};

inline long& PassesOfThisThread() {
  thread_local ThreadPasses passes;
  return passes.count;
}

inline bool Pass() {
  ++PassesOfThisThread();
  return true;
}

constexpr long kPrintedFailures = 50;

inline bool ExitAtFailure() {
  static const bool exit_at_failure = std::getenv("S2C_CHECK_EXIT_AT_FAILURE") != nullptr;
  return exit_at_failure;
}

// Counts a failure, and prints it while fewer than kPrintedFailures were;
// ends the process after the first under S2C_CHECK_EXIT_AT_FAILURE.
inline void ReportFailure(const char* file, int line, const char* condition,
                          const char* format, va_list args, const char* values) {
  Tally& tally = GlobalTally();
  const long failed = ++tally.failed;
  if (failed > kPrintedFailures) return;
  std::lock_guard<std::mutex> lock(tally.print);
  std::printf("FAIL %s:%d: %s:", file, line, condition);
  std::vprintf(format, args);
  std::printf("%s\n", values);
  if (failed == kPrintedFailures) std::printf("(further failures are counted, not printed)\n");
  std::fflush(stdout);
  if (ExitAtFailure()) std::_Exit(1);
}

#if defined(__GNUC__)
#define S2C_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define S2C_PRINTF_LIKE(f, a)
#endif

// S2C_CHECK's failure: always false.
S2C_PRINTF_LIKE(4, 5)
inline bool Fail(const char* file, int line, const char* condition, const char* format, ...) {
  va_list args;
  va_start(args, format);
  ReportFailure(file, line, condition, format, args, "");
  va_end(args);
  return false;
}

S2C_PRINTF_LIKE(6, 7)
inline bool CheckSame(double got, double want, const char* file, int line, const char* condition,
                      const char* format, ...) {
  if (SameBits(got, want)) return Pass();
  char values[128];
  std::snprintf(values, sizeof values,
                " (got %.17g = 0x%016" PRIx64 ", want %.17g = 0x%016" PRIx64 ")", got, Bits(got),
                want, Bits(want));
  va_list args;
  va_start(args, format);
  ReportFailure(file, line, condition, format, args, values);
  va_end(args);
  return false;
}

S2C_PRINTF_LIKE(6, 7)
inline bool CheckSame(float got, float want, const char* file, int line, const char* condition,
                      const char* format, ...) {
  if (SameBits(got, want)) return Pass();
  char values[128];
  std::snprintf(values, sizeof values, " (got %.9g = 0x%08" PRIx32 ", want %.9g = 0x%08" PRIx32 ")",
                static_cast<double>(got), Bits(got), static_cast<double>(want), Bits(want));
  va_list args;
  va_start(args, format);
  ReportFailure(file, line, condition, format, args, values);
  va_end(args);
  return false;
}

// Two bit patterns of doubles (the soft double's results).
S2C_PRINTF_LIKE(6, 7)
inline bool CheckSame(uint64_t got, uint64_t want, const char* file, int line,
                      const char* condition, const char* format, ...) {
  if (got == want) return Pass();
  char values[128];
  std::snprintf(values, sizeof values,
                " (got 0x%016" PRIx64 " = %a, want 0x%016" PRIx64 " = %a)", got, Double(got),
                want, Double(want));
  va_list args;
  va_start(args, format);
  ReportFailure(file, line, condition, format, args, values);
  va_end(args);
  return false;
}

#undef S2C_PRINTF_LIKE

// The summary line and the exit status.
inline int Finish() {
  Tally& t = GlobalTally();
  t.passed += std::exchange(PassesOfThisThread(), 0);
  const long passed = t.passed, failed = t.failed;
  std::printf("%ld checks passed, %ld failed\n", passed, failed);
  if (passed == 0 && failed == 0) {
    std::printf("FAIL: no check ran\n");
    return 1;
  }
  return failed ? 1 : 0;
}

// Nothing here applies to this machine: a real skip, with the reason. A
// check that failed before still fails the test.
inline int Skip(const char* why) {
  if (GlobalTally().failed) return Finish();
  std::printf("SKIP: %s\n", why);
  return 77;
}

}  // namespace test
}  // namespace s2c

// The message is optional (the condition is printed anyway); the space
// before it keeps a format string from being empty.
#define S2C_CHECK(cond, ...)                 \
  (static_cast<bool>(cond) ? ::s2c::test::Pass() \
                           : ::s2c::test::Fail(__FILE__, __LINE__, #cond, " " __VA_ARGS__))

#define S2C_CHECK_SAME(got, want, ...)                                                 \
  ::s2c::test::CheckSame((got), (want), __FILE__, __LINE__, "same bits: " #got ", " #want, \
                         " " __VA_ARGS__)

#endif  // S2C_TESTS_CHECK_H_
