// SPDX-License-Identifier: BSD-3-Clause
// The start of each scale, fused: linear RGB (from the frames' samples at
// scale 0, from the stored planes after) to positive XYB, and the 2x2 box
// average that is the next scale's linear RGB. One thread per pixel of the
// next scale, i.e. per 2x2 block of this one, so full-size linear planes are
// never stored (4K: 6 planes, 200 MB, saved).
#include "ssimulacra2_launch.h"

#include "steps/frontend_steps.h"
#include "steps/pixel_steps.h"

namespace s2c {
namespace cuda {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;

// Linear RGB of pixel (x, y) of frame `i`, from the samples (alpha blended
// on the pass's background).
struct FrameSource {
  PairFrames frames;
  __device__ void Linear(int i, int x, int y, float out[3]) const {
    float rgb[3];
    RgbPrimeOnBackground(frames.layout[i], frames.view[i], x, y, frames.background, rgb);
    for (int c = 0; c < 3; ++c) out[c] = SrgbToLinear(rgb[c]);
  }
};

// Linear RGB of pixel (x, y) of image `i`, from stored planes.
struct PlaneSource {
  PairPlanes linear;
  __device__ void Linear(int i, int x, int y, float out[3]) const {
    for (int c = 0; c < 3; ++c) out[c] = linear.img[i].c[c].Row(y)[x];
  }
};

__device__ bool HasPlanes(const PairPlanes& p) { return p.img[0].c[0].data != nullptr; }

// blockIdx.z = image. A 2x2 block's pixels outside the image repeat the
// edge (the canonical downsample clamps coordinates), so they take the
// values computed for their clamped neighbours. The four pixels' linear RGB
// is formed before anything is stored (measured neutral on the H200: the
// chroma samples neighbouring pixels share are still loaded per pixel).
template <class Source>
__global__ void ScaleStartKernel(Source src, int w, int h, PairPlanes xyb,
                                 PairPlanes next, PairPlanes debug_linear) {
  const int ox = blockIdx.x * kBlockX + threadIdx.x;
  const int oy = blockIdx.y * kBlockY + threadIdx.y;
  const int i = blockIdx.z;
  if (2 * ox >= w || 2 * oy >= h) return;
  const bool x1_in = 2 * ox + 1 < w, y1_in = 2 * oy + 1 < h;
  // a[dy][dx]: linear RGB of pixel (2 * ox + dx, 2 * oy + dy).
  float a[2][2][3];
  src.Linear(i, 2 * ox, 2 * oy, a[0][0]);
  if (x1_in) src.Linear(i, 2 * ox + 1, 2 * oy, a[0][1]);
  if (y1_in) src.Linear(i, 2 * ox, 2 * oy + 1, a[1][0]);
  if (x1_in && y1_in) src.Linear(i, 2 * ox + 1, 2 * oy + 1, a[1][1]);
  for (int dy = 0; dy < 2; ++dy) {
    for (int dx = 0; dx < 2; ++dx) {
      const int x = 2 * ox + dx, y = 2 * oy + dy;
      if (x >= w || y >= h) continue;
      const float* lin = a[dy][dx];
      const Xyb p = LinearToPositiveXyb(lin[0], lin[1], lin[2]);
      xyb.img[i].c[0].Row(y)[x] = p.x;
      xyb.img[i].c[1].Row(y)[x] = p.y;
      xyb.img[i].c[2].Row(y)[x] = p.b;
      if (HasPlanes(debug_linear)) {
        for (int c = 0; c < 3; ++c) debug_linear.img[i].c[c].Row(y)[x] = lin[c];
      }
    }
  }
  if (!HasPlanes(next)) return;
  for (int c = 0; c < 3; ++c) {
    if (!x1_in) a[0][1][c] = a[0][0][c];
    if (!y1_in) a[1][0][c] = a[0][0][c];
    if (!(x1_in && y1_in)) a[1][1][c] = x1_in ? a[0][1][c] : a[1][0][c];
    next.img[i].c[c].Row(oy)[ox] =
        Downsample2x2(a[0][0][c], a[0][1][c], a[1][0][c], a[1][1][c]);
  }
}

template <class Source>
cudaError_t Launch(const Source& src, int w, int h, const PairPlanes& xyb,
                   const PairPlanes& next, const PairPlanes& debug_linear,
                   cudaStream_t stream) {
  const int nw = (w + 1) / 2, nh = (h + 1) / 2;
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((nw + kBlockX - 1) / kBlockX, (nh + kBlockY - 1) / kBlockY, 2);
  ScaleStartKernel<<<grid, block, 0, stream>>>(src, w, h, xyb, next, debug_linear);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchFrontEnd(const PairFrames& frames, const PairPlanes& xyb,
                           const PairPlanes& next,
                           const PairPlanes& debug_linear, cudaStream_t stream) {
  return Launch(FrameSource{frames}, frames.layout[0].width,
                frames.layout[0].height, xyb, next, debug_linear, stream);
}

cudaError_t LaunchScaleStart(const PairPlanes& linear, const PairPlanes& xyb,
                             const PairPlanes& next, cudaStream_t stream) {
  const PlaneView& p = linear.img[0].c[0];
  return Launch(PlaneSource{linear}, p.width, p.height, xyb, next, PairPlanes(),
                stream);
}

cudaError_t CheckKernelImage() {
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes(&attr, ScaleStartKernel<PlaneSource>);
}

}  // namespace cuda
}  // namespace s2c
