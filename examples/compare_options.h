// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare's command line: the options, the inputs they name,
// and their checks. Every number is read as text and checked here: the
// tool's own against their meaning, those that set a property of the
// element against that property's range (SetNumberProperty). A wrong value
// is a usage error with a message, never a GLib warning.
#ifndef S2C_EXAMPLES_COMPARE_OPTIONS_H_
#define S2C_EXAMPLES_COMPARE_OPTIONS_H_

#include <gst/gst.h>

#include "compare_raw.h"

typedef struct {
  gchar* backend;
  gchar* device_fp64;  // the element's device-fp64
  gchar* colorimetry;  // the element's colorimetry-mode
  gchar* align;        // the element's align: off, auto or index
  gchar* metric;
  gchar* format;  // the results file's (with -o, from its name unless given)
  gchar* output;
  gboolean frames;
  gboolean scale;
  gboolean strict;
  gboolean version;
  // The element's numbers as given (NULL: not given), for SetNumberProperty.
  gchar* device;
  gchar* threads;
  gchar* threshold;
  gchar* dist_offset;  // seconds
  gchar* align_window;
  gchar* ref_start_frame;
  gchar* dist_start_frame;
  // The tool's own numbers as given, then as read.
  gchar* start_text;
  gchar* end_text;
  gchar* every_text;
  gchar* size;
  gchar* pixel_format;
  gchar* fps;
  GstClockTime start;  // 0 when not given
  GstClockTime end;    // GST_CLOCK_TIME_NONE when not given
  guint every;         // 1 when not given
  RawVideo raw;        // with --size: how .yuv inputs are read
  const char* inputs[2];  // REF and DIST, from argv
} Options;

// Reads the command line, and GStreamer's own options (initialising it).
// kExitOk; or with --help, kExitOk after the help; else the exit status
// after a message.
int ParseCommandLine(int* argc, char*** argv, Options* o);

// Checks what the inputs are: each there (a file) or a URI, not a 16-bit
// RGB PNG, a .yuv file described by --size and a whole number of its
// frames, and neither of them the results file. kExitOk, or the exit
// status after a message.
int CheckInputs(const Options* o);

// TRUE when --align pairs frames by their number (auto or index) rather
// than by time.
gboolean AlignsByNumber(const Options* o);

// Sets `property` of `element` (an int, uint, uint64, double, or int64 of
// nanoseconds, which the option gives in seconds) from `text`, the value of
// `option`. FALSE, with a message, when the text is not a number in the
// property's range.
gboolean SetNumberProperty(GstElement* element, const char* property, const char* option,
                           const char* text);

void ClearOptions(Options* o);

#endif  // S2C_EXAMPLES_COMPARE_OPTIONS_H_
