// SPDX-License-Identifier: BSD-3-Clause
// Ctrl-C (SIGINT) and SIGTERM for ssimulacra2cmp-compare. During a run the
// first one ends both inputs where they are, as if they had ended there
// (EOS into the element's sink pads): the element scores what it holds and
// writes its summary, the tool prints its text and closes the results file
// as after a whole run, and exits with 128 + the signal's number (130,
// 143). A second one, or one before the run starts, ends the tool at once.
// A thread of its own waits for them (sigwait), so no work is done in a
// signal handler.
#ifndef S2C_EXAMPLES_COMPARE_SIGNALS_H_
#define S2C_EXAMPLES_COMPARE_SIGNALS_H_

#include <gst/gst.h>

// Blocks SIGINT and SIGTERM and starts the thread that waits for them. The
// first thing main does: threads inherit the mask, so every thread started
// later leaves the signals to that one.
void WatchStopSignals(void);

// From here on a stop signal posts an application message (IsStopMessage)
// on `bus`; with NULL, the run is over and one more is ignored.
void SetStopTarget(GstBus* bus);

// The signal's number when `msg` is the stop message, else 0.
int StopSignalOf(GstMessage* msg);

#endif  // S2C_EXAMPLES_COMPARE_SIGNALS_H_
