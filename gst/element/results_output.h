// SPDX-License-Identifier: BSD-3-Clause
// The element's results file (results-location): opened at start, a record
// for each scored frame, a summary where each segment ends, the last one
// saying how the run ended; and what a record that the file cannot take
// does (results-write-failure).
#ifndef S2C_GST_RESULTS_OUTPUT_H_
#define S2C_GST_RESULTS_OUTPUT_H_

#include <string>

#include "element_state.h"

namespace s2c {

// Opens `location`, when set (to append with results-append), and writes
// the header. False after posting an element error.
bool OpenResults(GstSsimulacra2Cmp* self, const ElementSettings& s, const std::string& location);

// A scored frame's record. GST_FLOW_ERROR after posting an element error
// (results-write-failure=error); otherwise a record not written is counted
// in results-lost.
GstFlowReturn WriteFrameResults(GstSsimulacra2Cmp* self, const FrameMessage& frame);

// Ends the segment for `reason`, "flush" or "eos": its summary goes to the
// file and is posted. A flush begins the next segment; EOS completes the
// file. GST_FLOW_ERROR after posting an element error.
GstFlowReturn EndSegment(GstSsimulacra2Cmp* self, const char* reason);

// At stop: a file that EOS did not complete gets the last segment's
// summary, reason "error" when the element posted an error, else "stop";
// then it is closed.
void CloseResults(GstSsimulacra2Cmp* self);

}  // namespace s2c

#endif  // S2C_GST_RESULTS_OUTPUT_H_
