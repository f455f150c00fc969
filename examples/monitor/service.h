// SPDX-License-Identifier: BSD-3-Clause
// The channels of this replica: the configuration read, filtered by the
// shard, and applied. A reload (SIGHUP) starts new channels, stops removed
// ones, restarts changed ones and leaves the others running; a file that
// does not load changes nothing.
#ifndef S2C_MONITOR_SERVICE_H_
#define S2C_MONITOR_SERVICE_H_

#include <map>
#include <memory>
#include <string>

#include "channel.h"
#include "cuda_context_share.h"
#include "monitor_metrics.h"
#include "shard.h"

namespace s2c::monitor {

class Service {
 public:
  Service(std::string config_path, Shard shard, Metrics* metrics);
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Reads the file and applies it. On failure changes nothing and says why.
  bool Load(std::string* error);
  // Whether every channel of this replica has started at least once; if
  // not, `waiting` names those that have not, each with why it last failed
  // where it did ("news (pipeline error: …)").
  bool ready(std::string* waiting) const;

 private:
  std::string config_path_;
  Shard shard_;
  Metrics* metrics_;
  // Declared before the channels: their pipelines may hold its contexts.
  CudaContextShare contexts_;
  std::map<std::string, std::unique_ptr<Channel>> channels_;
};

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_SERVICE_H_
