// SPDX-License-Identifier: BSD-3-Clause
#include "device_fp64.h"

namespace s2c {

bool FullRateFp64(int major, int minor) {
  // The one table of GPUs whose f64 units are fast: compute capability.
  static constexpr struct {
    int major, minor;
  } kFullRate[] = {{6, 0}, {7, 0}, {8, 0}, {9, 0}, {10, 0}};
  for (const auto& cc : kFullRate) {
    if (cc.major == major && cc.minor == minor) return true;
  }
  return false;
}

DeviceFp64 ResolveDeviceFp64(DeviceFp64 choice, int major, int minor) {
  if (choice != DeviceFp64::kAuto) return choice;
  return FullRateFp64(major, minor) ? DeviceFp64::kNative : DeviceFp64::kInteger;
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
