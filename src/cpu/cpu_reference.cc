// SPDX-License-Identifier: BSD-3-Clause
// The CPU pipeline, stage by stage in libjxl's order (ComputeSSIMULACRA2):
// front end to linear RGB; per scale: downsample (after the first), positive
// XYB, five blurred planes per channel (mu1, mu2, sigma11, sigma22, sigma12),
// then the SSIM and edge maps reduced to six running sums per channel.
#include "cpu/cpu_reference.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "blur_coeffs.h"
#include "cpu/host_plane.h"
#include "frontend.h"
#include "steps/blur_steps.h"
#include "steps/frontend_steps.h"
#include "steps/pixel_steps.h"
#include "thread_pool.h"

namespace s2c {
namespace {

constexpr int kColumnBlock = 64;  // columns per task of the vertical pass
constexpr int kLanes = 16;        // columns stepped together (SIMD lanes)
constexpr int kRowBlock = 16;     // rows per task of per-pixel stages
constexpr int kTermRows = 64;     // rows whose sum terms are stored at once

int DivCeil(int a, int b) { return (a + b - 1) / b; }

// Calls f(y) for every row, in blocks of rows spread over the pool.
template <class F>
void ForRows(ThreadPool* pool, int height, const F& f) {
  pool->Run(DivCeil(height, kRowBlock), [&](int task) {
    const int y_end = std::min(height, (task + 1) * kRowBlock);
    for (int y = task * kRowBlock; y < y_end; ++y) f(y);
  });
}

}  // namespace

// The planes one comparison keeps, sized for scale 0 at the first pair of a
// size and reused after that. Each scale works channel by channel, so the
// blurred planes are those of one channel, and the next scale's linear RGB
// is at most half the size each way. That is 19.5 planes of the frame's
// size (WorkspaceBytes) where one plane per stage and channel would be 34.
struct CpuReference::Workspace {
  int width = 0, height = 0;
  HostPlane linear[2][3];  // linear RGB of the current scale (or the next:
  HostPlane half[2][3];    // the two take turns, `half` sized for scale 1)
  HostPlane xyb[2][3];
  // The five blurred planes of the channel being summed.
  HostPlane mu[2];
  HostPlane sigma_sq[2];
  HostPlane sigma12;
  HostPlane horizontal;  // output of the horizontal pass of one blur
  std::vector<double> terms;  // six sum terms per pixel of kTermRows rows

  // Planes of the full size, and of half the size each way.
  static constexpr int kFullPlanes = 6 + 6 + 2 + 2 + 1 + 1;
  static constexpr int kHalfPlanes = 6;

  // The size is recorded only once every plane has its memory, so that an
  // allocation that throws (CpuBackend turns std::bad_alloc into an error)
  // never leaves planes smaller than the size says.
  void Allocate(int w, int h) {
    width = height = 0;
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) {
        linear[i][c].Allocate(w, h);
        half[i][c].Allocate((w + 1) / 2, (h + 1) / 2);
        xyb[i][c].Allocate(w, h);
      }
      mu[i].Allocate(w, h);
      sigma_sq[i].Allocate(w, h);
    }
    sigma12.Allocate(w, h);
    horizontal.Allocate(w, h);
    terms.assign(static_cast<size_t>(w) * kTermRows * 6, 0.0);
    width = w;
    height = h;
  }
};

CpuReference::CpuReference(int threads)
    : pool_(new ThreadPool(threads)), ws_(new Workspace) {}

double CpuReference::WorkspaceBytes(int width, int height) {
  auto plane = [](int64_t w, int64_t h) {
    return static_cast<double>((w + 15) & ~int64_t{15}) * static_cast<double>(h) * sizeof(float);
  };
  return Workspace::kFullPlanes * plane(width, height) +
         Workspace::kHalfPlanes * plane((int64_t{width} + 1) / 2, (int64_t{height} + 1) / 2) +
         static_cast<double>(width) * kTermRows * 6 * sizeof(double);
}
CpuReference::~CpuReference() = default;
int CpuReference::threads() const { return pool_->size(); }

namespace {

// Blurs a plane given as a sample function in(x, y) (so that products are
// formed on the fly, rounded to f32 exactly as a stored product plane would
// be) into `out`, through `tmp`.
template <class In>
void Blur(ThreadPool* pool, const RecursiveGaussian& rg, const In& in,
          PlaneView tmp, PlaneView out) {
  const int w = out.width, h = out.height;
  ForRows(pool, h, [&](int y) {
    float* row = tmp.Row(y);
    BlurLineHorizontal(
        rg, [&](int x) { return in(x, y); },
        [row](int x, float v) { row[x] = v; }, w);
  });
  const int N = rg.radius;
  pool->Run(DivCeil(w, kColumnBlock), [&](int task) {
    const int x0 = task * kColumnBlock;
    const int x1 = std::min(w, x0 + kColumnBlock);
    // Full groups of kLanes columns step together; the rest one by one.
    const int x_lanes = x0 + (x1 - x0) / kLanes * kLanes;
    VerticalLanes<kLanes> lanes[kColumnBlock / kLanes];
    VerticalState single[kLanes];
    for (int n = -N + 1; n < h; ++n) {
      const int l = n - N - 1, r = n + N - 1;
      const float* top = l >= 0 ? tmp.Row(l) : nullptr;
      const float* bottom = r < h ? tmp.Row(r) : nullptr;
      float* dst = n >= 0 ? out.Row(n) : nullptr;
      auto sum_at = [&](int x) {
        return (top ? top[x] : 0.0f) + (bottom ? bottom[x] : 0.0f);
      };
      for (int x = x0; x < x_lanes; x += kLanes) {
        float sum[kLanes], v[kLanes];
        for (int j = 0; j < kLanes; ++j) sum[j] = sum_at(x + j);
        BlurVerticalStep<kLanes>(rg, sum, lanes[(x - x0) / kLanes], v);
        if (dst) {
          for (int j = 0; j < kLanes; ++j) dst[x + j] = v[j];
        }
      }
      for (int x = x_lanes; x < x1; ++x) {
        const float v = BlurVerticalStep(rg, sum_at(x), single[x - x_lanes]);
        if (dst) dst[x] = v;
      }
    }
  });
}

// The six running sums of one channel. Each is one loop in raster order
// (the exactness contract's order), so the additions run on one thread; the
// terms they add, where the divisions are, are computed on the pool first,
// kTermRows rows at a time, into `terms`. Adding a stored double is adding
// the same double, so the sums are those of the plain loop.
void SumChannel(ThreadPool* pool, const PlaneView& x1, const PlaneView& x2,
                const PlaneView& mu1, const PlaneView& mu2, const PlaneView& s11,
                const PlaneView& s22, const PlaneView& s12, double* terms, double sums[6]) {
  const int w = x1.width, h = x1.height;
  double s[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (int y0 = 0; y0 < h; y0 += kTermRows) {
    const int rows = std::min(kTermRows, h - y0);
    pool->Run(rows, [&](int r) {
      const int y = y0 + r;
      double* t = terms + static_cast<size_t>(r) * w * 6;
      for (int x = 0; x < w; ++x) {
        const PixelTerms p = MapTerms(x1.Row(y)[x], mu1.Row(y)[x], x2.Row(y)[x],
                                      mu2.Row(y)[x], s11.Row(y)[x], s22.Row(y)[x],
                                      s12.Row(y)[x]);
        for (int k = 0; k < 6; ++k) t[6 * x + k] = p.t[k];
      }
    });
    for (int i = 0; i < rows * w; ++i) {
      for (int k = 0; k < 6; ++k) s[k] += terms[6 * i + k];
    }
  }
  for (int k = 0; k < 6; ++k) sums[k] = s[k];
}

}  // namespace

Status CpuReference::Compare(const FrameView& ref, const FrameView& dist,
                             Result* out, PlaneObserver* observer) {
  FrameLayout layout[2];
  S2C_RETURN_IF_ERROR(CheckFramePair(ref, dist, layout));
  Workspace& ws = *ws_;
  int w = ref.desc.width, h = ref.desc.height;
  if (ws.width != w || ws.height != h) ws.Allocate(w, h);
  ThreadPool* pool = pool_.get();
  const RecursiveGaussian& rg = Sigma15Gaussian();
  const FrameView* frames[2] = {&ref, &dist};
  // Linear RGB of the current scale, and where the next one goes.
  HostPlane* linear[2][3];
  HostPlane* next[2][3];
  for (int i = 0; i < 2; ++i) {
    for (int c = 0; c < 3; ++c) {
      linear[i][c] = &ws.linear[i][c];
      next[i][c] = &ws.half[i][c];
      linear[i][c]->Shrink(w, h);
    }
  }

  auto observe = [&](Stage stage, int scale, int image, int c, HostPlane& p) {
    if (observer) observer->OnPlane(stage, scale, image, c, p.View());
  };

  // Front end: R'G'B' of each pixel, then the canonical sRGB decoding.
  for (int i = 0; i < 2; ++i) {
    PlaneView lin[3] = {linear[i][0]->View(), linear[i][1]->View(), linear[i][2]->View()};
    ForRows(pool, h, [&](int y) {
      for (int x = 0; x < w; ++x) {
        float rgb[3];
        RgbPrimeAt(layout[i], *frames[i], x, y, rgb);
        for (int c = 0; c < 3; ++c) lin[c].Row(y)[x] = SrgbToLinear(rgb[c]);
      }
    });
  }

  Subscores& sub = out->subscores;
  sub = Subscores();
  for (int scale = 0; scale < kNumScales; ++scale) {
    // The canonical loop tests the size of the previous scale.
    if (w < kMinSide || h < kMinSide) break;
    if (scale > 0) {
      const int nw = (w + 1) / 2, nh = (h + 1) / 2;
      for (int i = 0; i < 2; ++i) {
        for (int c = 0; c < 3; ++c) {
          PlaneView src = linear[i][c]->View();
          next[i][c]->Shrink(nw, nh);
          PlaneView dst = next[i][c]->View();
          ForRows(pool, nh, [&](int oy) {
            const float* r0 = src.Row(std::min(2 * oy, h - 1));
            const float* r1 = src.Row(std::min(2 * oy + 1, h - 1));
            for (int ox = 0; ox < nw; ++ox) {
              const int x0 = std::min(2 * ox, w - 1);
              const int x1 = std::min(2 * ox + 1, w - 1);
              dst.Row(oy)[ox] = Downsample2x2(r0[x0], r0[x1], r1[x0], r1[x1]);
            }
          });
          std::swap(linear[i][c], next[i][c]);
        }
      }
      w = nw;
      h = nh;
    }
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) observe(Stage::kLinear, scale, i, c, *linear[i][c]);
    }

    for (int i = 0; i < 2; ++i) {
      PlaneView lin[3], xyb[3];
      for (int c = 0; c < 3; ++c) {
        lin[c] = linear[i][c]->View();
        ws.xyb[i][c].Shrink(w, h);
        xyb[c] = ws.xyb[i][c].View();
      }
      ForRows(pool, h, [&](int y) {
        for (int x = 0; x < w; ++x) {
          const Xyb p = LinearToPositiveXyb(lin[0].Row(y)[x], lin[1].Row(y)[x],
                                            lin[2].Row(y)[x]);
          xyb[0].Row(y)[x] = p.x;
          xyb[1].Row(y)[x] = p.y;
          xyb[2].Row(y)[x] = p.b;
        }
      });
      for (int c = 0; c < 3; ++c) observe(Stage::kXyb, scale, i, c, ws.xyb[i][c]);
    }

    for (HostPlane* p : {&ws.mu[0], &ws.mu[1], &ws.sigma_sq[0], &ws.sigma_sq[1],
                         &ws.sigma12, &ws.horizontal}) {
      p->Shrink(w, h);
    }
    double sums[kNumChannels][6] = {};
    for (int c = 0; c < 3; ++c) {
      const PlaneView x1 = ws.xyb[0][c].View(), x2 = ws.xyb[1][c].View();
      const PlaneView tmp = ws.horizontal.View();
      auto plane = [](const PlaneView& a) {
        return [a](int x, int y) { return a.Row(y)[x]; };
      };
      auto product = [](const PlaneView& a, const PlaneView& b) {
        return [a, b](int x, int y) { return a.Row(y)[x] * b.Row(y)[x]; };
      };
      Blur(pool, rg, product(x1, x1), tmp, ws.sigma_sq[0].View());
      Blur(pool, rg, product(x2, x2), tmp, ws.sigma_sq[1].View());
      Blur(pool, rg, product(x1, x2), tmp, ws.sigma12.View());
      Blur(pool, rg, plane(x1), tmp, ws.mu[0].View());
      Blur(pool, rg, plane(x2), tmp, ws.mu[1].View());
      for (int i = 0; i < 2; ++i) {
        observe(Stage::kMu, scale, i, c, ws.mu[i]);
        observe(Stage::kSigmaSq, scale, i, c, ws.sigma_sq[i]);
      }
      observe(Stage::kSigma12, scale, 0, c, ws.sigma12);
      SumChannel(pool, x1, x2, ws.mu[0].View(), ws.mu[1].View(), ws.sigma_sq[0].View(),
                 ws.sigma_sq[1].View(), ws.sigma12.View(), ws.terms.data(), sums[c]);
    }
    NormsFromSums(sums, w, h, &sub.scale[scale]);
    sub.num_scales = scale + 1;
  }
  out->score = sub.Score();
  return Status::Ok();
}

}  // namespace s2c
