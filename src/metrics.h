// SPDX-License-Identifier: BSD-3-Clause
// Which metrics a pair is scored with, and SSIM's result (the other
// metric's is subscores.h's). Plain data shared by the backends, the
// element and the tools.
#ifndef S2C_METRICS_H_
#define S2C_METRICS_H_

namespace s2c {

// Bits of a metric set; the element's "metrics" flags have the same values.
enum Metric : unsigned {
  kMetricSsimulacra2 = 1u << 0,  // SSIMULACRA 2.1 (libjxl)
  kMetricSsim = 1u << 1,         // SSIM as Xiph's daala tools/dump_ssim
};
constexpr unsigned kAllMetrics = kMetricSsimulacra2 | kMetricSsim;

// SSIM of one frame pair (docs/metric.md, "SSIM").
struct SsimResult {
  double plane[3] = {0.0, 0.0, 0.0};  // Y', Cb, Cr
  // dump_ssim's chroma weight k: 0.25 for 4:2:0, 0.5 for 4:2:2, 1 for 4:4:4.
  double chroma_weight = 0.0;
  double combined = 0.0;     // (Y' + k (Cb + Cr)) / (1 + 2k)
  double combined_db = 0.0;  // 10 (log10(1 + 2k) - log10(1 + 2k - sum)); +inf at 1
  double plane_db[3] = {0.0, 0.0, 0.0};
};

}  // namespace s2c

#endif  // S2C_METRICS_H_
