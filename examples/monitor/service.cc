// SPDX-License-Identifier: BSD-3-Clause
#include "service.h"

#include <vector>

#include "channel_plan.h"
#include "config.h"
#include "event_log.h"

namespace s2c::monitor {

Service::Service(std::string config_path, Shard shard, Metrics* metrics)
    : config_path_(std::move(config_path)), shard_(shard), metrics_(metrics) {}

Service::~Service() { channels_.clear(); }

bool Service::Load(std::string* error) {
  MonitorConfig config;
  if (!LoadConfig(config_path_, &config, error)) return false;
  // Every channel of this replica checked before anything changes.
  std::map<std::string, ChannelPlan> plans;
  std::vector<std::string> warnings;
  for (const ChannelConfig& channel : config.channels) {
    if (ShardOf(channel.name, shard_.count) != shard_.index) continue;
    ChannelPlan plan;
    if (!PlanChannel(channel, &plan, &warnings, error)) return false;
    plans.emplace(channel.name, std::move(plan));
  }
  for (const std::string& warning : warnings) {
    LogEvent("", "config-warning", Details().Add("warning", warning));
  }
  // Removed and changed channels stop first: a changed one's results file
  // is free again when it starts anew.
  for (auto it = channels_.begin(); it != channels_.end();) {
    const auto plan = plans.find(it->first);
    if (plan == plans.end() || plan->second.config != it->second->config()) {
      it = channels_.erase(it);
    } else {
      ++it;
    }
  }
  uint64_t started = 0;
  for (auto& [name, plan] : plans) {
    if (channels_.count(name) != 0) continue;
    auto channel = std::make_unique<Channel>(std::move(plan), metrics_, &contexts_);
    channel->Start();
    channels_.emplace(name, std::move(channel));
    ++started;
  }
  LogEvent("", "config-loaded",
           Details()
               .Add("file", config_path_)
               .Add("channels_in_file", static_cast<uint64_t>(config.channels.size()))
               .Add("channels_here", static_cast<uint64_t>(channels_.size()))
               .Add("channels_started", started)
               .Add("shard", std::to_string(shard_.index) + "/" + std::to_string(shard_.count)));
  return true;
}

bool Service::ready(std::string* waiting) const {
  waiting->clear();
  for (const auto& [name, channel] : channels_) {
    if (channel->has_started()) continue;
    *waiting += (waiting->empty() ? "" : ", ") + name;
    if (!channel->last_failure().empty()) *waiting += " (" + channel->last_failure() + ")";
  }
  return waiting->empty();
}

}  // namespace s2c::monitor
