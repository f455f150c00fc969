// SPDX-License-Identifier: BSD-3-Clause
// The CPU pipeline, stage by stage in libjxl's order (ComputeSSIMULACRA2):
// the front end to linear RGB (ToLinear, alpha blended on a background);
// per scale: Downsample (after the
// first), MakePositiveXyb, then per channel the five blurred planes (BlurAll:
// mu1, mu2, sigma11, sigma22, sigma12) and the SSIM and edge maps reduced to
// six running sums (MapSums); the norms and the score (subscores.h) last.
// Frames with alpha take one such pass per background (Compare).
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

// The three planes of one image: R, G, B or X, Y, B.
struct ImageViews {
  PlaneView c[3];
};

// The five blurred planes of one channel; [0] of the reference, [1] of the
// distorted image.
struct BlurredViews {
  PlaneView mu[2];
  PlaneView sigma_sq[2];
  PlaneView sigma12;
};

// The stages, each over the whole plane and spread over the pool by rows or
// column blocks. Every output sample depends on its inputs alone, so the
// planes do not depend on the thread count.

// The front end (layer 2; alpha blended on `background`), then libjxl's
// sRGB decoding: one frame's linear RGB.
void ToLinear(ThreadPool* pool, const FrameLayout& layout, const FrameView& frame,
              float background, const ImageViews& linear) {
  const int w = linear.c[0].width;
  ForRows(pool, linear.c[0].height, [&](int y) {
    for (int x = 0; x < w; ++x) {
      float rgb[3];
      RgbPrimeOnBackground(layout, frame, x, y, background, rgb);
      for (int c = 0; c < 3; ++c) linear.c[c].Row(y)[x] = SrgbToLinear(rgb[c]);
    }
  });
}

// libjxl's Downsample by 2 each way: `dst` is half of `src`'s size, rounded
// up; a last odd column or row averages with itself.
void Downsample(ThreadPool* pool, const PlaneView& src, const PlaneView& dst) {
  const int w = src.width, h = src.height;
  ForRows(pool, dst.height, [&](int oy) {
    const float* r0 = src.Row(std::min(2 * oy, h - 1));
    const float* r1 = src.Row(std::min(2 * oy + 1, h - 1));
    for (int ox = 0; ox < dst.width; ++ox) {
      const int x0 = std::min(2 * ox, w - 1);
      const int x1 = std::min(2 * ox + 1, w - 1);
      dst.Row(oy)[ox] = Downsample2x2(r0[x0], r0[x1], r1[x0], r1[x1]);
    }
  });
}

// libjxl's ToXYB and MakePositiveXYB of one image.
void MakePositiveXyb(ThreadPool* pool, const ImageViews& linear, const ImageViews& xyb) {
  const int w = linear.c[0].width;
  ForRows(pool, linear.c[0].height, [&](int y) {
    for (int x = 0; x < w; ++x) {
      const Xyb p = LinearToPositiveXyb(linear.c[0].Row(y)[x], linear.c[1].Row(y)[x],
                                        linear.c[2].Row(y)[x]);
      xyb.c[0].Row(y)[x] = p.x;
      xyb.c[1].Row(y)[x] = p.y;
      xyb.c[2].Row(y)[x] = p.b;
    }
  });
}

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

// libjxl's five blurs of one channel of both images (x1, x2): sigma1_sq,
// sigma2_sq and sigma12 of the products, mu1 and mu2 of the planes, all
// through `tmp`.
void BlurAll(ThreadPool* pool, const RecursiveGaussian& rg, const PlaneView& x1,
             const PlaneView& x2, const PlaneView& tmp, const BlurredViews& out) {
  auto plane = [](const PlaneView& a) {
    return [a](int x, int y) { return a.Row(y)[x]; };
  };
  auto product = [](const PlaneView& a, const PlaneView& b) {
    return [a, b](int x, int y) { return a.Row(y)[x] * b.Row(y)[x]; };
  };
  Blur(pool, rg, product(x1, x1), tmp, out.sigma_sq[0]);
  Blur(pool, rg, product(x2, x2), tmp, out.sigma_sq[1]);
  Blur(pool, rg, product(x1, x2), tmp, out.sigma12);
  Blur(pool, rg, plane(x1), tmp, out.mu[0]);
  Blur(pool, rg, plane(x2), tmp, out.mu[1]);
}

// The six running sums of one channel's SSIM and edge maps (libjxl's
// SSIMMap and EdgeDiffMap). Each is one loop in raster order (the
// exactness contract's order), so the additions run on one thread; the
// terms they add, where the divisions are, are computed on the pool first,
// kTermRows rows at a time, into `terms`. Adding a stored double is adding
// the same double, so the sums are those of the plain loop. A cancelled
// comparison stops between row blocks (its sums are never used).
void MapSums(ThreadPool* pool, const PlaneView& x1, const PlaneView& x2, const BlurredViews& b,
             double* terms, double sums[6]) {
  const int w = x1.width, h = x1.height;
  double s[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (int y0 = 0; y0 < h && !pool->cancelled(); y0 += kTermRows) {
    const int rows = std::min(kTermRows, h - y0);
    pool->Run(rows, [&](int r) {
      const int y = y0 + r;
      double* t = terms + static_cast<size_t>(r) * w * 6;
      for (int x = 0; x < w; ++x) {
        const PixelTerms p = MapTerms(x1.Row(y)[x], b.mu[0].Row(y)[x], x2.Row(y)[x],
                                      b.mu[1].Row(y)[x], b.sigma_sq[0].Row(y)[x],
                                      b.sigma_sq[1].Row(y)[x], b.sigma12.Row(y)[x]);
        for (int k = 0; k < 6; ++k) t[6 * x + k] = p.t[k];
      }
    });
    for (int i = 0; i < rows * w; ++i) {
      for (int k = 0; k < 6; ++k) s[k] += terms[6 * i + k];
    }
  }
  for (int k = 0; k < 6; ++k) sums[k] = s[k];
}

// Hands planes to the observer, when there is one.
struct Observe {
  PlaneObserver* observer;

  void Image(Stage stage, int scale, int image, const ImageViews& planes) const {
    if (observer == nullptr) return;
    for (int c = 0; c < 3; ++c) observer->OnPlane(stage, scale, image, c, planes.c[c]);
  }
  void Blurred(int scale, int c, const BlurredViews& b) const {
    if (observer == nullptr) return;
    for (int i = 0; i < 2; ++i) {
      observer->OnPlane(Stage::kMu, scale, i, c, b.mu[i]);
      observer->OnPlane(Stage::kSigmaSq, scale, i, c, b.sigma_sq[i]);
    }
    observer->OnPlane(Stage::kSigma12, scale, 0, c, b.sigma12);
  }
};

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
  // Which of `linear` and `half` hold the current scale, and which the next.
  HostPlane* current[2][3] = {};
  HostPlane* next[2][3] = {};

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

  // Scale 0 of a pair of the allocated size: its linear planes are `linear`.
  void StartPair() {
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) {
        current[i][c] = &linear[i][c];
        next[i][c] = &half[i][c];
      }
    }
    ShrinkTo(width, height);
  }

  // The next scale, of w x h: its linear planes are the downsampled current
  // ones.
  void DownsampleTo(ThreadPool* pool, int w, int h) {
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) {
        next[i][c]->Shrink(w, h);
        Downsample(pool, current[i][c]->View(), next[i][c]->View());
        std::swap(current[i][c], next[i][c]);
      }
    }
    ShrinkTo(w, h);
  }

  ImageViews Linear(int image) const {
    HostPlane* const* p = current[image];
    return {{p[0]->View(), p[1]->View(), p[2]->View()}};
  }
  ImageViews Xyb(int image) {
    HostPlane* p = xyb[image];
    return {{p[0].View(), p[1].View(), p[2].View()}};
  }
  BlurredViews Blurred() {
    BlurredViews b;
    for (int i = 0; i < 2; ++i) {
      b.mu[i] = mu[i].View();
      b.sigma_sq[i] = sigma_sq[i].View();
    }
    b.sigma12 = sigma12.View();
    return b;
  }

 private:
  // Every plane of the current scale to w x h.
  void ShrinkTo(int w, int h) {
    for (int i = 0; i < 2; ++i) {
      for (int c = 0; c < 3; ++c) {
        current[i][c]->Shrink(w, h);
        xyb[i][c].Shrink(w, h);
      }
    }
    for (HostPlane* p : {&mu[0], &mu[1], &sigma_sq[0], &sigma_sq[1], &sigma12, &horizontal}) {
      p->Shrink(w, h);
    }
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

void CpuReference::Reserve(int width, int height) {
  if (ws_->width != width || ws_->height != height) ws_->Allocate(width, height);
}

Status CpuReference::Compare(const FrameView& ref, const FrameView& dist,
                             Result* out, PlaneObserver* observer) {
  FrameLayout layout[2];
  S2C_RETURN_IF_ERROR(CheckFramePair(ref, dist, layout));
  Reserve(ref.desc.width, ref.desc.height);
  const FrameView* const frames[2] = {&ref, &dist};
  const bool transparent[2] = {HasTransparency(layout[0], ref),
                               HasTransparency(layout[1], dist)};
  const AlphaPasses passes = PlanAlphaPasses(layout, transparent);
  for (int p = 0; p < passes.count; ++p) {
    Subscores sub;
    S2C_RETURN_IF_ERROR(ComparePass(frames, layout, passes.background[p], &sub, observer));
    const double score = sub.Score();
    // std::min(first, second) keeps the first unless the second is lower.
    if (p == 0 || score < out->score) {
      out->subscores = sub;
      out->score = score;
    }
  }
  return Status::Ok();
}

// libjxl's ComputeSSIMULACRA2, stage for stage. Once the pool is cancelled
// its Run calls do nothing, and the checks between stages return before
// anything else is computed.
Status CpuReference::ComparePass(const FrameView* const frames[2], const FrameLayout layout[2],
                                 float background, Subscores* out, PlaneObserver* observer) {
  Workspace& ws = *ws_;
  int w = ws.width, h = ws.height;
  ws.StartPair();
  ThreadPool* pool = pool_.get();
  const RecursiveGaussian& rg = Sigma15Gaussian();
  const Observe observe{observer};

  for (int i = 0; i < 2; ++i) ToLinear(pool, layout[i], *frames[i], background, ws.Linear(i));
  Subscores& sub = *out;
  sub = Subscores();
  for (int scale = 0; scale < kNumScales; ++scale) {
    if (pool->cancelled()) return Cancelled();
    // The canonical loop tests the size of the previous scale.
    if (w < kMinSide || h < kMinSide) break;
    if (scale > 0) {
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      ws.DownsampleTo(pool, w, h);
    }
    for (int i = 0; i < 2; ++i) observe.Image(Stage::kLinear, scale, i, ws.Linear(i));
    for (int i = 0; i < 2; ++i) {
      MakePositiveXyb(pool, ws.Linear(i), ws.Xyb(i));
      observe.Image(Stage::kXyb, scale, i, ws.Xyb(i));
    }
    double sums[kNumChannels][6] = {};
    for (int c = 0; c < kNumChannels; ++c) {
      if (pool->cancelled()) return Cancelled();
      const PlaneView x1 = ws.Xyb(0).c[c], x2 = ws.Xyb(1).c[c];
      const BlurredViews blurred = ws.Blurred();
      BlurAll(pool, rg, x1, x2, ws.horizontal.View(), blurred);
      observe.Blurred(scale, c, blurred);
      MapSums(pool, x1, x2, blurred, ws.terms.data(), sums[c]);
    }
    NormsFromSums(sums, w, h, &sub.scale[scale]);
    sub.num_scales = scale + 1;
  }
  if (pool->cancelled()) return Cancelled();
  return Status::Ok();
}

}  // namespace s2c
