// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare's pipeline: each input (a file, a URI, or a raw
// .yuv file) read, decoded and converted into one sink pad of the element,
// in a bin named after its role, optionally cut to a time range
// (--start/--end) and thinned to every Nth frame (--every). Each frame
// leaves numbered: its buffer offset is its frame number in the input, the
// element's frame-index.
#ifndef S2C_EXAMPLES_COMPARE_PIPELINE_H_
#define S2C_EXAMPLES_COMPARE_PIPELINE_H_

#include <gst/gst.h>

#include "compare_raw.h"

typedef struct {
  const char* role;      // "reference" or "distorted"
  const char* location;  // a file name, or a URI (it has "://")
  const RawVideo* raw;   // how to read a .yuv file; NULL: decodebin
  GstClockTime start;    // first running time scored (0: from the beginning)
  GstClockTime end;      // running times from here on end the input (NONE: none)
  guint every;           // keep frames 0, every, 2 * every, ... of the range (1: all)
  gboolean scale;        // videoscale before the element (compare_convert.h sets its size)
  GstElement* element;   // the ssimulacra2cmp element (AddBranch sets it)
  GstElement* bin;       // the input's elements
  GstElement* convert;   // where the decoded video goes
  GstElement* filter;    // the caps the input is converted to (compare_convert.h)
  guint64 decoded;       // frames decoded so far: the next one's number
  guint64 in_range;      // frames from `start` on so far, for `every`
} Branch;

// TRUE when `location` is a URI rather than a file name.
gboolean IsUri(const char* location);

// (filesrc ! (decodebin | rawvideoparse) | uridecodebin) ! videoconvert
// [! videoscale] ! capsfilter ! cmp.<pad_name>. FALSE (and a message) when
// an element is missing.
gboolean AddBranch(GstElement* pipeline, GstElement* cmp, const char* pad_name,
                   Branch* branch);

// NULL when the element (its ref_sink pad template) takes frames of
// `width` x `height`; else why not, the element's own words ("frames of 7x7
// are below the 8x8 minimum"), to free.
gchar* SizeRefusal(GstElement* element, gint width, gint height);

// The branch of `count` whose bin holds `object`, or NULL.
const Branch* BranchOf(GstObject* object, const Branch* branches, int count);

#endif  // S2C_EXAMPLES_COMPARE_PIPELINE_H_
