// SPDX-License-Identifier: BSD-3-Clause
// The monitor's events (alarms, restarts, feeds lost and back, channels
// started and stopped, configuration loads) as JSON lines on standard
// output, one object a line:
//
//   {"time":"2026-12-01T08:33:59.123456Z","channel":"news","event":"alarm","details":{"score":41.2}}
//
// `time` is UTC (ISO 8601), `channel` null for the process's own events.
#ifndef S2C_MONITOR_EVENT_LOG_H_
#define S2C_MONITOR_EVENT_LOG_H_

#include <cstdint>
#include <string>

namespace s2c::monitor {

// The "details" object, built field by field.
class Details {
 public:
  Details& Add(const char* key, const std::string& value);
  Details& Add(const char* key, const char* value) { return Add(key, std::string(value)); }
  // Finite doubles as the shortest text that reads back as the same double;
  // NaN and infinities, which JSON lacks, as null.
  Details& Add(const char* key, double value);
  Details& Add(const char* key, uint64_t value);
  Details& Add(const char* key, int64_t value);
  Details& Add(const char* key, bool value);
  const std::string& json() const { return json_; }

 private:
  void Key(const char* key);
  std::string json_;
};

// Writes one line and flushes it. `channel` empty: a process event.
void LogEvent(const std::string& channel, const char* event, const Details& details = Details());

// `text` as a JSON string literal, quotes included.
std::string JsonString(const std::string& text);

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_EVENT_LOG_H_
