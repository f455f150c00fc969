// SPDX-License-Identifier: BSD-3-Clause
// Launch functions of the SSIMULACRA 2 kernels (scale_start.cu, blur.cu,
// blur_vertical.cu, map_sums.cu), for the CUDA backend's host code: they
// take plane views, workspace pointers and a stream, enqueue their kernels
// and return the launch status. Nothing here synchronises. Every value the
// kernels compute comes from the S2C_HD steps of src/steps/
// (frontend_steps.h, pixel_steps.h, blur_steps.h), so every f32 plane and
// f64 term is the CPU reference's (exactness contract, layer 3); how the
// work is spread over threads, shared memory and passes is the kernels' own
// (docs/cuda-backend.md).
#ifndef S2C_KERNELS_SSIMULACRA2_LAUNCH_H_
#define S2C_KERNELS_SSIMULACRA2_LAUNCH_H_

#include <cuda_runtime_api.h>

#include <cstddef>

#include "f64_path.h"
#include "pair_frames.h"
#include "steps/plane_view.h"
#include "steps/recursive_gaussian.h"

namespace s2c {
namespace cuda {

// The three channels of one image (R, G, B or X, Y, B).
struct ImagePlanes {
  PlaneView c[3];
};
// Reference (0) and distorted (1).
struct PairPlanes {
  ImagePlanes img[2];
};

// The five blurred planes of a channel, in this order.
enum BlurKind : int { kMu1 = 0, kMu2, kSigma11, kSigma22, kSigma12, kNumBlurKinds };
struct BlurPlanes {
  PlaneView p[3][kNumBlurKinds];  // [channel][kind]
};

// Scale 0: front end of both frames to linear RGB, straight into positive
// XYB (`xyb`, width x height of the frames) and the 2x2 box average of the
// linear planes (`next`, the size of scale 1). Full-size linear planes are
// written only to `debug_linear` when its planes are non-null (debug mode).
cudaError_t LaunchFrontEnd(const PairFrames& frames, const PairPlanes& xyb,
                           const PairPlanes& next,
                           const PairPlanes& debug_linear, cudaStream_t stream);

// Scale s > 0: positive XYB of the stored linear planes, and the next
// scale's linear planes when `next` is non-null (the last scale has none).
cudaError_t LaunchScaleStart(const PairPlanes& linear, const PairPlanes& xyb,
                             const PairPlanes& next, cudaStream_t stream);

// The radius N of the recursive Gaussian the blur kernels are built for
// (sigma 1.5).
constexpr int kBlurRadius = 5;

// The five blurs of all three channels and the terms, in two launches. The
// horizontal pass reads the XYB planes (products formed on the fly) and
// writes `blurred`. The vertical pass reads `blurred` in place, forms each
// pixel's prepared terms (pixel_steps.h, PrepareTerms) and stores them in
// place of three of the blurred planes, where the sums read them;
// it also zeroes the advice in `sum_workspace` (MapSumsWorkspaceBytes) and
// adds the chunks' sums of the 18 terms to it (doubles, or on the integer
// path floats: OrderedSumAdvice). The blurred planes are not
// stored, except to `observed` when it is non-null (debug: planes of the
// same size, not `blurred`'s). Both require rg.radius == kBlurRadius and
// return cudaErrorInvalidValue otherwise.
//
// PrepareBlurKernels must have run once in the current context: the
// horizontal pass takes more than the default 48 KB of dynamic shared
// memory. It is not set at every launch because cudaFuncSetAttribute waits
// for the runtime's copies in flight, which would hold back the other
// streams, and is not a call to make while a stream is being captured.
cudaError_t PrepareBlurKernels();
cudaError_t LaunchBlurHorizontal(const RecursiveGaussian& rg,
                                 const PairPlanes& xyb, const BlurPlanes& blurred,
                                 cudaStream_t stream);
cudaError_t LaunchBlurVerticalTerms(const RecursiveGaussian& rg, const PairPlanes& xyb,
                                    const BlurPlanes& blurred, void* sum_workspace,
                                    const BlurPlanes* observed, F64Path path,
                                    cudaStream_t stream);

// Six running sums per channel of the map terms (pixel_steps.h, MapTerms)
// over each scale, after the vertical pass has prepared the terms in
// `prepared` (the scale's blurred planes) and the advice in `workspace`.
// Exact: the bits of the CPU's raster-order loop, by the ordered sum, in two
// steps. LaunchMapSumChunks enqueues a scale's passes over its chunks (the
// plan, increments and runs: kernels of many blocks). LaunchMapSumWalks then
// enqueues, once for up to kMaxMapSumScales scales whose chunk passes come
// before it on `stream`, their walks in one kernel, each sum a chain of
// latency in one block, so that the scales' walks run side by side rather
// than one after another; scale s's sums go to scales[s].sums[c * 6 + k].
// `workspace` holds MapSumsWorkspaceBytes(w, h) bytes and is used by one
// scale in flight at a time; the prepared planes and the workspace must stay
// until the walks are done. `path` must be the vertical pass's.
constexpr int kMaxMapSumScales = 6;
struct MapSumsOfScale {
  BlurPlanes prepared;
  void* workspace;
  double* sums;
};
size_t MapSumsWorkspaceBytes(int width, int height);
cudaError_t LaunchMapSumChunks(const BlurPlanes& prepared, void* workspace, F64Path path,
                               cudaStream_t stream);
cudaError_t LaunchMapSumWalks(const MapSumsOfScale* scales, int count, F64Path path,
                              cudaStream_t stream);

// The same sums by a plain parallel tree: the chunks' sums added up. NOT
// the CPU's bits (and not even the same bits from run to run: the chunks'
// sums are atomic adds). For the benchmark's exact/tree ratio only; it adds
// the native path's advice.
cudaError_t LaunchMapSumsTree(int width, int height, void* workspace, double* sums,
                              cudaStream_t stream);

// cudaSuccess when this build's kernels can run on the current device
// (e.g. cudaErrorNoKernelImageForDevice when built for another arch).
cudaError_t CheckKernelImage();

}  // namespace cuda
}  // namespace s2c

#endif  // S2C_KERNELS_SSIMULACRA2_LAUNCH_H_
