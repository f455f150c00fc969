// SPDX-License-Identifier: BSD-3-Clause
// The choice of arithmetic for the kernels' f64 steps, as the launch
// functions take it (ssimulacra2_launch.h, ssim_launch.h).
#ifndef S2C_KERNELS_F64_PATH_H_
#define S2C_KERNELS_F64_PATH_H_

namespace s2c {
namespace cuda {

// How the kernels evaluate the metric's f64 steps: in the device's f64
// arithmetic, or in integers with the same bits, for GPUs whose f64 units
// are slow (src/steps/f64_policies.h; docs/soft-double.md). The kernels of the
// integer path hold no f64 instruction (test integer_path_no_f64).
enum class F64Path { kNative, kInteger };

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_F64_PATH_H_
