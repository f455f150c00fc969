// SPDX-License-Identifier: BSD-3-Clause
#include "event_log.h"

#include <glib.h>

#include <cmath>
#include <cstdio>

#include "exposition.h"

namespace s2c::monitor {

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

void Details::Key(const char* key) {
  if (!json_.empty()) json_ += ',';
  json_ += JsonString(key) + ':';
}

Details& Details::Add(const char* key, const std::string& value) {
  Key(key);
  json_ += JsonString(value);
  return *this;
}

Details& Details::Add(const char* key, double value) {
  Key(key);
  json_ += std::isfinite(value) ? FormatValue(value) : "null";
  return *this;
}

Details& Details::Add(const char* key, uint64_t value) {
  Key(key);
  json_ += std::to_string(value);
  return *this;
}

Details& Details::Add(const char* key, int64_t value) {
  Key(key);
  json_ += std::to_string(value);
  return *this;
}

Details& Details::Add(const char* key, bool value) {
  Key(key);
  json_ += value ? "true" : "false";
  return *this;
}

void LogEvent(const std::string& channel, const char* event, const Details& details) {
  GDateTime* now = g_date_time_new_now_utc();
  gchar* time = g_date_time_format_iso8601(now);
  g_date_time_unref(now);
  const std::string line = "{\"time\":" + JsonString(time) +
                           ",\"channel\":" + (channel.empty() ? "null" : JsonString(channel)) +
                           ",\"event\":" + JsonString(event) + ",\"details\":{" +
                           details.json() + "}}\n";
  g_free(time);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

}  // namespace s2c::monitor
