// SPDX-License-Identifier: BSD-3-Clause
// The CUDA backend's f64 path for the device tests: S2C_TEST_DEVICE_FP64
// = native, integer or auto (unset: auto), so that one test binary checks
// either path (tests/gpu/run-device-suite.sh runs both).
#ifndef S2C_TESTS_DEVICE_FP64_ENV_H_
#define S2C_TESTS_DEVICE_FP64_ENV_H_

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "device_fp64.h"

namespace s2c {
namespace test {

inline DeviceFp64 DeviceFp64FromEnv() {
  const char* v = std::getenv("S2C_TEST_DEVICE_FP64");
  if (v == nullptr || *v == '\0' || std::strcmp(v, "auto") == 0) return DeviceFp64::kAuto;
  if (std::strcmp(v, "native") == 0) return DeviceFp64::kNative;
  if (std::strcmp(v, "integer") == 0) return DeviceFp64::kInteger;
  std::fprintf(stderr, "S2C_TEST_DEVICE_FP64=%s: native, integer or auto\n", v);
  std::exit(2);
}

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_DEVICE_FP64_ENV_H_
