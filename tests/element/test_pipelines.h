// SPDX-License-Identifier: BSD-3-Clause
// What the element tests share: pipeline descriptions around the element
// named "cmp" and the checks their results get. Scores are compared as bits.
#ifndef S2C_TESTS_ELEMENT_TEST_PIPELINES_H_
#define S2C_TESTS_ELEMENT_TEST_PIPELINES_H_

// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <string>
#include <vector>

#include <gst/check/gstcheck.h>

#include "check.h"

namespace s2c_test {

constexpr int kWidth = 64;
constexpr int kHeight = 48;

using s2c::test::SameBits;

inline void AssertBits(double got, double want) {
  fail_unless(SameBits(got, want), "score %.17g, expected %.17g", got, want);
}

inline bool Contains(const std::vector<std::string>& texts, const char* needle) {
  for (const std::string& t : texts) {
    if (t.find(needle) != std::string::npos) return true;
  }
  return false;
}

inline std::string Source(int frames, const char* caps, const char* pattern = "smpte") {
  return "videotestsrc num-buffers=" + std::to_string(frames) + " pattern=" + pattern +
         " ! " + caps;
}

// kWidth x kHeight I420 at `fps` frames per second.
inline std::string I420(int fps) {
  return "video/x-raw,format=I420,width=" + std::to_string(kWidth) +
         ",height=" + std::to_string(kHeight) + ",framerate=" + std::to_string(fps) + "/1";
}

// ref and dist from two sources; output to the fakesink "out".
inline std::string TwoSources(const std::string& ref, const std::string& dist) {
  return ref + " ! cmp.ref_sink " + dist +
         " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out";
}

}  // namespace s2c_test

#endif  // S2C_TESTS_ELEMENT_TEST_PIPELINES_H_
