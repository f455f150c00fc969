// SPDX-License-Identifier: BSD-3-Clause
// What a caller of the CUDA backend chooses about the pipeline and reads
// back from it: how the sums are formed, and the device time of its stages.
// Its own header so that the pipeline (cuda_pipeline.h) and the backend's
// interface (cuda_backend.h) both use them without including each other.
#ifndef S2C_CUDA_PIPELINE_TYPES_H_
#define S2C_CUDA_PIPELINE_TYPES_H_

namespace s2c {

// kExact is the metric. kTree sums the same terms with a plain parallel
// tree: not the CPU's bits; the benchmark uses it as the cost baseline.
enum class CudaSumMode { kExact, kTree };

// Device time of the last collected pair, in ms, per stage and all scales
// (only with time_stages).
struct CudaStageTimes {
  float upload = 0.0f;       // host-to-device copies of the frames
  float scale_start = 0.0f;  // front end / downsample / positive XYB
  float blur_horizontal = 0.0f;
  float blur_vertical = 0.0f;  // with the terms and the sums' advice
  float sums = 0.0f;           // the sums' other passes
};

}  // namespace s2c

#endif  // S2C_CUDA_PIPELINE_TYPES_H_
