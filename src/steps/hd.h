// SPDX-License-Identifier: BSD-3-Clause
// S2C_HD marks a function that is compiled both as host C++ and as CUDA
// device code. Every per-pixel step of the metric is written once with it, so
// the CPU reference and the CUDA kernels run the same arithmetic (exactness
// contract, layer 3).
#ifndef S2C_HD_H_
#define S2C_HD_H_

#if defined(__CUDACC__)
#define S2C_HD __host__ __device__ __forceinline__
#else
#define S2C_HD inline
#endif

#endif  // S2C_HD_H_
