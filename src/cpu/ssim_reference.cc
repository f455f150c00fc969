// SPDX-License-Identifier: BSD-3-Clause
#include "cpu/ssim_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "frontend.h"
#include "ssim_planes.h"
#include "steps/frontend_steps.h"
#include "steps/ssim_steps.h"
#include "thread_pool.h"

namespace s2c {

namespace {

// Output rows per round of the parallel plane sum.
constexpr int kSsimBlockRows = 32;

// One plane's sums. Rounds of kSsimBlockRows output rows: the horizontal
// window moments of the input rows they need (each input row once, in a
// ring that holds a round's span), then each output pixel's vertical window,
// term and weight, all on the pool; then the terms and the weights are added
// in raster order on this thread. Integer moments are the same numbers
// whoever computes them, so the sums are those of dump_ssim's single loop.
// Edges truncate the windows.
template <class Load>
SsimSums SumPlane(ThreadPool* pool, const SsimPlaneGeometry& g, int64_t samplemax,
                  const Load& load) {
  const int w = g.width, h = g.height;
  const std::vector<int>& vwin = g.vwin;
  const std::vector<int>& hwin = g.hwin;
  const int voffs = static_cast<int>(vwin.size()) / 2;
  const int hoffs = static_cast<int>(hwin.size()) / 2;
  const int hsize = static_cast<int>(hwin.size());
  const int rows = kSsimBlockRows + 2 * voffs;  // the ring: one round's input rows
  std::vector<SsimMoments> ring(static_cast<size_t>(rows) * w);
  std::vector<double> terms(static_cast<size_t>(kSsimBlockRows) * w);
  std::vector<double> weights(terms.size());
  SsimSums sums;
  int next_row = 0;  // input rows below this have their horizontal moments
  for (int out0 = 0; out0 < h; out0 += kSsimBlockRows) {
    const int out1 = std::min(h, out0 + kSsimBlockRows);
    const int in1 = std::min(h, out1 + voffs);
    const int first = next_row;
    pool->Run(in1 - first, [&](int i) {
      const int y = first + i;
      SsimMoments* line = &ring[static_cast<size_t>(y % rows) * w];
      for (int x = 0; x < w; ++x) {
        SsimMoments m;
        const int k_min = std::max(0, hoffs - x);
        const int k_max = std::min(hsize, w - x + hoffs);
        for (int k = k_min; k < k_max; ++k) {
          int64_t s = 0, d = 0;
          load(x - hoffs + k, y, &s, &d);
          SsimAccumulate(&m, hwin[k], s, d);
        }
        line[x] = m;
      }
    });
    next_row = in1;
    pool->Run(out1 - out0, [&](int i) {
      const int out = out0 + i;
      const int r_min = std::max(0, out - voffs);
      const int r_max = std::min(h - 1, out + voffs);
      for (int x = 0; x < w; ++x) {
        SsimMoments m;
        for (int r = r_min; r <= r_max; ++r) {
          SsimAccumulate(&m, vwin[r - out + voffs], ring[static_cast<size_t>(r % rows) * w + x]);
        }
        terms[static_cast<size_t>(i) * w + x] = SsimTerm(m, samplemax);
        weights[static_cast<size_t>(i) * w + x] = static_cast<double>(m.w);
      }
    });
    for (size_t i = 0; i < static_cast<size_t>(out1 - out0) * w; ++i) {
      sums.terms += terms[i];
      sums.weights += weights[i];
    }
  }
  return sums;
}

int VerticalHalfWindow(int w, int h) {
  return static_cast<int>(SsimWindow(h * (1.5 / 256), std::min(w, h)).size()) / 2;
}

}  // namespace

double SsimWorkspaceBytes(int width, int height) {
  const double rows = kSsimBlockRows + 2.0 * VerticalHalfWindow(width, height);
  return static_cast<double>(width) *
         (rows * sizeof(SsimMoments) + kSsimBlockRows * 2.0 * sizeof(double));
}

Status SsimCompare(const FrameView& ref, const FrameView& dist, SsimResult* out,
                   ThreadPool* pool) {
  const double pixel_aspect = ref.desc.pixel_aspect;
  FrameLayout layout[2];
  S2C_RETURN_IF_ERROR(CheckFramePair(ref, dist, layout));
  S2C_RETURN_IF_ERROR(CheckSsimFormats(layout[0].format, layout[1].format));
  if (!(pixel_aspect > 0)) return InvalidArgument("SSIM: the pixel aspect ratio must be positive");
  const FrameLayout& l = layout[0];
  const int64_t samplemax = (int64_t{1} << l.bit_depth) - 1;
  ThreadPool alone(1);
  if (pool == nullptr) pool = &alone;
  SsimSums sums[3];
  for (int k = 0; k < 3; ++k) {
    if (pool->cancelled()) return Cancelled();  // ThreadPool::set_cancel_flag
    const ComponentLayout& cr = layout[0].comp[k];
    const ComponentLayout& cd = layout[1].comp[k];
    sums[k] = SumPlane(pool, SsimGeometry(l, k, pixel_aspect), samplemax,
                       [&](int x, int y, int64_t* s, int64_t* d) {
                         *s = LoadSample(ref, cr, x, y);
                         *d = LoadSample(dist, cd, x, y);
                       });
  }
  if (pool->cancelled()) return Cancelled();
  *out = SsimFromSums(sums, l);
  return Status::Ok();
}

}  // namespace s2c
