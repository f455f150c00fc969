// SPDX-License-Identifier: BSD-3-Clause
// Which arithmetic the CUDA backend's f64 steps use (docs/element.md,
// "device-fp64"; docs/soft-double.md): the device's f64 units, or integers
// with the same bits on GPUs whose f64 rate is a small fraction of their
// f32 rate. Plain C++, so that the element, the tools and the tests name the
// choice in builds without CUDA too.
#ifndef S2C_DEVICE_FP64_H_
#define S2C_DEVICE_FP64_H_

namespace s2c {

// kAuto: by the GPU's compute capability (FullRateFp64).
enum class DeviceFp64 : int { kAuto = 0, kNative = 1, kInteger = 2 };

// Whether a GPU of compute capability major.minor runs f64 at a large
// fraction of its f32 rate (the data-centre parts: 6.0 P100, 7.0 V100,
// 8.0 A100, 9.0 H100/H200, 10.0 B200). Every other GPU (7.5 T4, 8.6 A10
// and RTX 30, 8.7 Orin, 8.9 L4 and RTX 40, 12.x RTX 50 and the other
// consumer, workstation and embedded parts) runs it at 1/32 to 1/64.
bool FullRateFp64(int major, int minor);

// The path a choice takes on that GPU: kNative or kInteger.
DeviceFp64 ResolveDeviceFp64(DeviceFp64 choice, int major, int minor);

// "auto", "native", "integer".
const char* DeviceFp64Name(DeviceFp64 choice);

}  // namespace s2c

#endif  // S2C_DEVICE_FP64_H_
