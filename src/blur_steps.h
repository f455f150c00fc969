// SPDX-License-Identifier: BSD-3-Clause
// The two passes of libjxl's recursive Gaussian, per line, as S2C_HD code for
// the CPU reference and the CUDA kernels. The filter's poles lie on the unit
// circle, so rounding error grows along a line and any change in the order of
// operations shows in the score: lines are processed in parallel, never
// pieces of one line.
#ifndef S2C_BLUR_STEPS_H_
#define S2C_BLUR_STEPS_H_

#include "blur_coeffs.h"
#include "hd.h"
#include "pixel_steps.h"

namespace s2c {

// Horizontal pass over one line of `len` samples, reproducing libjxl's
// FastGaussian1D on 4-lane vectors (its AVX2 build): scalar steps up to the
// first aligned block and in the tail, blocks of 4 outputs in between.
// Samples outside the line are zero; the state starts at n = -N + 1.
// `in(i)` reads sample i (0 <= i < len), `out(i, v)` writes output i.
template <class In, class Out>
S2C_HD void BlurLineHorizontal(const RecursiveGaussian& rg, const In& in,
                               const Out& out, int len) {
  const int N = rg.radius;
  float prev[3] = {0.0f, 0.0f, 0.0f};
  float prev2[3] = {0.0f, 0.0f, 0.0f};
  int n = -N + 1;

  // One output from the plain recursion in libjxl's scalar operation order.
  auto scalar_step = [&](int i) {
    const int l = i - N - 1, r = i + N - 1;
    const float sum = (l >= 0 ? in(l) : 0.0f) + (r < len ? in(r) : 0.0f);
    float o[3];
    for (int k = 0; k < 3; ++k) {
      o[k] = sum * rg.mul_in[4 * k];
      o[k] = Fma(rg.mul_prev2[4 * k], prev2[k], o[k]);
      prev2[k] = prev[k];
      o[k] = Fma(rg.mul_prev[4 * k], prev[k], o[k]);
      prev[k] = o[k];
    }
    if (i >= 0) out(i, o[0] + (o[1] + o[2]));
  };

  const int first_aligned = ((N + 1 + 3) / 4) * 4;
  for (; n < first_aligned && n < len; ++n) scalar_step(n);
  for (; n < len - N + 1 - 3; n += 4) {
    float s[4];
    for (int j = 0; j < 4; ++j) s[j] = in(n + j - N - 1) + in(n + j + N - 1);
    float o[3][4];
    for (int k = 0; k < 3; ++k) {
      const float* mi = &rg.mul_in[4 * k];
      for (int j = 0; j < 4; ++j) {
        // libjxl broadcasts s[0..3] against shifted copies of mul_in; the
        // lanes where the shifted multiplier is zero add an exact zero.
        float t = s[0] * mi[j];
        if (j >= 1) t = Fma(mi[j - 1], s[1], t);
        if (j >= 2) t = Fma(mi[j - 2], s[2], t);
        if (j >= 3) t = Fma(mi[j - 3], s[3], t);
        t = Fma(rg.mul_prev2[4 * k + j], prev2[k], t);
        t = Fma(rg.mul_prev[4 * k + j], prev[k], t);
        o[k][j] = t;
      }
      prev2[k] = o[k][2];
      prev[k] = o[k][3];
    }
    for (int j = 0; j < 4; ++j) out(n + j, o[0][j] + (o[1][j] + o[2][j]));
  }
  for (; n < len; ++n) scalar_step(n);
}

// State of the vertical pass for L adjacent columns: the last two outputs
// per pole and column. Columns are independent, so the CPU steps 16 at a time
// (the compiler vectorises the lane loops) and a CUDA thread steps one.
template <int L>
struct VerticalLanes {
  float y1[3][L] = {};
  float y2[3][L] = {};
};

// One step of the vertical pass for L columns: `sum[j]` is the sum of the
// inputs N + 1 rows above and N - 1 rows below the output row in column j
// (zero outside the image). libjxl's order: y = fma(n2, sum, -fma(d1, y1,
// y2)) per pole, i.e. MulAdd(n2, sum, NegMulSub(d1, y1, y2)); output
// o1 + (o3 + o5).
template <int L>
S2C_HD void BlurVerticalStep(const RecursiveGaussian& rg, const float* sum,
                             VerticalLanes<L>& st, float* out) {
  float o[3][L];
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < L; ++j) {
      o[k][j] = Fma(rg.n2[k], sum[j], Fma(-rg.d1[k], st.y1[k][j], -st.y2[k][j]));
      st.y2[k][j] = st.y1[k][j];
      st.y1[k][j] = o[k][j];
    }
  }
  for (int j = 0; j < L; ++j) out[j] = o[0][j] + (o[1][j] + o[2][j]);
}

// The single-column form.
using VerticalState = VerticalLanes<1>;
S2C_HD float BlurVerticalStep(const RecursiveGaussian& rg, float sum,
                              VerticalState& st) {
  float out;
  BlurVerticalStep<1>(rg, &sum, st, &out);
  return out;
}

}  // namespace s2c

#endif  // S2C_BLUR_STEPS_H_
