// SPDX-License-Identifier: BSD-3-Clause
// Pooling of the sub-scores into the SSIMULACRA 2.1 score. The 108 weights
// and the pooling constants are libjxl's (tools/ssimulacra2.cc,
// BSD-3-Clause), trained by Jon Sneyers; each operation is evaluated in the
// canonical order, unfused.
#include "subscores.h"

#include <cmath>
#include <cstddef>

namespace s2c {
namespace {

constexpr double kWeight[kNumWeights] = {
    0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0, 0.0,
    0.0004371155730107379, 0.0, 1.1041726426657346, 0.00066284834129271,
    0.00015231632783718752, 0.0, 0.0016406437456599754, 0.0,
    1.8422455520539298, 11.441172603757666, 0.0, 0.0007989109436015163,
    0.000176816438078653, 0.0, 1.8787594979546387, 10.94906990605142, 0.0,
    0.0007289346991508072, 0.9677937080626833, 0.0, 0.00014003424285435884,
    0.9981766977854967, 0.00031949755934435053, 0.0004550992113792063, 0.0,
    0.0, 0.0013648766163243398, 0.0, 0.0, 0.0, 0.0, 0.0, 7.466890328078848,
    0.0, 17.445833984131262, 0.0006235601634041466, 0.0, 0.0,
    6.683678146179332, 0.00037724407979611296, 1.027889937768264,
    225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361,
    0.001237755635509985, 176.39317598450694, 0.0, 0.0, 24.43300999870476,
    0.28520802612117757, 0.0004485436923833408, 0.0, 0.0, 0.0,
    34.77906344483772, 44.835625328877896, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0008680556573291698, 0.0, 0.0, 0.0, 0.0, 0.0,
    0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0, 0.0, 0.0,
    0.0, 0.0004179171803251336, 0.0017290828234722833, 0.0,
    0.0020827005846636437, 0.0, 0.0, 8.826982764996862, 23.19243343998926,
    0.0, 95.1080498811086, 0.9863978034400682, 0.9834382792465353,
    0.0012286405048278493, 171.2667255897307, 0.9807858872435379, 0.0, 0.0,
    0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537};

}  // namespace

int Subscores::InWeightOrder(double out[kNumWeights]) const {
  int i = 0;
  for (int c = 0; c < kNumChannels; ++c) {
    for (int k = 0; k < num_scales; ++k) {
      for (int n = 0; n < 2; ++n) {
        out[i++] = scale[k].ssim[c * 2 + n];
        out[i++] = scale[k].edge[c * 4 + n];
        out[i++] = scale[k].edge[c * 4 + n + 2];
      }
    }
  }
  return i;
}

void NormsFromSums(const double sums[kNumChannels][6], int width, int height,
                   ScaleNorms* out) {
  const double one_per_px =
      1.0 / static_cast<double>(static_cast<size_t>(height) * width);
  auto l4 = [one_per_px](double sum) {
    return std::sqrt(std::sqrt(one_per_px * sum));
  };
  for (int c = 0; c < kNumChannels; ++c) {
    const double* s = sums[c];
    out->ssim[c * 2 + 0] = one_per_px * s[0];
    out->ssim[c * 2 + 1] = l4(s[1]);
    out->edge[c * 4 + 0] = one_per_px * s[2];
    out->edge[c * 4 + 1] = l4(s[3]);
    out->edge[c * 4 + 2] = one_per_px * s[4];
    out->edge[c * 4 + 3] = l4(s[5]);
  }
}

double Subscores::Score() const {
  double v[kNumWeights];
  const int count = InWeightOrder(v);
  double ssim = 0.0;
  for (int i = 0; i < count; ++i) {
    const double term = kWeight[i] * std::fabs(v[i]);
    ssim += term;
  }
  ssim *= 0.9562382616834844;
  ssim = 2.326765642916932 * ssim - 0.020884521182843837 * ssim * ssim +
         6.248496625763138e-05 * ssim * ssim * ssim;
  if (ssim > 0) {
    ssim = 100.0 - 10.0 * std::pow(ssim, 0.6276336467831387);
  } else {
    ssim = 100.0;
  }
  return ssim;
}

}  // namespace s2c
