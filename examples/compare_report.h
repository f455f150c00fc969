// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare's run and what it prints: the element's bus
// messages turned into text (one pair's score alone; for video the summary,
// per-frame lines with --frames), a progress line on a terminal, and the
// exit status. The alignment messages (--align auto) are not printed: the
// summary's offsets, realignments and align-flagged say what they said.
#ifndef S2C_EXAMPLES_COMPARE_REPORT_H_
#define S2C_EXAMPLES_COMPARE_REPORT_H_

#include <gst/gst.h>

#include "compare_pipeline.h"

// Exit codes: 0 scored; 1 the comparison failed, or the results file or
// the text is incomplete (a line could not be written); 2 the command line
// is wrong (an option, a missing input, -o naming an input); 3 scored, but
// a frame fell below --threshold; 4 with --strict, frames went unscored;
// 128 + N stopped by signal N (compare_signals.h), its results complete.
enum {
  kExitOk = 0,
  kExitFailed = 1,
  kExitUsage = 2,
  kExitBelowThreshold = 3,
  kExitUnscored = 4,
  kExitStoppedBase = 128
};

typedef struct {
  gboolean frames;    // --frames: a text line per frame
  gboolean text;      // text on standard output (not a results format)
  gboolean progress;  // a progress line on standard error (a terminal)
  gboolean scaling;   // --scale: the element's size mismatch hint is not ours
  gboolean quiet_fallback;  // no --backend: a fallback to the CPU is not printed
  gboolean aligned;   // --align auto or index: frame lines name the distorted frame
  double threshold;   // --threshold, or NaN
  GstElement* element;   // the ssimulacra2cmp element
  const Branch* inputs;  // the two inputs, to name the one a message is from
  guint64 frames_scored;
  guint64 below_threshold;
  gboolean write_failed;  // the element warned that the results file lost a line
  int stop_signal;        // the signal that stopped the run (0: none)
  GstStructure* first_frame;  // the first frame message's, owned
  GstStructure* summary;  // the last summary message's, owned
} Report;

// Plays the pipeline (already set up, maybe PAUSED after a seek) to EOS or
// the first error, collecting the element's messages; a stop signal
// (compare_signals.h) ends both inputs early. kExitOk or kExitFailed.
int RunAndCollect(GstElement* pipeline, Report* report);

// After the run: TRUE, with a message, when the results file (`location`;
// NULL: standard output) is incomplete: the summary's results-lost counts
// frames not written, or the element warned about the file.
gboolean ResultsIncomplete(const Report* report, const char* location);

// A uint64 field of a message's structure, or `fallback` when it (or the
// structure) is absent.
guint64 GetU64(const GstStructure* s, const char* field, guint64 fallback);

// After the run: one pair's score alone, else the summary line (text only).
// The score alone only for two single pictures (still images, or clips of
// one frame each): a pair scored out of longer inputs gets the summary,
// with its counts of what was not scored.
void PrintResult(const Report* report);

// After the run: TRUE, with a message, when standard output could not take
// all of the text (a full disk, a closed pipe).
gboolean TextIncomplete(void);

// The reference and distorted frames the summary counts as not scored: its
// ref-* and dist-* counters (unpaired, late, skipped, gaps, ...).
guint64 UnscoredFrames(const Report* report);

// Frees what the report owns.
void ClearReport(Report* report);

#endif  // S2C_EXAMPLES_COMPARE_REPORT_H_
