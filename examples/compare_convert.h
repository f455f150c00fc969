// SPDX-License-Identifier: BSD-3-Clause
// What ssimulacra2cmp-compare converts the inputs to before the element,
// when an option asks for it (else each input keeps its decoded format and
// size, and a mismatch is the element's error):
// - --scale: the distorted frames take the reference's size and pixel
//   aspect ratio (videoscale).
// - SSIM (--metric ssim or both): both inputs take one YUV format, since
//   SSIM compares the YUV samples of one format: the reference's when it
//   decodes to a YUV format the element takes, else the distorted input's,
//   else I420. A note on standard error says which input is converted.
// Each needs the other input's decoded caps, so each input waits at its
// videoconvert (a blocking pad probe) until both are known; a later caps
// change updates the conversion.
#ifndef S2C_EXAMPLES_COMPARE_CONVERT_H_
#define S2C_EXAMPLES_COMPARE_CONVERT_H_

#include <gst/gst.h>

#include "compare_pipeline.h"

typedef struct Conversion Conversion;

typedef struct {
  Conversion* conversion;
  int index;  // 0: reference, 1: distorted
} ConversionSide;

struct Conversion {
  gboolean yuv;          // SSIM: one YUV format
  gboolean note_scores;  // SSIMULACRA 2 is scored too: the note says so
  GstCaps* taken;        // the element's sink caps: the formats it takes
  Branch* branches[2];
  GstPad* pads[2];  // each input's videoconvert sink pad
  ConversionSide sides[2];
  GMutex lock;  // guards what follows
  GstCaps* decoded[2];
  gulong waits[2];  // the blocking probes; 0 once removed
  gboolean noted[2];
};

// Watches both inputs (built by AddBranch; `ref->scale` false,
// `dist->scale` for --scale) and converts them as above. `ssimulacra2`:
// SSIMULACRA 2 is scored too.
void StartConversion(Conversion* c, Branch* ref, Branch* dist, gboolean yuv,
                     gboolean ssimulacra2, GstElement* cmp);

// After the pipeline is gone.
void ClearConversion(Conversion* c);

#endif  // S2C_EXAMPLES_COMPARE_CONVERT_H_
