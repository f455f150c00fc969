// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare's pipeline: each input (a file or a URI) decoded
// and converted into one sink pad of the element, optionally cut to a time
// range (--start/--end) and thinned to every Nth frame (--every).
#ifndef S2C_EXAMPLES_COMPARE_PIPELINE_H_
#define S2C_EXAMPLES_COMPARE_PIPELINE_H_

#include <gst/gst.h>

typedef struct {
  const char* role;      // "reference" or "distorted"
  const char* location;  // a file name, or a URI (it has "://")
  GstClockTime start;    // first timestamp scored (0: from the beginning)
  GstClockTime end;      // timestamps from here on end the input (NONE: none)
  guint every;           // keep frames 0, every, 2 * every, ... of the range (1: all)
  GstElement* convert;   // where the first video stream goes
  guint64 frames_seen;   // frames in the range so far, for `every`
} Branch;

// TRUE when `location` is a URI rather than a file name.
gboolean IsUri(const char* location);

// (filesrc ! decodebin | uridecodebin) ! videoconvert ! cmp.<pad_name>.
// FALSE (and a message) when an element is missing.
gboolean AddBranch(GstElement* pipeline, GstElement* cmp, const char* pad_name,
                   Branch* branch);

#endif  // S2C_EXAMPLES_COMPARE_PIPELINE_H_
