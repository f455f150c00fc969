// SPDX-License-Identifier: BSD-3-Clause
// Test helper for the gst-check suites: one ssimulacra2cmp in GstHarnesses,
// a harness on each sink pad (the reference one also takes the output), a
// private bus, and small RGB frames. GstHarness reports a live source and
// gives the element a GstTestClock: time moves only when a test moves it.
#ifndef S2C_TESTS_ELEMENT_ELEMENT_HARNESS_H_
#define S2C_TESTS_ELEMENT_ELEMENT_HARNESS_H_

// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <string>
#include <vector>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>

#include "pipeline_run.h"

namespace s2c_test {

constexpr GstClockTime kFrame = 40 * GST_MSECOND;  // 25 fps

struct Harnesses {
  GstHarness* ref = nullptr;
  GstHarness* dist = nullptr;
  GstBus* bus = nullptr;
  RunResult seen;
};

// The element on TestBackend() with live-policy=wait (the frames pushed
// here carry no real-time schedule unless a test gives them one), then
// `props` ("name=value"), both pads with `caps`.
Harnesses MakeHarnesses(
    const std::vector<std::string>& props,
    const char* caps = "video/x-raw,format=RGB,width=16,height=16,framerate=25/1");

// The clock the element runs on (the harnesses' GstTestClock), with a
// reference the caller drops.
GstTestClock* ElementClock(const Harnesses& h);

// Drains the private bus into h->seen (non-blocking).
void Poll(Harnesses* h);

void Teardown(Harnesses* h);

// A side x side (16 unless given) RGB frame of kFrame whose content depends
// on `seed` (two frames of one seed are identical).
GstBuffer* Frame(int seed, GstClockTime pts, int side = 16);

void PushPair(Harnesses* h, int ref_seed, int dist_seed, GstClockTime pts);

void EndBoth(Harnesses* h);

// Pulls `n` buffers; returns their metas (has_meta false for unscored ones).
std::vector<OutBuffer> PullOut(Harnesses* h, int n);

// Waits (up to 10 s) until the bus has shown a summary.
void WaitForSummary(Harnesses* h);

// Waits (up to 10 s) for an error on the private bus and returns its text.
std::string WaitForError(Harnesses* h);

}  // namespace s2c_test

#endif  // S2C_TESTS_ELEMENT_ELEMENT_HARNESS_H_
