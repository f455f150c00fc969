// SPDX-License-Identifier: BSD-3-Clause
// The soft double and the terms without f64 arithmetic on the device
// (src/steps/soft_double.h, soft_terms.h). The kernels call every soft
// operation and term; the operations are checked against the x86-64
// instructions on the operand kinds of the host test (soft_double_draws.h),
// the terms against the host's soft forms, which test_soft_terms checks
// against the reference functions. Bits equal. The device code differs from
// the host's in SoftClz and SoftMulWide (__clzll, __umul64hi) and in what
// nvcc makes of the rest. Exit 77 without a GPU.
//
// The same kernels compiled to PTX are what soft_terms_no_f64 reads: no f64
// instruction may appear.
#include <cuda_runtime.h>

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "soft_double_check.h"
#include "soft_double_draws.h"
#include "steps/soft_double.h"
#include "steps/soft_terms.h"
#include "steps/ssim_steps.h"

namespace s2c {

constexpr int kOps = 8;  // results per operand pair

__global__ void SoftOperationsKernel(const uint64_t* a, const uint64_t* b, const int64_t* v,
                                     uint64_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const SoftDouble x = SoftFromBits(a[i]), y = SoftFromBits(b[i]);
  uint64_t* o = out + kOps * i;
  o[0] = SoftToBits(x + y);
  o[1] = SoftToBits(x - y);
  o[2] = SoftToBits(x * y);
  o[3] = SoftToBits(x / y);
  o[4] = SoftToBits(SoftFromFloat(__uint_as_float(static_cast<uint32_t>(a[i]))));
  o[5] = SoftToBits(SoftFromInt64(v[i]));
  o[6] = SoftToBits(SoftAbs(-x));
  o[7] = SoftBelowZero(y);
}

__global__ void SoftPixelTermsKernel(const float* planes, uint64_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* p = planes + 7 * i;
  const SoftPixelTerms t = SoftMapTerms(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
  for (int k = 0; k < 6; ++k) out[6 * i + k] = t.t[k];
}

__global__ void SoftSsimTermKernel(const SsimMoments* m, const int64_t* samplemax, uint64_t* out,
                                   int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = SoftSsimTerm(m[i], samplemax[i]);
}

namespace {

using test::Bits;
using test::Double;

template <class T>
T* ToDevice(const std::vector<T>& host) {
  T* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, sizeof(T) * host.size()));
  CHECK_CUDA(cudaMemcpy(p, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice));
  return p;
}

template <class T>
std::vector<T> FromDevice(const T* device, size_t n) {
  std::vector<T> host(n);
  CHECK_CUDA(cudaMemcpy(host.data(), device, sizeof(T) * n, cudaMemcpyDeviceToHost));
  return host;
}

constexpr int kThreads = 256;
int Blocks(int n) { return (n + kThreads - 1) / kThreads; }

// Each kind of operand pair of the host test, n pairs, on the device.
void TestOperations(int n) {
  for (int kind = 0; kind < test::kPairKinds; ++kind) {
    std::mt19937_64 rng(7000 + kind);
    std::vector<uint64_t> a(n), b(n);
    std::vector<int64_t> v(n);
    for (int i = 0; i < n; ++i) {
      double x = 0.0, y = 0.0;
      test::DrawPair(rng, static_cast<test::PairKind>(kind), &x, &y);
      a[i] = Bits(x);
      b[i] = Bits(y);
      const int bits = 1 + static_cast<int>(rng() % 63);
      v[i] = static_cast<int64_t>(rng() >> (64 - bits)) * ((rng() & 1) ? -1 : 1);
    }
    uint64_t *da = ToDevice(a), *db = ToDevice(b), *dout = nullptr;
    int64_t* dv = ToDevice(v);
    CHECK_CUDA(cudaMalloc(&dout, sizeof(uint64_t) * kOps * n));
    SoftOperationsKernel<<<Blocks(n), kThreads>>>(da, db, dv, dout, n);
    CHECK_CUDA(cudaGetLastError());
    const std::vector<uint64_t> out = FromDevice(dout, static_cast<size_t>(kOps) * n);
    for (int i = 0; i < n; ++i) {
      const double x = Double(a[i]), y = Double(b[i]);
      const uint64_t want[kOps] = {
          Bits(test::HwAdd(x, y)),
          Bits(test::HwSub(x, y)),
          Bits(test::HwMul(x, y)),
          Bits(test::HwDiv(x, y)),
          Bits(test::HwFromFloat(test::Float(static_cast<uint32_t>(a[i])))),
          Bits(test::HwFromInt64(v[i])),
          Bits(std::fabs(x)),
          y < 0.0};
      static const char* const names[kOps] = {"add",        "sub",        "mul",      "div",
                                              "from float", "from int64", "fabs(-x)", "y < 0"};
      for (int k = 0; k < kOps; ++k) {
        S2C_CHECK_SAME(out[kOps * i + k], want[k], "%s, %s: a=0x%016" PRIx64 " b=0x%016" PRIx64
                       " v=%" PRId64, names[k], test::kPairKindNames[kind], a[i], b[i], v[i]);
      }
    }
    CHECK_CUDA(cudaFree(da));
    CHECK_CUDA(cudaFree(db));
    CHECK_CUDA(cudaFree(dv));
    CHECK_CUDA(cudaFree(dout));
  }
  std::printf("operations: %d pairs of each of %d kinds\n", n, test::kPairKinds);
}

// Plane values of three kinds (XYB-like windows, identical windows, every
// input across 60 binades), finite and far from f32 overflow, so that the
// f32 steps are the host's too.
void TestPixelTerms(int n) {
  std::mt19937_64 rng(7100);
  auto u = [&] { return static_cast<float>(rng() >> 40) * 0x1p-24f; };
  std::vector<float> planes(static_cast<size_t>(7) * n);
  for (int i = 0; i < n; ++i) {
    float* p = &planes[static_cast<size_t>(7) * i];
    switch (i % 3) {
      case 0: {
        p[0] = u();
        p[1] = p[0] + 0.2f * u() - 0.1f;
        p[2] = p[0] + 0.1f * u() - 0.05f;
        p[3] = p[1] + 0.04f * u() - 0.02f;
        p[4] = p[1] * p[1] + 0.02f * u();
        p[5] = p[3] * p[3] + 0.02f * u();
        p[6] = p[1] * p[3] + 0.02f * u() - 0.01f;
        break;
      }
      case 1:
        p[0] = p[2] = u();
        p[1] = p[3] = u();
        p[4] = p[5] = p[6] = p[1] * p[1] + 0.01f * u();
        break;
      default:
        for (int k = 0; k < 7; ++k) p[k] = test::DrawFloat(rng, -60, 0);
        break;
    }
  }
  float* dplanes = ToDevice(planes);
  uint64_t* dout = nullptr;
  CHECK_CUDA(cudaMalloc(&dout, sizeof(uint64_t) * 6 * n));
  SoftPixelTermsKernel<<<Blocks(n), kThreads>>>(dplanes, dout, n);
  CHECK_CUDA(cudaGetLastError());
  const std::vector<uint64_t> out = FromDevice(dout, static_cast<size_t>(6) * n);
  for (int i = 0; i < n; ++i) {
    const float* p = &planes[static_cast<size_t>(7) * i];
    const SoftPixelTerms want = SoftMapTerms(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    for (int k = 0; k < 6; ++k) {
      S2C_CHECK_SAME(out[6 * i + k], want.t[k], "SoftMapTerms term %d, planes %a %a %a %a %a %a %a",
                     k, p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    }
  }
  CHECK_CUDA(cudaFree(dplanes));
  CHECK_CUDA(cudaFree(dout));
  std::printf("pixel terms: %d pixels\n", n);
}

// Moments anywhere in the pipeline's range (samples of 8 to 16 bits, w up
// to 2^16), and any int64 moments one time in four.
void TestSsimTerm(int n) {
  std::mt19937_64 rng(7200);
  std::vector<SsimMoments> m(n);
  std::vector<int64_t> samplemax(n);
  auto up_to = [&](int64_t top) {
    return static_cast<int64_t>(rng() % (static_cast<uint64_t>(top) + 1));
  };
  for (int i = 0; i < n; ++i) {
    SsimMoments& s = m[i];
    if (i % 4 == 3) {
      int64_t* v[] = {&s.mux, &s.muy, &s.x2, &s.xy, &s.y2, &s.w};
      for (int64_t* x : v) {
        const int bits = 1 + static_cast<int>(rng() % 63);
        *x = static_cast<int64_t>(rng() >> (64 - bits)) * ((rng() & 1) ? -1 : 1);
      }
      samplemax[i] = up_to(int64_t{1} << 31);
      continue;
    }
    const int depths[] = {8, 10, 12, 16};
    const int64_t max = (int64_t{1} << depths[rng() % 4]) - 1;
    samplemax[i] = max;
    s.w = 1 + up_to(65535);
    s.mux = up_to(s.w * max);
    s.muy = up_to(s.w * max);
    const int64_t top = s.w * max * max;
    s.x2 = s.mux / s.w * s.mux + up_to(top / 2);
    s.y2 = s.muy / s.w * s.muy + up_to(top / 2);
    s.xy = up_to(top);
  }
  SsimMoments* dm = ToDevice(m);
  int64_t* dmax = ToDevice(samplemax);
  uint64_t* dout = nullptr;
  CHECK_CUDA(cudaMalloc(&dout, sizeof(uint64_t) * n));
  SoftSsimTermKernel<<<Blocks(n), kThreads>>>(dm, dmax, dout, n);
  CHECK_CUDA(cudaGetLastError());
  const std::vector<uint64_t> out = FromDevice(dout, n);
  for (int i = 0; i < n; ++i) {
    S2C_CHECK_SAME(out[i], SoftSsimTerm(m[i], samplemax[i]),
                   "SoftSsimTerm: mux=%" PRId64 " muy=%" PRId64 " x2=%" PRId64 " xy=%" PRId64
                   " y2=%" PRId64 " w=%" PRId64 " samplemax=%" PRId64,
                   m[i].mux, m[i].muy, m[i].x2, m[i].xy, m[i].y2, m[i].w, samplemax[i]);
  }
  CHECK_CUDA(cudaFree(dm));
  CHECK_CUDA(cudaFree(dmax));
  CHECK_CUDA(cudaFree(dout));
  std::printf("SSIM terms: %d moments\n", n);
}

}  // namespace
}  // namespace s2c

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    return s2c::test::Skip("no CUDA device");
  }
  s2c::TestOperations(1 << 20);
  s2c::TestPixelTerms(1 << 20);
  s2c::TestSsimTerm(1 << 20);
  return s2c::test::Finish();
}
