// SPDX-License-Identifier: BSD-3-Clause
// The monitor's configuration: a GLib key file with one group per channel.
//
//   [channel news-hd]
//   reference = udpsrc port=5000 caps=... ! rtpvrawdepay ! videoconvert
//   distorted = udpsrc port=5002 caps=... ! rtpvrawdepay ! videoconvert
//   threshold = 60
//   feed-timeout = 2s
//
// `reference` and `distorted` are gst-launch descriptions ending in raw
// video; `feed-timeout` and `restart-timeout` are the monitor's own; every
// other key names a property of the ssimulacra2cmp element (`threshold`,
// `threshold-hold`, `backend`, `metrics`, `results-location`, ...), applied
// by name when the element has it (element_properties.h).
#ifndef S2C_MONITOR_CONFIG_H_
#define S2C_MONITOR_CONFIG_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace s2c::monitor {

struct ChannelConfig {
  std::string name;
  std::string reference;
  std::string distorted;
  // A feed with no buffer for this long is down (key feed-timeout).
  uint64_t feed_timeout_ns = 2'000'000'000;
  // A channel with a feed down for this long is restarted (key
  // restart-timeout): sources that lost their peer (RTSP, SRT) reconnect only
  // when restarted.
  uint64_t restart_timeout_ns = 10'000'000'000;
  // The element's properties, key and value as written, in file order.
  std::vector<std::pair<std::string, std::string>> element_properties;

  bool operator==(const ChannelConfig& other) const;
  bool operator!=(const ChannelConfig& other) const { return !(*this == other); }
};

struct MonitorConfig {
  std::vector<ChannelConfig> channels;  // in file order
};

// Parses a key file's text; `source` names it in errors. On failure returns
// false, leaves `config` alone and says what is wrong, and where, in `error`.
bool ParseConfig(const std::string& text, const std::string& source, MonitorConfig* config,
                 std::string* error);

// Reads and parses the file at `path`.
bool LoadConfig(const std::string& path, MonitorConfig* config, std::string* error);

// A duration with its unit: "2s", "1.5s", "500ms", "40us", "1000ns". Returns
// false for anything else (a bare number included: its unit would be a
// guess).
bool ParseDuration(const std::string& text, uint64_t* ns);

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_CONFIG_H_
