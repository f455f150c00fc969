// SPDX-License-Identifier: BSD-3-Clause
// The result of one comparison: per scale the six SSIM norms and twelve edge
// norms (libjxl's MsssimScale), and the pooled score. Pooling happens on the
// host, with the same libm, for every backend (exactness contract, layer 1).
// The 108 weights and the pooling constants are libjxl's (BSD-3-Clause).
#ifndef S2C_SUBSCORES_H_
#define S2C_SUBSCORES_H_

#include "metrics.h"

namespace s2c {

constexpr int kNumScales = 6;
constexpr int kNumChannels = 3;                    // X, Y, B
constexpr int kNumWeights = 108;                   // 3 ch * 6 scales * 2 norms * 3 maps

struct ScaleNorms {
  // [c * 2 + n]: channel c, n = 0 for the L1 norm, 1 for the L4 norm.
  double ssim[kNumChannels * 2] = {};
  // [c * 4 + 0/1]: artifact L1/L4, [c * 4 + 2/3]: detail lost L1/L4.
  double edge[kNumChannels * 4] = {};
};

struct Subscores {
  int num_scales = 0;  // fewer than 6 for small images
  ScaleNorms scale[kNumScales];

  // The sub-scores in weight order (channel, scale, norm, {ssim, artifact,
  // detail}); writes 18 * num_scales values and returns that count. With
  // fewer than 6 scales the weight index is not re-aligned (canonical quirk).
  int InWeightOrder(double out[kNumWeights]) const;

  // SSIMULACRA 2.1 score; exactly 100 for identical inputs.
  double Score() const;
};

// The norms of one scale from the six running sums of each channel, in the
// order of MapTerms() (pixel_steps.h): d, d^4, artifact, artifact^4, detail,
// detail^4. Every backend turns its sums into norms through this function.
void NormsFromSums(const double sums[kNumChannels][6], int width, int height,
                   ScaleNorms* out);

// One pair's scores: `metrics` says which of the fields hold values.
struct Result {
  unsigned metrics = kMetricSsimulacra2;
  Subscores subscores;
  double score = 0.0;
  SsimResult ssim;
};

}  // namespace s2c

#endif  // S2C_SUBSCORES_H_
