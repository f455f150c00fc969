// SPDX-License-Identifier: BSD-3-Clause
// Which arithmetic the CUDA backend's f64 steps use (docs/element.md,
// "device-fp64"; docs/soft-double.md): the device's f64 units, or integers
// with the same bits on GPUs whose f64 rate is a small fraction of their
// f32 rate. Plain C++, so that the element, the tools and the tests name the
// choice in builds without CUDA too.
#ifndef S2C_DEVICE_FP64_H_
#define S2C_DEVICE_FP64_H_

namespace s2c {

// kAuto: the path predicted faster on the GPU (ResolveDeviceFp64).
enum class DeviceFp64 : int { kAuto = 0, kNative = 1, kInteger = 2 };

// The f64 lanes per SM of a GPU of compute capability major.minor, from
// NVIDIA's published rates: 32 or 64 on the data-centre parts (6.0 P100,
// 7.0 V100, 8.0 A100, 9.0 H100/H200, 10.0 B200), 2 on the others (7.5 T4,
// 8.6 A10 and RTX 30, 8.7 Orin, 8.9 L4 and RTX 40, 12.x RTX 50 and the
// other consumer, workstation and embedded parts: f64 at 1/32 to 1/64 of
// f32).
double Fp64LanesPerSm(int major, int minor);

// The f64 lanes per SM below which auto takes the integer path: the
// crossover of the model of docs/performance.md ("Which f64 path") for an
// H200-like GPU, from the kernels of one 4K pair profiled on each path
// (D41, D101). Every GPU of 2 lanes listed above is below it, where the
// model predicts the integer path 1.09 (L4) to 1.34 (T4) times faster; the
// data-centre parts, 32 and 64 lanes, are far above it.
constexpr double kIntegerPathCrossoverLanesPerSm = 3.49;

// The path a choice takes on that GPU: kNative or kInteger. kAuto takes
// kInteger where Fp64LanesPerSm is below kIntegerPathCrossoverLanesPerSm.
DeviceFp64 ResolveDeviceFp64(DeviceFp64 choice, int major, int minor);

// "auto", "native", "integer".
const char* DeviceFp64Name(DeviceFp64 choice);

}  // namespace s2c

#endif  // S2C_DEVICE_FP64_H_
