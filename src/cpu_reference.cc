// SPDX-License-Identifier: BSD-3-Clause
// The CPU pipeline, stage by stage in libjxl's order (ComputeSSIMULACRA2):
// front end to linear RGB; per scale: downsample (after the first), positive
// XYB, five blurred planes per channel (mu1, mu2, sigma11, sigma22, sigma12),
// then the SSIM and edge maps reduced to six running sums per channel.
#include "cpu_reference.h"

#include <algorithm>
#include <string>
#include <utility>

#include "blur_steps.h"
#include "frontend.h"
#include "frontend_steps.h"
#include "pixel_steps.h"
#include "thread_pool.h"

namespace s2c {
namespace {

constexpr int kColumnBlock = 64;  // columns per task of the vertical pass
constexpr int kLanes = 16;        // columns stepped together (SIMD lanes)
constexpr int kRowBlock = 16;     // rows per task of per-pixel stages

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

struct CpuReference::Workspace {
  static constexpr int kPlanes = 2 * 3 * 5 + 3 + 1;  // the members below
  int width = 0, height = 0;
  HostPlane linear[2][3];       // current scale, linear RGB
  // Next scale while downsampling; swapped with `linear` afterwards, so both
  // have the capacity of scale 0.
  HostPlane linear_next[2][3];
  HostPlane xyb[2][3];
  HostPlane mu[2][3];
  HostPlane sigma_sq[2][3];
  HostPlane sigma12[3];
  HostPlane horizontal;  // output of the horizontal pass of one blur

  // The size is recorded only once every plane has its memory, so that an
  // allocation that throws (CpuBackend turns std::bad_alloc into an error)
  // never leaves planes smaller than the size says.
  void Allocate(int w, int h) {
    width = height = 0;
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) {
        linear[i][c].Allocate(w, h);
        linear_next[i][c].Allocate(w, h);
        xyb[i][c].Allocate(w, h);
        mu[i][c].Allocate(w, h);
        sigma_sq[i][c].Allocate(w, h);
      }
    }
    for (int c = 0; c < 3; ++c) sigma12[c].Allocate(w, h);
    horizontal.Allocate(w, h);
    width = w;
    height = h;
  }
  void ShrinkAll(int w, int h) {
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) {
        linear[i][c].Shrink(w, h);
        xyb[i][c].Shrink(w, h);
        mu[i][c].Shrink(w, h);
        sigma_sq[i][c].Shrink(w, h);
      }
    }
    for (int c = 0; c < 3; ++c) sigma12[c].Shrink(w, h);
    horizontal.Shrink(w, h);
  }
};

CpuReference::CpuReference(int threads)
    : pool_(new ThreadPool(threads)), ws_(new Workspace) {}

double CpuReference::WorkspaceBytes(int width, int height) {
  const double pitch = static_cast<double>((static_cast<int64_t>(width) + 15) & ~int64_t{15});
  return Workspace::kPlanes * pitch * height * sizeof(float);
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

}  // namespace

Status CpuReference::Compare(const FrameView& ref, const FrameView& dist,
                             Result* out, PlaneObserver* observer) {
  FrameLayout layout[2];
  S2C_RETURN_IF_ERROR(CheckFramePair(ref, dist, layout));
  Workspace& ws = *ws_;
  int w = ref.desc.width, h = ref.desc.height;
  if (ws.width != w || ws.height != h) ws.Allocate(w, h);
  ws.ShrinkAll(w, h);
  ThreadPool* pool = pool_.get();
  const RecursiveGaussian& rg = Sigma15Gaussian();
  const FrameView* frames[2] = {&ref, &dist};

  auto observe = [&](Stage stage, int scale, int image, int c, HostPlane& p) {
    if (observer) observer->OnPlane(stage, scale, image, c, p.View());
  };

  // Front end: R'G'B' of each pixel, then the canonical sRGB decoding.
  for (int i = 0; i < 2; ++i) {
    PlaneView lin[3] = {ws.linear[i][0].View(), ws.linear[i][1].View(),
                        ws.linear[i][2].View()};
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
          PlaneView src = ws.linear[i][c].View();
          ws.linear_next[i][c].Shrink(nw, nh);
          PlaneView dst = ws.linear_next[i][c].View();
          ForRows(pool, nh, [&](int oy) {
            const float* r0 = src.Row(std::min(2 * oy, h - 1));
            const float* r1 = src.Row(std::min(2 * oy + 1, h - 1));
            for (int ox = 0; ox < nw; ++ox) {
              const int x0 = std::min(2 * ox, w - 1);
              const int x1 = std::min(2 * ox + 1, w - 1);
              dst.Row(oy)[ox] = Downsample2x2(r0[x0], r0[x1], r1[x0], r1[x1]);
            }
          });
          std::swap(ws.linear[i][c], ws.linear_next[i][c]);
        }
      }
      w = nw;
      h = nh;
      ws.ShrinkAll(w, h);
    }
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) observe(Stage::kLinear, scale, i, c, ws.linear[i][c]);
    }

    for (int i = 0; i < 2; ++i) {
      PlaneView lin[3], xyb[3];
      for (int c = 0; c < 3; ++c) {
        lin[c] = ws.linear[i][c].View();
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

    for (int c = 0; c < 3; ++c) {
      const PlaneView x1 = ws.xyb[0][c].View(), x2 = ws.xyb[1][c].View();
      const PlaneView tmp = ws.horizontal.View();
      auto plane = [](const PlaneView& a) {
        return [a](int x, int y) { return a.Row(y)[x]; };
      };
      auto product = [](const PlaneView& a, const PlaneView& b) {
        return [a, b](int x, int y) { return a.Row(y)[x] * b.Row(y)[x]; };
      };
      Blur(pool, rg, product(x1, x1), tmp, ws.sigma_sq[0][c].View());
      Blur(pool, rg, product(x2, x2), tmp, ws.sigma_sq[1][c].View());
      Blur(pool, rg, product(x1, x2), tmp, ws.sigma12[c].View());
      Blur(pool, rg, plane(x1), tmp, ws.mu[0][c].View());
      Blur(pool, rg, plane(x2), tmp, ws.mu[1][c].View());
      for (int i = 0; i < 2; ++i) {
        observe(Stage::kMu, scale, i, c, ws.mu[i][c]);
        observe(Stage::kSigmaSq, scale, i, c, ws.sigma_sq[i][c]);
      }
      observe(Stage::kSigma12, scale, 0, c, ws.sigma12[c]);
    }

    // Six running sums per channel, each one loop in raster order; the
    // channels are independent, so they run in parallel.
    double sums[kNumChannels][6] = {};
    pool->Run(kNumChannels, [&](int c) {
      const PlaneView x1 = ws.xyb[0][c].View(), x2 = ws.xyb[1][c].View();
      const PlaneView mu1 = ws.mu[0][c].View(), mu2 = ws.mu[1][c].View();
      const PlaneView s11 = ws.sigma_sq[0][c].View();
      const PlaneView s22 = ws.sigma_sq[1][c].View();
      const PlaneView s12 = ws.sigma12[c].View();
      double s[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const PixelTerms t =
              MapTerms(x1.Row(y)[x], mu1.Row(y)[x], x2.Row(y)[x],
                       mu2.Row(y)[x], s11.Row(y)[x], s22.Row(y)[x],
                       s12.Row(y)[x]);
          for (int k = 0; k < 6; ++k) s[k] += t.t[k];
        }
      }
      for (int k = 0; k < 6; ++k) sums[c][k] = s[k];
    });
    NormsFromSums(sums, w, h, &sub.scale[scale]);
    sub.num_scales = scale + 1;
  }
  out->score = sub.Score();
  return Status::Ok();
}

}  // namespace s2c
