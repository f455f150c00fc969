// SPDX-License-Identifier: BSD-3-Clause
#include "device_fp64.h"

namespace s2c {

double Fp64LanesPerSm(int major, int minor) {
  // The one table of GPUs whose f64 units are fast: compute capability.
  static constexpr struct {
    int major, minor;
    double lanes;
  } kFullRate[] = {{6, 0, 32}, {7, 0, 32}, {8, 0, 32}, {9, 0, 64}, {10, 0, 64}};
  for (const auto& cc : kFullRate) {
    if (cc.major == major && cc.minor == minor) return cc.lanes;
  }
  return 2;
}

DeviceFp64 ResolveDeviceFp64(DeviceFp64 choice, int major, int minor) {
  if (choice != DeviceFp64::kAuto) return choice;
  return Fp64LanesPerSm(major, minor) < kIntegerPathCrossoverLanesPerSm ? DeviceFp64::kInteger
                                                                        : DeviceFp64::kNative;
}

const char* DeviceFp64Name(DeviceFp64 choice) {
  switch (choice) {
    case DeviceFp64::kAuto: return "auto";
    case DeviceFp64::kNative: return "native";
    case DeviceFp64::kInteger: return "integer";
  }
  return "?";
}

}  // namespace s2c
