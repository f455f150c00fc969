// SPDX-License-Identifier: BSD-3-Clause
// A minimal test harness for the library's host tests: named checks, a
// failure count, exit status 1 on any failure and 77 (Meson's "skipped")
// when a test has nothing to run here.
#ifndef S2C_TESTS_CHECK_H_
#define S2C_TESTS_CHECK_H_

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace s2c {
namespace test {

struct Tally {
  int passed = 0;
  int failed = 0;
  int Finish() const {
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
  }
};

inline Tally& GlobalTally() {
  static Tally t;
  return t;
}

inline uint64_t Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof(u));
  return u;
}
inline uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

}  // namespace test
}  // namespace s2c

#define S2C_CHECK(cond, ...)                                        \
  do {                                                              \
    if (cond) {                                                     \
      ++::s2c::test::GlobalTally().passed;                          \
    } else {                                                        \
      ++::s2c::test::GlobalTally().failed;                          \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
      std::printf(__VA_ARGS__);                                     \
      std::printf("\n");                                            \
    }                                                               \
  } while (0)

// Exact equality of two doubles: the same bits.
#define S2C_CHECK_SAME_DOUBLE(a, b, what)                                  \
  S2C_CHECK(::s2c::test::Bits(static_cast<double>(a)) ==                   \
                ::s2c::test::Bits(static_cast<double>(b)),                 \
            "%s: %.17g != %.17g", what, static_cast<double>(a),            \
            static_cast<double>(b))

#endif  // S2C_TESTS_CHECK_H_
