// SPDX-License-Identifier: BSD-3-Clause
// Which colour description the distorted stream is read with
// (docs/element.md, "Colour interpretation"; docs/decisions.md, D81): by
// default the reference's, wherever the two differ, because an encode of
// the same pictures labelled differently is by far the common case; with
// colorimetry-mode=per-stream each stream's own.
#ifndef S2C_GST_COLOUR_INTERPRETATION_H_
#define S2C_GST_COLOUR_INTERPRETATION_H_

#include <string>

#include "steps/frame.h"

namespace s2c {

// The colorimetry-mode property.
enum class ColorimetryMode : int { kReference = 0, kPerStream = 1 };

// "reference" or "per-stream", the property's nicks.
const char* ColorimetryModeName(ColorimetryMode mode);

// The distorted stream's description as read.
struct DistReading {
  FrameDesc desc;
  // The parts of the distorted stream's own description replaced by the
  // reference's, "name own -> reference's" joined by ", " (e.g. "matrix
  // bt601 -> bt709, chroma-site jpeg -> mpeg2"); empty when nothing was.
  std::string adopted;
};

// `dist` (its own description, from its caps) as read next to `ref`: with
// kReference, the reference's matrix and range where both are YUV, its
// chroma siting in each direction where both have subsampled chroma, and
// its primaries where neither is gray; with kPerStream, `dist` unchanged.
// Both descriptions are ones DescribeFormat accepts.
DistReading ReadDist(const FrameDesc& ref, const FrameDesc& dist, ColorimetryMode mode);

}  // namespace s2c

#endif  // S2C_GST_COLOUR_INTERPRETATION_H_
