// SPDX-License-Identifier: BSD-3-Clause
#include "ssim_planes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "frontend.h"
#include "steps/ssim_steps.h"

namespace s2c {
namespace {

double Decibels(double ssim, double weight) {
  return 10 * (std::log10(weight) - std::log10(weight - ssim));
}

// The taps of a window of `win` centred on position i of a line of n that
// fall inside the line.
std::vector<int> TapsInside(const std::vector<int>& win, int n) {
  const int offs = static_cast<int>(win.size()) / 2;
  std::vector<int> sums(n);
  for (int i = 0; i < n; ++i) {
    int sum = 0;
    for (int k = std::max(0, offs - i); k < std::min<int>(win.size(), n - i + offs); ++k) sum += win[k];
    sums[i] = sum;
  }
  return sums;
}

// A format's name for a message.
std::string FormatText(PixelFormat format) {
  const char* name = PixelFormatName(format);
  return name != nullptr ? name : "an unknown format";
}

}  // namespace

Status CheckSsimFormats(PixelFormat ref, PixelFormat dist) {
  if (!IsYuv(ref) || ref != dist) {
    return InvalidArgument("SSIM compares YUV frames of one format; got " +
                           FormatText(ref) + " and " + FormatText(dist) +
                           ": insert videoconvert ! video/x-raw,format=I420 before both pads");
  }
  return Status::Ok();
}

std::vector<int> SsimWindow(double sigma, int max_len) {
  // dump_ssim's gaussian_filter_init, operation for operation: the first
  // truncated coefficient would be at most half a unit of the 2^8 scale.
  const double pi = 3.141592653589793238462643;
  const int weight = 1 << kSsimKernelShift;
  const double scale = 1 / (std::sqrt(2 * pi) * sigma);
  const double nhisigma2 = -0.5 / (sigma * sigma);
  const double s = std::sqrt(0.5 * pi) * sigma * (1.0 / weight);
  const double len = s >= 1 ? 0 : std::floor(sigma * std::sqrt(-2 * std::log(s)));
  const int half = len >= max_len ? max_len - 1 : static_cast<int>(len);
  std::vector<int> window(2 * half + 1);
  unsigned sum = 0;
  for (int ci = half; ci > 0; ci--) {
    const unsigned v = static_cast<unsigned>(weight * scale * std::exp(nhisigma2 * ci * ci) + 0.5);
    window[half - ci] = window[half + ci] = static_cast<int>(v);
    sum += v;
  }
  window[half] = static_cast<int>(weight - (sum << 1));
  return window;
}

SsimPlaneGeometry SsimGeometry(const FrameLayout& layout, int k, double pixel_aspect) {
  SsimPlaneGeometry g;
  g.width = k == 0 ? layout.width : layout.chroma_width;
  g.height = k == 0 ? layout.height : layout.chroma_height;
  const double sigma = g.height * (1.5 / 256);
  g.vwin = SsimWindow(sigma, std::min(g.width, g.height));
  g.hwin = SsimWindow(sigma / pixel_aspect, std::min(g.width, g.height));
  g.hsum = TapsInside(g.hwin, g.width);
  g.vsum = TapsInside(g.vwin, g.height);
  int64_t across = 0, down = 0;
  for (int v : g.hsum) across += v;
  for (int v : g.vsum) down += v;
  g.weight = static_cast<double>(across * down);
  return g;
}

SsimResult SsimFromSums(const SsimSums sums[3], const FrameLayout& l) {
  SsimResult r;
  for (int k = 0; k < 3; ++k) {
    r.plane[k] = sums[k].terms / sums[k].weights;
    r.plane_db[k] = Decibels(r.plane[k], 1);
  }
  // dump_ssim: 0.25 * (4 >> (horizontally subsampled + vertically subsampled)).
  r.chroma_weight = 0.25 * (4 >> ((l.chroma_shift_x > 0) + (l.chroma_shift_y > 0)));
  const double sum = r.plane[0] + r.chroma_weight * (r.plane[1] + r.plane[2]);
  const double weight = 1 + 2 * r.chroma_weight;
  r.combined = sum / weight;
  r.combined_db = Decibels(sum, weight);
  return r;
}

}  // namespace s2c
