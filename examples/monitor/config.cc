// SPDX-License-Identifier: BSD-3-Clause
#include "config.h"

#include <glib.h>

#include <cmath>
#include <memory>

namespace s2c::monitor {
namespace {

constexpr char kChannelPrefix[] = "channel ";

struct KeyFileDeleter {
  void operator()(GKeyFile* file) const { g_key_file_free(file); }
};
struct StrvDeleter {
  void operator()(gchar** strv) const { g_strfreev(strv); }
};
using KeyFilePtr = std::unique_ptr<GKeyFile, KeyFileDeleter>;
using StrvPtr = std::unique_ptr<gchar*, StrvDeleter>;

// A whole string as a finite double, in the C locale.
bool ParseNumber(const std::string& text, double* value) {
  if (text.empty()) return false;
  gchar* end = nullptr;
  const double parsed = g_ascii_strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(parsed)) return false;
  *value = parsed;
  return true;
}

class ChannelParser {
 public:
  ChannelParser(GKeyFile* file, const std::string& source, const std::string& group)
      : file_(file), source_(source), group_(group) {}

  bool Parse(ChannelConfig* channel, std::string* error) {
    channel->name = group_.substr(sizeof kChannelPrefix - 1);
    if (channel->name.empty()) return Fail(error, "", "the channel has no name");
    StrvPtr keys(g_key_file_get_keys(file_, group_.c_str(), nullptr, nullptr));
    for (gchar** key = keys.get(); key != nullptr && *key != nullptr; ++key) {
      if (!ParseKey(*key, channel, error)) return false;
    }
    if (channel->reference.empty()) return Fail(error, "reference", "missing (a gst-launch description of the reference feed)");
    if (channel->distorted.empty()) return Fail(error, "distorted", "missing (a gst-launch description of the distorted feed)");
    return true;
  }

 private:
  bool ParseKey(const std::string& key, ChannelConfig* channel, std::string* error) {
    gchar* raw = g_key_file_get_string(file_, group_.c_str(), key.c_str(), nullptr);
    const std::string value = raw != nullptr ? raw : "";
    g_free(raw);
    if (key == "reference" || key == "distorted") {
      if (value.empty()) return Fail(error, key, "is empty");
      (key == "reference" ? channel->reference : channel->distorted) = value;
    } else if (key == "feed-timeout" || key == "restart-timeout") {
      uint64_t ns = 0;
      if (!ParseDuration(value, &ns) || ns == 0) {
        return Fail(error, key, "\"" + value + "\" is not a duration above 0 with its unit (2s, 500ms)");
      }
      (key == "feed-timeout" ? channel->feed_timeout_ns : channel->restart_timeout_ns) = ns;
    } else {
      // The element checks its own properties' values when they are
      // applied; the alarm threshold is checked here as well, because a
      // typo there would silently leave a channel without alarms.
      double threshold = 0;
      if (key == "threshold" && (!ParseNumber(value, &threshold) || threshold > 100)) {
        return Fail(error, key, "\"" + value + "\" is not a number up to 100");
      }
      channel->element_properties.emplace_back(key, value);
    }
    return true;
  }

  bool Fail(std::string* error, const std::string& key, const std::string& what) const {
    *error = source_ + ": [" + group_ + "]" + (key.empty() ? "" : " " + key) + ": " + what;
    return false;
  }

  GKeyFile* file_;
  const std::string& source_;
  const std::string& group_;
};

}  // namespace

bool ChannelConfig::operator==(const ChannelConfig& other) const {
  return name == other.name && reference == other.reference && distorted == other.distorted &&
         feed_timeout_ns == other.feed_timeout_ns &&
         restart_timeout_ns == other.restart_timeout_ns &&
         element_properties == other.element_properties;
}

bool ParseDuration(const std::string& text, uint64_t* ns) {
  static const struct {
    const char* suffix;
    double scale;
  } kUnits[] = {{"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}, {"s", 1e9}};
  for (const auto& unit : kUnits) {
    const std::string suffix = unit.suffix;
    if (text.size() <= suffix.size() ||
        text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    double number = 0;
    if (!ParseNumber(text.substr(0, text.size() - suffix.size()), &number)) return false;
    const double scaled = std::round(number * unit.scale);
    // Below 2^63 ns (292 years): every GStreamer time property holds it.
    if (number < 0 || scaled >= 9.2e18) return false;
    *ns = static_cast<uint64_t>(scaled);
    return true;
  }
  return false;
}

bool ParseConfig(const std::string& text, const std::string& source, MonitorConfig* config,
                 std::string* error) {
  KeyFilePtr file(g_key_file_new());
  GError* gerror = nullptr;
  if (!g_key_file_load_from_data(file.get(), text.data(), text.size(), G_KEY_FILE_NONE,
                                 &gerror)) {
    *error = source + ": " + gerror->message;
    g_error_free(gerror);
    return false;
  }
  MonitorConfig parsed;
  StrvPtr groups(g_key_file_get_groups(file.get(), nullptr));
  for (gchar** group = groups.get(); group != nullptr && *group != nullptr; ++group) {
    const std::string name = *group;
    if (name.compare(0, sizeof kChannelPrefix - 1, kChannelPrefix) != 0) {
      *error = source + ": [" + name + "]: not a channel (groups are [channel NAME])";
      return false;
    }
    ChannelConfig channel;
    if (!ChannelParser(file.get(), source, name).Parse(&channel, error)) return false;
    parsed.channels.push_back(std::move(channel));
  }
  *config = std::move(parsed);
  return true;
}

bool LoadConfig(const std::string& path, MonitorConfig* config, std::string* error) {
  gchar* contents = nullptr;
  gsize length = 0;
  GError* gerror = nullptr;
  if (!g_file_get_contents(path.c_str(), &contents, &length, &gerror)) {
    *error = gerror->message;
    g_error_free(gerror);
    return false;
  }
  const std::string text(contents, length);
  g_free(contents);
  return ParseConfig(text, path, config, error);
}

}  // namespace s2c::monitor
