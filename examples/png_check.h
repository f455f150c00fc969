// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-compare's look at a PNG file before decoding it: the PNGs
// whose canonical score cannot come out of the element, because the
// canonical tool reads them differently from GStreamer's pngdec, are
// recognised from their chunks before the first IDAT and refused, rather
// than scored with a number that looks right and is not (docs/element.md,
// "Still images").
#ifndef S2C_EXAMPLES_PNG_CHECK_H_
#define S2C_EXAMPLES_PNG_CHECK_H_

// NULL for a file that is not a PNG (the decoder says what it is) or a PNG
// that pngdec and the canonical tool read alike; otherwise why it is
// refused, a phrase that follows the file's name ("is a 16-bit RGB PNG,
// which ...; decode it with another tool").
const char* PngRefusal(const char* path);

#endif  // S2C_EXAMPLES_PNG_CHECK_H_
