// SPDX-License-Identifier: BSD-3-Clause
// What the canonical tool (libjxl's PNG reader) makes of a PNG's header
// chunks, against what GStreamer's pngdec gives the element: pngdec hands
// over the samples alone, scaled to 8 or 16 bits, and reads no colour
// chunk; the canonical tool converts the colours described by iCCP, gAMA,
// cHRM or cICP to sRGB with a colour management system, blends the
// transparency of tRNS, and scales samples by the bits sBIT or a grey bit
// depth below 8 gives. GStreamer 1.22's pngdec also shifts 16-bit samples
// with colour or alpha by one word (docs/element.md).
#include "png_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t BigEndian32(const unsigned char* p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static const char* SixteenBitRefusal(int colour_type) {
  switch (colour_type) {
    case 2:
      return "is a 16-bit RGB PNG, which GStreamer 1.22's pngdec decodes wrongly; decode it "
             "with another tool";
    case 4:
      return "is a 16-bit grey-and-alpha PNG, which GStreamer 1.22's pngdec decodes wrongly; "
             "decode it with another tool";
    case 6:
      return "is a 16-bit RGBA PNG, which GStreamer 1.22's pngdec decodes wrongly; decode it "
             "with another tool";
    default:
      return NULL;
  }
}

// The chunks before the first IDAT (where the PNG specification puts every
// chunk that matters here), as far as the refusal needs them.
typedef struct {
  int depth, colour_type;
  int srgb, gama, chrm, iccp, trns;
  int cicp_not_srgb;
  int sbit_below_depth;
} Header;

// FALSE when the file is not a PNG or ends before its first IDAT.
static int ReadHeader(FILE* f, Header* h) {
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  unsigned char head[8];
  if (fread(head, 1, 8, f) != 8 || memcmp(head, kSignature, 8) != 0) return 0;
  memset(h, 0, sizeof *h);
  h->colour_type = -1;
  for (;;) {
    if (fread(head, 1, 8, f) != 8) return 0;
    const uint32_t length = BigEndian32(head);
    const char* type = (const char*)head + 4;
    if (memcmp(type, "IDAT", 4) == 0) return h->colour_type >= 0;
    unsigned char body[13];
    const size_t kept = length < sizeof body ? length : sizeof body;
    if (fread(body, 1, kept, f) != kept) return 0;
    if (memcmp(type, "IHDR", 4) == 0 && length == 13) {
      h->depth = body[8];
      h->colour_type = body[9];
    } else if (memcmp(type, "sRGB", 4) == 0) {
      h->srgb = 1;
    } else if (memcmp(type, "gAMA", 4) == 0) {
      h->gama = 1;
    } else if (memcmp(type, "cHRM", 4) == 0) {
      h->chrm = 1;
    } else if (memcmp(type, "iCCP", 4) == 0) {
      h->iccp = 1;
    } else if (memcmp(type, "tRNS", 4) == 0) {
      h->trns = 1;
    } else if (memcmp(type, "cICP", 4) == 0) {
      // sRGB's code points: BT.709 primaries, the sRGB transfer, RGB, full range.
      static const unsigned char kSrgb[4] = {1, 13, 0, 1};
      h->cicp_not_srgb = length != 4 || memcmp(body, kSrgb, 4) != 0;
    } else if (memcmp(type, "sBIT", 4) == 0) {
      const int sample_bits = h->colour_type == 3 ? 8 : h->depth;  // palette: 8-bit entries
      for (size_t i = 0; i < kept; ++i) h->sbit_below_depth |= body[i] < sample_bits;
    }
    if (fseek(f, (long)(length - kept) + 4, SEEK_CUR) != 0) return 0;  // the rest, the CRC
  }
}

const char* PngRefusal(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  Header h;
  const int ok = ReadHeader(f, &h);
  fclose(f);
  if (!ok) return NULL;
  if (h.depth == 16 && SixteenBitRefusal(h.colour_type) != NULL) {
    return SixteenBitRefusal(h.colour_type);
  }
  if (h.iccp) {
    return "has an ICC profile (iCCP chunk), from which the canonical tool converts its "
           "colours to sRGB, and the element does not";
  }
  if ((h.gama || h.chrm) && !h.srgb) {
    return "has a gAMA or cHRM chunk and no sRGB chunk, so the canonical tool converts its "
           "colours to sRGB from that gamma or those primaries, and the element does not";
  }
  if (h.cicp_not_srgb) {
    return "has a cICP chunk that does not say sRGB, from which the canonical tool may convert "
           "its colours, and the element does not";
  }
  if (h.trns && h.colour_type != 3) {
    return "has a tRNS chunk, whose transparency the canonical tool blends and GStreamer's "
           "pngdec drops";
  }
  if (h.colour_type == 0 && h.depth < 8) {
    return "is a grey PNG of fewer than 8 bits a sample, which the canonical tool scales "
           "otherwise than GStreamer's pngdec";
  }
  if (h.sbit_below_depth) {
    return "has an sBIT chunk, by whose significant bits the canonical tool scales its "
           "samples, and GStreamer's pngdec does not";
  }
  return NULL;
}
