// SPDX-License-Identifier: BSD-3-Clause
// Test helper: moving pictures made in the test, for the element's
// alignment. Frame `c` of a clip is a kPanWidth x kPanHeight window onto a
// smooth landscape, seen at kPanScale landscape units per pixel and moved
// kPanStep units to the right per frame, so that every frame differs from
// its neighbours at the aligner's thumbnail scale and no two frames within
// a few dozen of each other look alike. The frames are small, so that the
// element's tests score them quickly under the sanitizers too. The
// distorted version of a frame is the same picture coarsely quantized with
// a fixed dither, so that its scores vary from frame to frame.
#ifndef S2C_TESTS_ELEMENT_PAN_CLIP_H_
#define S2C_TESTS_ELEMENT_PAN_CLIP_H_

#include <gst/gst.h>

#include <string>
#include <vector>

namespace s2c_test {

constexpr int kPanWidth = 128;
constexpr int kPanHeight = 72;
constexpr int kPanScale = 2;
constexpr int kPanStep = 6;
constexpr GstClockTime kPanFrame = 40 * GST_MSECOND;  // 25 fps

// Frames of another part of the landscape, far from the clip's, as a
// stream's unrelated lead-in.
constexpr int kElsewhere = 1000;

enum class PanFormat { kI420, kRgb };

// The caps of the clip's frames.
std::string PanCaps(PanFormat format);

// Frame `content` of the clip (distorted or not), timestamped `pts`, one
// kPanFrame long, numbered `number` (offset number, offset_end number + 1)
// when it is not negative.
GstBuffer* PanFrame(PanFormat format, int content, bool distorted, GstClockTime pts,
                    int number = -1);

// The frames `contents` of a stream, frame j at pts[j] (j * kPanFrame when
// `pts` is empty) and numbered j, pushed into the appsrc `name` of
// `pipeline`, then its end of stream.
void PushClip(GstElement* pipeline, const char* name, PanFormat format,
              const std::vector<int>& contents, bool distorted,
              const std::vector<GstClockTime>& pts = {});

// contents first, first + 1, ..., first + n - 1.
std::vector<int> Run(int first, int n);

// `a` then `b`.
std::vector<int> Then(std::vector<int> a, const std::vector<int>& b);

}  // namespace s2c_test

#endif  // S2C_TESTS_ELEMENT_PAN_CLIP_H_
