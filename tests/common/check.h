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
//                                         the same bits, for two doubles or
//                                         two floats; a failure prints both
//                                         values and their bits
//   return s2c::test::Finish();           from main: the summary, and exit
//                                         status 1 after any failure, else 0
//   return s2c::test::Skip("why");        from main: nothing this test checks
//                                         applies here (Meson's 77, SKIP)
//
// Both checks are expressions with the check's outcome, so a test can
// leave a case early: `if (!S2C_CHECK(st.ok(), ...)) return;`. The first
// 50 failures are printed; the summary counts all of them.
// Header-only, so that the ordered-sum tests compile standalone
// (tests/unit/ordered_sum_mutations.sh).
#ifndef S2C_TESTS_CHECK_H_
#define S2C_TESTS_CHECK_H_

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>

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

// Exact equality: the same bits (so NaN equals the same NaN, and 0.0 is
// not -0.0).
inline bool SameBits(double a, double b) { return Bits(a) == Bits(b); }
inline bool SameBits(float a, float b) { return Bits(a) == Bits(b); }

struct Tally {
  long passed = 0;
  long failed = 0;
};

inline Tally& GlobalTally() {
  static Tally tally;
  return tally;
}

constexpr long kPrintedFailures = 50;

// Counts a failure, and prints it while fewer than kPrintedFailures were.
inline void ReportFailure(const char* file, int line, const char* condition,
                          const char* format, va_list args, const char* values) {
  const long failed = ++GlobalTally().failed;
  if (failed > kPrintedFailures) return;
  std::printf("FAIL %s:%d: %s:", file, line, condition);
  std::vprintf(format, args);
  std::printf("%s\n", values);
  if (failed == kPrintedFailures) std::printf("(further failures are counted, not printed)\n");
  std::fflush(stdout);
}

#if defined(__GNUC__)
#define S2C_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define S2C_PRINTF_LIKE(f, a)
#endif

S2C_PRINTF_LIKE(5, 6)
inline bool Check(bool ok, const char* file, int line, const char* condition,
                  const char* format, ...) {
  if (ok) {
    ++GlobalTally().passed;
    return true;
  }
  va_list args;
  va_start(args, format);
  ReportFailure(file, line, condition, format, args, "");
  va_end(args);
  return false;
}

S2C_PRINTF_LIKE(6, 7)
inline bool CheckSame(double got, double want, const char* file, int line, const char* condition,
                      const char* format, ...) {
  if (SameBits(got, want)) {
    ++GlobalTally().passed;
    return true;
  }
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
  if (SameBits(got, want)) {
    ++GlobalTally().passed;
    return true;
  }
  char values[128];
  std::snprintf(values, sizeof values, " (got %.9g = 0x%08" PRIx32 ", want %.9g = 0x%08" PRIx32 ")",
                static_cast<double>(got), Bits(got), static_cast<double>(want), Bits(want));
  va_list args;
  va_start(args, format);
  ReportFailure(file, line, condition, format, args, values);
  va_end(args);
  return false;
}

#undef S2C_PRINTF_LIKE

// The summary line and the exit status.
inline int Finish() {
  const Tally& t = GlobalTally();
  std::printf("%ld checks passed, %ld failed\n", t.passed, t.failed);
  if (t.passed == 0 && t.failed == 0) {
    std::printf("FAIL: no check ran\n");
    return 1;
  }
  return t.failed ? 1 : 0;
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
#define S2C_CHECK(cond, ...) \
  ::s2c::test::Check(static_cast<bool>(cond), __FILE__, __LINE__, #cond, " " __VA_ARGS__)

#define S2C_CHECK_SAME(got, want, ...)                                                 \
  ::s2c::test::CheckSame((got), (want), __FILE__, __LINE__, "same bits: " #got ", " #want, \
                         " " __VA_ARGS__)

#endif  // S2C_TESTS_CHECK_H_
