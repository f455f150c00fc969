// SPDX-License-Identifier: BSD-3-Clause
// What align=auto adds per frame pair, apart from the element's queues: the
// thumbnails of both frames (MakeThumbnail over the luma plane) and the
// aligner's votes and verdicts (FrameAligner), on I420 frames of the
// element benchmark's feed (frame_feed.h). Its frames repeat every
// kDistinctFrames, so no offset is ever decided: every reference frame's
// vote searches the whole window, the aligner's most costly state. The
// median of `runs` runs of `pairs` pairs, after one untimed run; beside
// bench_element's time per pair with align=off, it says what share of the
// element's time alignment takes, without the noise of two end-to-end runs.
//
//   bench_align [width height [pairs [runs [window]]]]
//   defaults: 1920 1080 400 9 12
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "frame_aligner.h"
#include "frame_feed.h"

namespace {

using s2c::AlignVerdict;
using s2c::FrameAligner;
using s2c::Thumbnail;
using s2c_bench::Frames;
using s2c_bench::kDistinctFrames;

Thumbnail LumaThumbnail(const std::vector<guint8>& frame, int w, int h) {
  return s2c::MakeThumbnail(frame.data(), w, h, w, 1, 1, 8, 0);
}

// Seconds per pair of one run; `verdicts` counts the verdicts given.
double RunPairs(const Frames& ref, const Frames& dist, int w, int h, int pairs, int window,
                int* verdicts) {
  const auto t0 = std::chrono::steady_clock::now();
  FrameAligner aligner(s2c::AlignMode::kAuto, window);
  AlignVerdict verdict;
  s2c::AlignEvent event;
  for (int i = 0; i < pairs; ++i) {
    aligner.AddRef(LumaThumbnail(ref[i % kDistinctFrames], w, h));
    aligner.AddDist(LumaThumbnail(dist[i % kDistinctFrames], w, h));
    while (aligner.Next(false, &verdict)) ++*verdicts;
    while (aligner.TakeEvent(&event)) {
    }
  }
  aligner.EndRef();
  aligner.EndDist();
  while (aligner.Next(false, &verdict)) ++*verdicts;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / pairs;
}

}  // namespace

int main(int argc, char** argv) {
  const int w = argc > 2 ? std::atoi(argv[1]) : 1920;
  const int h = argc > 2 ? std::atoi(argv[2]) : 1080;
  const int pairs = argc > 3 ? std::atoi(argv[3]) : 400;
  const int runs = argc > 4 ? std::atoi(argv[4]) : 9;
  const int window = argc > 5 ? std::atoi(argv[5]) : 12;
  if (w < s2c::kThumbCols || h < s2c::kThumbRows || pairs < 1 || runs < 1 || window < 1) {
    std::fprintf(stderr, "usage: bench_align [width height [pairs [runs [window]]]]\n");
    return 2;
  }
  const Frames ref = s2c_bench::MakeFrames(w, h, false);
  const Frames dist = s2c_bench::MakeFrames(w, h, true);
  int verdicts = 0;
  RunPairs(ref, dist, w, h, pairs, window, &verdicts);
  std::vector<double> seconds;
  for (int r = 0; r < runs; ++r) {
    verdicts = 0;
    seconds.push_back(RunPairs(ref, dist, w, h, pairs, window, &verdicts));
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("%dx%d I420, align-window %d: thumbnails and aligner %.1f us per pair (median of %d "
              "runs of %d pairs; %.1f to %.1f), %d verdicts a run\n",
              w, h, window, 1e6 * seconds[seconds.size() / 2], runs, pairs, 1e6 * seconds.front(),
              1e6 * seconds.back(), verdicts);
  return verdicts == pairs ? 0 : 1;
}
