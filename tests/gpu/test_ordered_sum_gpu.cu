// SPDX-License-Identifier: BSD-3-Clause
// Device test of the exact ordered sum: on the host test's fixtures, the
// kernels return the bits of the CPU's loop, for one sum of an array and for
// three sums at once from a functor, with launches on two streams; under
// the rule for terms clamped at zero (ClampedTerms) on every fixture; with
// advice given by the caller, right or wrong; under the signed rule
// (src/steps/ordered_sum_signed.h) on every fixture, the mixed-sign ones
// included; and with four launches walked by one kernel. --quick leaves out the long inputs (for
// compute-sanitizer runs). With S2C_TEST_DEVICE_FP64=integer the kernels
// take the terms as bit patterns (TermsAsBits, src/steps/ordered_sum_bits.h:
// the CUDA backend's integer path, without f64 arithmetic) and the advice as
// floats.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <vector>

#include "check.h"
#include "cuda_check.h"
#include "device_fp64_env.h"
#include "ordered_sum.cuh"
#include "ordered_sum_fixtures.h"
#include "ordered_sum_launch.h"

namespace s2c {
namespace {

// The terms as bit patterns (the integer path's TermsAsBits), not doubles.
bool g_bits = false;

// Three sums of three arrays in one launch, under the rule a functor chooses
// (SumRule): NonNegativeTerms, or ClampedTerms with kClamped, or
// SignedTerms with kSigned.
template <bool kTermsSigned, bool kTermsClamped = false, class TermT = double>
struct ThreeArraysOf {
  static constexpr bool kSigned = kTermsSigned;
  static constexpr bool kClamped = kTermsClamped;
  using Term = TermT;
  template <class Other>
  using WithTerm = ThreeArraysOf<kTermsSigned, kTermsClamped, Other>;
  const Term* a;
  const Term* b;
  const Term* c;
  __device__ void operator()(uint64_t i, Term (&t)[3]) const {
    t[0] = a[i];
    t[1] = b[i];
    t[2] = c[i];
  }
};

// LaunchOrderedSumOfArray and LaunchSignedOrderedSumOfArray with the
// doubles' bit patterns as the terms.
template <bool kSigned>
cudaError_t LaunchBitsArray(const double* d_terms, uint64_t n, const cuda::OrderedSumWorkspace& ws,
                            double* d_out, cudaStream_t stream) {
  return cuda::LaunchOrderedSums<1>(
      cuda::ArrayTermsOf<kSigned, uint64_t>{reinterpret_cast<const uint64_t*>(d_terms)}, n, ws,
      d_out, stream);
}

template <class Three>
cudaError_t LaunchThree(const double* a, const double* b, const double* c, uint64_t n,
                        const cuda::OrderedSumWorkspace& ws, double* d_out, cudaStream_t stream) {
  if (!g_bits) return cuda::LaunchOrderedSums<3>(Three{a, b, c}, n, ws, d_out, stream);
  using Bits = typename Three::template WithTerm<uint64_t>;
  auto bits = [](const double* p) { return reinterpret_cast<const uint64_t*>(p); };
  return cuda::LaunchOrderedSums<3>(Bits{bits(a), bits(b), bits(c)}, n, ws, d_out, stream);
}

struct DeviceArray {
  double* p = nullptr;
  explicit DeviceArray(const std::vector<double>& x) {
    CHECK_CUDA(cudaMalloc(&p, sizeof(double) * (x.size() + 1)));
    CHECK_CUDA(cudaMemcpy(p, x.data(), sizeof(double) * x.size(), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() { cudaFree(p); }
};

// Array sums of every fixture of `kinds` under `launch` (the plain-array
// launcher of one rule), two seeds on two streams with their own
// workspaces, against the loop; `label` names the rule in the messages.
template <class Launch>
int CheckArraySums(const std::vector<test::TermKind>& kinds, const std::vector<size_t>& lengths,
                   Launch launch, uint64_t seed, const char* label,
                   cuda::OrderedSumWorkspace ws[2], cudaStream_t streams[2], double* d_out) {
  int cases = 0;
  for (test::TermKind kind : kinds) {
    for (size_t n : lengths) {
      const std::vector<double> x = test::MakeTerms(kind, n, seed);
      const std::vector<double> y = test::MakeTerms(kind, n, seed + 1);
      DeviceArray dx(x), dy(y);
      CHECK_CUDA(launch(dx.p, n, ws[0], d_out, streams[0]));
      CHECK_CUDA(launch(dy.p, n, ws[1], d_out + 1, streams[1]));
      double got[2];
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
      for (int i = 0; i < 2; ++i) {
        S2C_CHECK_SAME(got[i], test::LoopSum((i ? y : x).data(), n), "%s == loop (%s, n=%zu)",
                       label, test::TermKindName(kind), n);
      }
      cases += 2;
    }
  }
  return cases;
}

// Three sums at once from one functor (Three: a ThreeArraysOf), of the
// fixtures `kinds`, against the loops.
template <class Three>
int CheckThreeAtOnce(const test::TermKind (&kinds)[3], const std::vector<size_t>& lengths,
                     uint64_t seed, const char* label, cuda::OrderedSumWorkspace ws,
                     cudaStream_t stream, double* d_out) {
  int cases = 0;
  for (size_t n : lengths) {
    const std::vector<double> a = test::MakeTerms(kinds[0], n, seed);
    const std::vector<double> b = test::MakeTerms(kinds[1], n, seed);
    const std::vector<double> c = test::MakeTerms(kinds[2], n, seed);
    DeviceArray da(a), db(b), dc(c);
    CHECK_CUDA(LaunchThree<Three>(da.p, db.p, dc.p, n, ws, d_out, stream));
    double got[3];
    CHECK_CUDA(cudaMemcpyAsync(got, d_out, sizeof got, cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    const std::vector<double>* terms[3] = {&a, &b, &c};
    for (int i = 0; i < 3; ++i) {
      S2C_CHECK_SAME(got[i], test::LoopSum(terms[i]->data(), n), "%s == loops (sum %d, n=%zu)",
                     label, i, n);
    }
    cases += 3;
  }
  return cases;
}

void TestNonNegative(const std::vector<size_t>& lengths, cuda::OrderedSumWorkspace ws[2],
                     cudaStream_t streams[2], double* d_out) {
  const std::vector<test::TermKind> kinds(std::begin(test::kAllTermKinds),
                                          std::end(test::kAllTermKinds));
  const int arrays =
      CheckArraySums(kinds, lengths, g_bits ? LaunchBitsArray<false> : cuda::LaunchOrderedSumOfArray,
                     1, "array sum", ws, streams, d_out);
  std::printf("array sums: %d cases\n", arrays);
  const test::TermKind three[3] = {test::TermKind::kTies, test::TermKind::kQuartic,
                                   test::TermKind::kZeroIslands};
  const int at_once = CheckThreeAtOnce<ThreeArraysOf<false>>(
      three, lengths, 3, "three sums at once", ws[0], streams[0], d_out);
  std::printf("three sums at once: %d cases\n", at_once);
}

// Terms clamped at zero (ClampedTerms, the CUDA backend's rule): every
// fixture, three at a time from one functor. None has a negative term.
void TestClamped(const std::vector<size_t>& lengths, cuda::OrderedSumWorkspace ws,
                 cudaStream_t stream, double* d_out) {
  constexpr size_t kKinds = std::size(test::kAllTermKinds);
  int cases = 0;
  for (size_t first = 0; first < kKinds; first += 3) {
    const test::TermKind three[3] = {test::kAllTermKinds[first],
                                     test::kAllTermKinds[(first + 1) % kKinds],
                                     test::kAllTermKinds[(first + 2) % kKinds]};
    cases += CheckThreeAtOnce<ThreeArraysOf<false, true>>(three, lengths, 11, "clamped sums",
                                                          ws, stream, d_out);
  }
  std::printf("terms clamped at zero: %d cases\n", cases);
}

// The signed rule: every fixture, the non-negative ones too, as one sum on
// two streams, and the mixed-sign ones three at a time from one functor.
void TestSigned(const std::vector<size_t>& lengths, cuda::OrderedSumWorkspace ws[2],
                cudaStream_t streams[2], double* d_out) {
  std::vector<test::TermKind> kinds(std::begin(test::kAllTermKinds), std::end(test::kAllTermKinds));
  kinds.insert(kinds.end(), std::begin(test::kSignedTermKinds), std::end(test::kSignedTermKinds));
  const test::TermKind three[3] = {test::TermKind::kSsimTerms, test::TermKind::kSignedTies,
                                   test::TermKind::kCrossingZero};
  const int cases =
      CheckArraySums(kinds, lengths,
                     g_bits ? LaunchBitsArray<true> : cuda::LaunchSignedOrderedSumOfArray, 5,
                     "signed array sum", ws, streams, d_out) +
      CheckThreeAtOnce<ThreeArraysOf<true>>(three, lengths, 7, "three signed sums at once", ws[0],
                                            streams[0], d_out);
  std::printf("signed sums: %d cases\n", cases);
}

// Advice given by the caller (LaunchOrderedSumsAdvised), as the backend's
// vertical pass gives it: the chunks' sums added atomically, in whatever
// order the threads run; the same skewed by 2^-12 up and down (binades
// planned wrong near their edges); and none (zero everywhere). Any advice
// must give the loop's bits: it only guesses, the walk checks.
enum class AdviceKind { kAtomic, kSkewed, kZero };
const char* AdviceName(AdviceKind k) {
  return k == AdviceKind::kAtomic ? "atomic" : k == AdviceKind::kSkewed ? "skewed" : "zero";
}

// The advice of the terms' arithmetic (Arith: TermsAsDoubles or
// TermsAsBits), whose advice is a double or a float.
template <class Arith>
__global__ void AddChunkSumsKernel(const typename Arith::Term* x, uint64_t n,
                                   typename Arith::Advice* advice) {
  const uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) atomicAdd(&advice[i / kSumChunkTerms], Arith::AdviceOf(x[i]));
}

template <class Advice>
__global__ void SkewKernel(Advice* advice, uint64_t chunks) {
  const uint64_t c = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (c < chunks) advice[c] *= c % 2 ? Advice(1.0 + 0x1p-12) : Advice(1.0 - 0x1p-12);
}

// The advice of `terms` (n of them) into the workspace, as `advice` says,
// then the other passes, on `stream`.
template <class Arith>
void LaunchWithAdvice(AdviceKind advice, const double* terms, uint64_t n,
                      const cuda::OrderedSumWorkspace& ws, double* d_out, cudaStream_t stream) {
  using Advice = typename Arith::Advice;
  using Term = typename Arith::Term;
  const Term* t = reinterpret_cast<const Term*>(terms);
  const uint64_t chunks = cuda::OrderedSumChunks(n);
  Advice* d_advice = cuda::OrderedSumAdvice<Advice>(ws);
  CHECK_CUDA(cudaMemsetAsync(d_advice, 0, sizeof(Advice) * chunks, stream));
  if (n > 0 && advice != AdviceKind::kZero) {  // (a grid of no blocks is an error)
    AddChunkSumsKernel<Arith>
        <<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(t, n, d_advice);
    if (advice == AdviceKind::kSkewed) {
      SkewKernel<<<static_cast<unsigned>((chunks + 255) / 256), 256, 0, stream>>>(d_advice,
                                                                                 chunks);
    }
  }
  CHECK_CUDA(
      cuda::LaunchOrderedSumsAdvised<1>(cuda::ArrayTermsOf<false, Term>{t}, n, ws, d_out, stream));
}

void TestGivenAdvice(const std::vector<size_t>& lengths, cuda::OrderedSumWorkspace ws,
                     cudaStream_t stream, double* d_out) {
  int cases = 0;
  for (AdviceKind advice : {AdviceKind::kAtomic, AdviceKind::kSkewed, AdviceKind::kZero}) {
    for (test::TermKind kind : test::kAllTermKinds) {
      for (size_t n : lengths) {
        const std::vector<double> x = test::MakeTerms(kind, n, 4);
        DeviceArray terms(x);
        if (g_bits) {
          LaunchWithAdvice<TermsAsBits>(advice, terms.p, n, ws, d_out, stream);
        } else {
          LaunchWithAdvice<TermsAsDoubles>(advice, terms.p, n, ws, d_out, stream);
        }
        double got;
        CHECK_CUDA(cudaMemcpyAsync(&got, d_out, sizeof got, cudaMemcpyDeviceToHost, stream));
        CHECK_CUDA(cudaStreamSynchronize(stream));
        S2C_CHECK_SAME(got, test::LoopSum(x.data(), n), "sum with %s advice == loop (%s, n=%zu)",
                       AdviceName(advice), test::TermKindName(kind), n);
        ++cases;
      }
    }
  }
  std::printf("advice given by the caller: %d cases\n", cases);
}

// Several launches walked by one kernel (LaunchOrderedSumWalks), as the
// backend walks its scales: each launch's advice and chunk passes on the
// stream first, then one walk for all of them; every sum must be its loop's.
// Each group takes kWalked launches of different fixtures and lengths, in
// their own workspaces.
template <class Arith>
int CheckWalkedTogether(const std::vector<size_t>& lengths, cudaStream_t stream) {
  using Term = typename Arith::Term;
  using Terms = cuda::ArrayTermsOf<false, Term>;
  constexpr int kWalked = 4;
  const size_t kinds = std::size(test::kAllTermKinds);
  int cases = 0;
  for (size_t first = 0; first < kinds * lengths.size(); first += kWalked) {
    std::vector<double> x[kWalked];
    std::unique_ptr<DeviceArray> terms[kWalked];
    cuda::OrderedSumWorkspace ws[kWalked];
    cuda::OrderedSumsToWalk<Terms> sums[kWalked];
    double* d_out = nullptr;
    CHECK_CUDA(cudaMalloc(&d_out, sizeof(double) * kWalked));
    for (int j = 0; j < kWalked; ++j) {
      const size_t at = (first + j) % (kinds * lengths.size());
      // Lengths from the longest down, so that no group has only short ones.
      const size_t n = lengths[lengths.size() - 1 - at % lengths.size()];
      x[j] = test::MakeTerms(test::kAllTermKinds[at / lengths.size()], n, 9);
      terms[j] = std::make_unique<DeviceArray>(x[j]);
      ws[j].bytes = cuda::OrderedSumWorkspaceBytes(n, 1, false);
      CHECK_CUDA(cudaMalloc(&ws[j].data, ws[j].bytes));
      const Term* t = reinterpret_cast<const Term*>(terms[j]->p);
      using Advice = typename Arith::Advice;
      Advice* d_advice = cuda::OrderedSumAdvice<Advice>(ws[j]);
      CHECK_CUDA(cudaMemsetAsync(d_advice, 0, sizeof(Advice) * cuda::OrderedSumChunks(n), stream));
      AddChunkSumsKernel<Arith>
          <<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(t, n, d_advice);
      CHECK_CUDA(cuda::LaunchOrderedSumChunks<1>(Terms{t}, n, ws[j], stream));
      sums[j] = {Terms{t}, n, ws[j], d_out + j};
    }
    CHECK_CUDA((cuda::LaunchOrderedSumWalks<1, kWalked>(sums, kWalked, stream)));
    double got[kWalked];
    CHECK_CUDA(cudaMemcpyAsync(got, d_out, sizeof got, cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    for (int j = 0; j < kWalked; ++j) {
      S2C_CHECK_SAME(got[j], test::LoopSum(x[j].data(), x[j].size()),
                     "walked with %d others == loop (launch %d, n=%zu)", kWalked - 1, j,
                     x[j].size());
      cudaFree(ws[j].data);
    }
    cudaFree(d_out);
    cases += kWalked;
  }
  return cases;
}

void TestWalkedTogether(const std::vector<size_t>& lengths, cudaStream_t stream) {
  std::vector<size_t> nonzero;
  for (size_t n : lengths) {
    if (n > 0) nonzero.push_back(n);  // a walked launch has terms
  }
  const int cases = g_bits ? CheckWalkedTogether<TermsAsBits>(nonzero, stream)
                           : CheckWalkedTogether<TermsAsDoubles>(nonzero, stream);
  std::printf("launches walked together: %d cases\n", cases);
}

}  // namespace
}  // namespace s2c

int main(int argc, char** argv) {
  using namespace s2c;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    return test::Skip("no CUDA device");
  }
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  std::vector<size_t> lengths(std::begin(test::kFixtureLengths), std::end(test::kFixtureLengths));
  if (!quick) {
    lengths.push_back(1100 * 1024 + 5);
    lengths.push_back(3840 * 2160);
  }
  const size_t longest = lengths.back();
  cudaStream_t streams[2];
  s2c::cuda::OrderedSumWorkspace ws[2];
  for (int i = 0; i < 2; ++i) {
    CHECK_CUDA(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
    ws[i].bytes = s2c::cuda::OrderedSumWorkspaceBytes(longest, 3, true);  // either rule
    CHECK_CUDA(cudaMalloc(&ws[i].data, ws[i].bytes));
  }
  g_bits = test::DeviceFp64FromEnv() == DeviceFp64::kInteger;
  std::printf("terms as %s\n", g_bits ? "bit patterns (the integer path)" : "doubles");
  double* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, sizeof(double) * 4));
  TestNonNegative(lengths, ws, streams, d_out);
  TestClamped(lengths, ws[0], streams[0], d_out);
  TestGivenAdvice(lengths, ws[1], streams[1], d_out);
  TestSigned(lengths, ws, streams, d_out);
  TestWalkedTogether(lengths, streams[0]);
  for (int i = 0; i < 2; ++i) {
    cudaFree(ws[i].data);
    cudaStreamDestroy(streams[i]);
  }
  cudaFree(d_out);
  return test::Finish();
}
