// SPDX-License-Identifier: BSD-3-Clause
// The plain-array instantiation of the exact ordered sum and the workspace
// size query (ordered_sum_launch.h).
#include "ordered_sum.cuh"

namespace s2c {
namespace cuda {

size_t OrderedSumWorkspaceBytes(uint64_t n, int k, bool signed_terms) {
  const size_t chunks = detail::ChunkCount(n);
  if (signed_terms) {
    return detail::BuffersBytes<SignedIncrement>(chunks, k, nullptr, nullptr);
  }
  return detail::BuffersBytes<SumIncrement>(chunks, k, nullptr, nullptr);
}

cudaError_t LaunchOrderedSumOfArray(const double* d_terms, uint64_t n,
                                    const OrderedSumWorkspace& ws, double* d_out,
                                    cudaStream_t stream) {
  return LaunchOrderedSums<1>(ArrayTerms{d_terms}, n, ws, d_out, stream);
}

cudaError_t LaunchSignedOrderedSumOfArray(const double* d_terms, uint64_t n,
                                          const OrderedSumWorkspace& ws, double* d_out,
                                          cudaStream_t stream) {
  return LaunchOrderedSums<1>(SignedArrayTerms{d_terms}, n, ws, d_out, stream);
}

}  // namespace cuda
}  // namespace s2c
