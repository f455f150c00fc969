// SPDX-License-Identifier: BSD-3-Clause
// Test helper: runs a pipeline description that contains an element named
// "cmp" (ssimulacra2cmp) and a fakesink named "out", to EOS or error, and
// collects what the element said, read through the typed message structs.
#ifndef S2C_TESTS_ELEMENT_PIPELINE_RUN_H_
#define S2C_TESTS_ELEMENT_PIPELINE_RUN_H_

#include <gst/gst.h>

#include <functional>
#include <string>
#include <vector>

#include "score_message.h"
#include "score_meta.h"

namespace s2c_test {

struct OutBuffer {
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  double arrival = 0.0;  // seconds on the steady clock when it reached "out"

  bool has_meta = false;
  s2c::ScoreMeta meta;
};

struct RunResult {
  std::vector<s2c::FrameMessage> frames;
  std::vector<s2c::SummaryMessage> summaries;
  std::vector<s2c::ThresholdMessage> alarms;
  std::vector<s2c::FeedMessage> feeds;
  std::vector<s2c::WindowMessage> windows;
  std::vector<s2c::CoverageMessage> coverage;
  std::vector<s2c::AlignmentMessage> alignments;
  std::vector<std::string> warnings;  // texts of warning messages
  std::vector<std::string> errors;    // texts of error messages
  std::vector<OutBuffer> out;         // buffers that reached "out"
  bool eos = false;
};

// "cpu" unless S2C_TEST_BACKEND says otherwise ("cuda" on the GPU machine).
const char* TestBackend();

// Called with the pipeline and what was collected after each bus message;
// true ends the run there (the pipeline is stopped before EOS).
using Watch = std::function<bool(GstElement* pipeline, const RunResult& so_far)>;

// Parses `description`, sets cmp's backend to TestBackend() (and `props`,
// "name=value" pairs as gst-launch spells them, applied with
// gst_util_set_object_arg), calls `prepare` (e.g. to feed an appsrc), plays
// it to EOS or error, or until `watch` ends it.
RunResult RunPipeline(const std::string& description,
                      const std::vector<std::string>& props = {},
                      const std::function<void(GstElement*)>& prepare = nullptr,
                      const Watch& watch = nullptr);

// Fills `result` from one bus message; true when the message ended the run.
bool Collect(GstMessage* message, RunResult* result);

}  // namespace s2c_test

#endif  // S2C_TESTS_ELEMENT_PIPELINE_RUN_H_
