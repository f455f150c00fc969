// SPDX-License-Identifier: BSD-3-Clause
// Host-callable entry points of the exact ordered sum (kernels/ordered_sum.cu),
// for host C++ that does not include CUDA device code. Kernels for other term
// sources are instantiated from LaunchOrderedSums in ordered_sum.cuh.
#ifndef S2C_KERNELS_ORDERED_SUM_LAUNCH_H_
#define S2C_KERNELS_ORDERED_SUM_LAUNCH_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace s2c {
namespace cuda {

// Device scratch of one launch, owned by the caller (CUB style: query the
// size once, allocate once, reuse; no hidden allocation).
struct OrderedSumWorkspace {
  void* data = nullptr;
  size_t bytes = 0;
};

// Bytes of workspace for k sums of n terms each (about 48 bytes per sum and
// chunk of 1024 terms; 80 for terms of either sign).
size_t OrderedSumWorkspaceBytes(uint64_t n, int k, bool signed_terms = false);

// Enqueues on stream the exact loop sum (bits of `s = 0.0; s += t[i]`) of n
// doubles at d_terms into *d_out. Asynchronous: no sync, no allocation;
// returns the launch error, if any.
cudaError_t LaunchOrderedSumOfArray(const double* d_terms, uint64_t n,
                                    const OrderedSumWorkspace& ws, double* d_out,
                                    cudaStream_t stream);

// The same for terms of either sign (src/steps/ordered_sum_signed.h); the
// workspace is OrderedSumWorkspaceBytes(n, 1, true).
cudaError_t LaunchSignedOrderedSumOfArray(const double* d_terms, uint64_t n,
                                          const OrderedSumWorkspace& ws, double* d_out,
                                          cudaStream_t stream);

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_ORDERED_SUM_LAUNCH_H_
