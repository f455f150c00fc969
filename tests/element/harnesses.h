// SPDX-License-Identifier: BSD-3-Clause
// Test helper: one ssimulacra2cmp element driven by a GstHarness on each
// sink pad (the reference harness also takes the output), its messages on a
// private bus, and RGB frames whose content depends on a seed. GstHarness
// reports a live source and gives the element a GstTestClock: time moves
// only when a test moves it.
#ifndef S2C_TESTS_ELEMENT_HARNESSES_H_
#define S2C_TESTS_ELEMENT_HARNESSES_H_

#include <string>
#include <vector>

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

  GstElement* element() const { return ref->element; }
};

// An element on TestBackend() with `props` ("name=value") and
// live-policy=wait: GstHarness's frames carry no real-time schedule, so
// these tests wait for every score (test_live.cc covers the deadline).
// Both pads get `caps`.
Harnesses MakeHarnesses(
    const std::vector<std::string>& props,
    const char* caps = "video/x-raw,format=RGB,width=16,height=16,framerate=25/1");

// The clock the element runs on (the harnesses' GstTestClock), with a
// reference the caller drops.
GstTestClock* ElementClock(const Harnesses& h);

// Drains the private bus into h->seen (non-blocking).
void Poll(Harnesses* h);

void Teardown(Harnesses* h);

// A width x height RGB frame whose content depends on `seed` (two frames of
// one seed are identical), timestamped `pts`, one kFrame long.
GstBuffer* Frame(int seed, GstClockTime pts, int width = 16, int height = 16);

void PushPair(Harnesses* h, int ref_seed, int dist_seed, GstClockTime pts);

void EndBoth(Harnesses* h);

// A flush on both sink pads, as a flushing seek gives (FLUSH_START and
// FLUSH_STOP of one seqnum), then a new segment on each.
void FlushBoth(Harnesses* h);

// Pulls `n` buffers; returns their metas (has_meta false for unscored ones).
std::vector<OutBuffer> PullOut(Harnesses* h, int n);

// Waits (up to 10 s) until the bus has shown `n` summaries.
void WaitForSummary(Harnesses* h, size_t n = 1);

// Waits (up to 10 s) for an error on the private bus and returns its text
// ("" when none came).
std::string WaitForError(Harnesses* h);

// Waits (up to 10 s) for a warning on the private bus whose text holds
// `needle` and returns that text ("" when none came).
std::string WaitForWarning(Harnesses* h, const std::string& needle);

}  // namespace s2c_test

#endif  // S2C_TESTS_ELEMENT_HARNESSES_H_
