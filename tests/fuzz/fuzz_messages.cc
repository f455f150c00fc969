// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer harness: GstStructures built from the input bytes, read back as
// the element's messages. The input picks the structure's name, then fields
// one after another: a name (one the messages use, or another), a type
// (double, uint64, int64, int, boolean, string) and a value, so the fuzzer
// reaches missing fields, wrong types, unknown kinds and odd values. The
// vocabulary comes from real messages (ToStructure), so no name is spelled
// twice. Anything that is not one of our messages, or a malformed one, must
// be refused, never read out of bounds. (Structures are not parsed from
// text: GStreamer 1.22's parser leaks on some bad input, e.g. a taglist
// value, which would grow the process without telling us anything.)
#include <gst/gst.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "score_message.h"

namespace {

struct Vocabulary {
  std::vector<std::string> fields;  // every field name of every message
  std::vector<std::string> types;   // the "type" values
};

gboolean AddField(GQuark field, const GValue* value, gpointer user_data) {
  auto* v = static_cast<Vocabulary*>(user_data);
  v->fields.emplace_back(g_quark_to_string(field));
  if (std::strcmp(g_quark_to_string(field), "type") == 0 && G_VALUE_HOLDS_STRING(value)) {
    v->types.emplace_back(g_value_get_string(value));
  }
  return TRUE;
}

const Vocabulary& Words() {
  static const Vocabulary* words = [] {
    gst_init(nullptr, nullptr);
    auto* v = new Vocabulary;
    s2c::ThresholdMessage cleared;
    cleared.cleared = true;
    GstStructure* examples[] = {s2c::FrameMessage().ToStructure(),
                                s2c::SummaryMessage().ToStructure(),
                                s2c::ThresholdMessage().ToStructure(), cleared.ToStructure()};
    for (GstStructure* s : examples) {
      gst_structure_foreach(s, AddField, v);
      gst_structure_free(s);
    }
    return v;
  }();
  return *words;
}

struct Bytes {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  bool More() const { return at < size; }
  uint8_t Next() { return at < size ? data[at++] : 0; }
  uint64_t Next64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | Next();
    return v;
  }
};

// A name from the list (most bytes) or a made-up one.
std::string Pick(Bytes& in, const std::vector<std::string>& names) {
  const uint8_t b = in.Next();
  if (b < 224 && !names.empty()) return names[b % names.size()];
  return "f" + std::to_string(b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Vocabulary& words = Words();
  Bytes in{data, size};
  GstStructure* s = gst_structure_new_empty(in.Next() < 240 ? s2c::kMessageName : "other");
  for (int field = 0; field < 64 && in.More(); ++field) {
    const std::string name = Pick(in, words.fields);
    switch (in.Next() % 6) {
      case 0: {
        const uint64_t bits = in.Next64();
        double v;
        std::memcpy(&v, &bits, sizeof v);  // NaN, inf and subnormals too
        gst_structure_set(s, name.c_str(), G_TYPE_DOUBLE, v, nullptr);
        break;
      }
      case 1: gst_structure_set(s, name.c_str(), G_TYPE_UINT64, in.Next64(), nullptr); break;
      case 2:
        gst_structure_set(s, name.c_str(), G_TYPE_INT64, static_cast<gint64>(in.Next64()), nullptr);
        break;
      case 3: gst_structure_set(s, name.c_str(), G_TYPE_INT, static_cast<int>(in.Next()), nullptr); break;
      case 4: gst_structure_set(s, name.c_str(), G_TYPE_BOOLEAN, in.Next() & 1, nullptr); break;
      default:
        gst_structure_set(s, name.c_str(), G_TYPE_STRING, Pick(in, words.types).c_str(), nullptr);
        break;
    }
  }
  s2c::GetMessageType(s);
  s2c::FrameMessage frame;
  s2c::SummaryMessage summary;
  s2c::ThresholdMessage threshold;
  s2c::FrameMessage::FromStructure(s, &frame);
  s2c::SummaryMessage::FromStructure(s, &summary);
  s2c::ThresholdMessage::FromStructure(s, &threshold);
  gst_structure_free(s);
  return 0;
}
