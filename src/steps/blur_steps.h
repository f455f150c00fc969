// SPDX-License-Identifier: BSD-3-Clause
// The two passes of libjxl's recursive Gaussian, per line, as S2C_HD code for
// the CPU reference and the CUDA kernels. The filter's poles lie on the unit
// circle, so rounding error grows along a line and any change in the order of
// operations shows in the score: lines are processed in parallel, never
// pieces of one line.
#ifndef S2C_BLUR_STEPS_H_
#define S2C_BLUR_STEPS_H_

#include "steps/hd.h"
#include "steps/pixel_steps.h"
#include "steps/recursive_gaussian.h"

namespace s2c {

// State of one pole of the horizontal pass along one line: its last two
// outputs. The three poles never read each other's state; only their outputs
// are added (SumPoles).
struct PoleState {
  float prev = 0.0f;
  float prev2 = 0.0f;
};
struct HorizontalState {
  PoleState pole[3];
};

// The outputs of the three poles at one position, added in libjxl's order.
S2C_HD float SumPoles(float o0, float o1, float o2) { return o0 + (o1 + o2); }

// Pole k's output of the plain recursion in libjxl's scalar operation order;
// `sum` is in(i - N - 1) + in(i + N - 1), zero outside the line.
S2C_HD float HorizontalScalarPole(const RecursiveGaussian& rg, int k, float sum,
                                  PoleState& st) {
  float o = sum * rg.mul_in[4 * k];
  o = Fma(rg.mul_prev2[4 * k], st.prev2, o);
  st.prev2 = st.prev;
  o = Fma(rg.mul_prev[4 * k], st.prev, o);
  st.prev = o;
  return o;
}

// Pole k's four outputs n .. n + 3 of libjxl's 4-lane block form; s[j] is
// in(n + j - N - 1) + in(n + j + N - 1).
S2C_HD void HorizontalBlockPole(const RecursiveGaussian& rg, int k, const float s[4],
                                PoleState& st, float o[4]) {
  const float* mi = &rg.mul_in[4 * k];
  for (int j = 0; j < 4; ++j) {
    // libjxl broadcasts s[0..3] against shifted copies of mul_in; the
    // lanes where the shifted multiplier is zero add an exact zero.
    float t = s[0] * mi[j];
    if (j >= 1) t = Fma(mi[j - 1], s[1], t);
    if (j >= 2) t = Fma(mi[j - 2], s[2], t);
    if (j >= 3) t = Fma(mi[j - 3], s[3], t);
    t = Fma(rg.mul_prev2[4 * k + j], st.prev2, t);
    t = Fma(rg.mul_prev[4 * k + j], st.prev, t);
    o[j] = t;
  }
  st.prev2 = o[2];
  st.prev = o[3];
}

// The steps of the three poles at one position, their outputs summed: the
// line's output.
struct AllPoles {
  const RecursiveGaussian& rg;
  HorizontalState& st;
  S2C_HD float Scalar(float sum) const {
    float o[3];
    for (int k = 0; k < 3; ++k) o[k] = HorizontalScalarPole(rg, k, sum, st.pole[k]);
    return SumPoles(o[0], o[1], o[2]);
  }
  S2C_HD void Block(const float s[4], float out[4]) const {
    float o[3][4];
    for (int k = 0; k < 3; ++k) HorizontalBlockPole(rg, k, s, st.pole[k], o[k]);
    for (int j = 0; j < 4; ++j) out[j] = SumPoles(o[0][j], o[1][j], o[2][j]);
  }
};

// Which step libjxl takes at each position of a line of `len` samples:
// scalar steps from n = -N + 1 up to the first aligned block (first_block)
// and from block_end on, blocks of 4 starting at first_block,
// first_block + 4, ... below block_end.
struct HorizontalSchedule {
  int first_block;  // ((N + 1 + 3) / 4) * 4
  int block_end;    // first position past the last block (>= first_block)
  S2C_HD HorizontalSchedule(int radius, int len)
      : first_block(((radius + 1 + 3) / 4) * 4), block_end(first_block) {
    // Blocks start at n while n < len - N + 1 - 3.
    const int limit = len - radius + 1 - 3;
    if (limit > first_block) block_end = first_block + (limit - first_block + 3) / 4 * 4;
  }
  S2C_HD bool IsBlock(int n) const { return n >= first_block && n < block_end; }
};

// The step libjxl takes at position n of a line of `len` samples: a block
// of 4 outputs where the schedule has one, else a scalar step, of the
// three poles in `poles`. Reads samples through in(i)
// (0 <= i < len; zero outside the line), writes the outputs at positions
// >= 0 through out(i, v), and returns the next position. `radius` is
// rg.radius, given apart so that a kernel can pass it as a constant.
template <class In, class Out>
S2C_HD int HorizontalStepAt(const AllPoles& poles, int radius, const HorizontalSchedule& sched,
                            const In& in, const Out& out, int len, int n) {
  const int N = radius;
  if (sched.IsBlock(n)) {
    float s[4], v[4];
    for (int j = 0; j < 4; ++j) s[j] = in(n + j - N - 1) + in(n + j + N - 1);
    poles.Block(s, v);
    for (int j = 0; j < 4; ++j) out(n + j, v[j]);
    return n + 4;
  }
  const int l = n - N - 1, r = n + N - 1;
  const float sum = (l >= 0 ? in(l) : 0.0f) + (r < len ? in(r) : 0.0f);
  const float v = poles.Scalar(sum);
  if (n >= 0) out(n, v);
  return n + 1;
}

// Horizontal pass over one line of `len` samples, reproducing libjxl's
// FastGaussian1D on 4-lane vectors (its AVX2 build): scalar steps up to the
// first aligned block and in the tail, blocks of 4 outputs in between.
// Samples outside the line are zero; the state starts at n = -N + 1.
template <class In, class Out>
S2C_HD void BlurLineHorizontal(const RecursiveGaussian& rg, const In& in,
                               const Out& out, int len) {
  const HorizontalSchedule sched(rg.radius, len);
  HorizontalState st;
  const AllPoles poles{rg, st};
  for (int n = -rg.radius + 1; n < len;) {
    n = HorizontalStepAt(poles, rg.radius, sched, in, out, len, n);
  }
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
