// SPDX-License-Identifier: BSD-3-Clause
// Which replica of the monitor scores which channel: rendezvous (highest
// random weight) hashing of the channel names. Each channel goes to the
// shard whose weight for it is highest; the weights depend only on the
// name and the shard's index, so growing from N to N+1 replicas moves only
// the channels whose new shard wins, about 1/(N+1) of them, and only to the
// new shard. The hash is written out here (FNV-1a 64 and a fixed
// finaliser), so every replica, on any machine and any version of this
// program, computes the same split.
#ifndef S2C_MONITOR_SHARD_H_
#define S2C_MONITOR_SHARD_H_

#include <cstdint>
#include <string>

namespace s2c::monitor {

// This replica's place among `count` replicas: index in [0, count).
struct Shard {
  uint32_t index = 0;
  uint32_t count = 1;
};

// FNV-1a, 64 bits, over the bytes of `text`.
uint64_t Fnv1a64(const std::string& text);

// The weight of shard `index` for `name`.
uint64_t RendezvousWeight(const std::string& name, uint32_t index);

// The shard in [0, count) that owns `name` (count >= 1).
uint32_t ShardOf(const std::string& name, uint32_t count);

// Parses "I/N" (0 <= I < N) or "auto" (docs/decisions.md, D60): I from the
// last "-I" of the pod's name, the environment variable POD_NAME, or of the
// host name when POD_NAME is unset (a StatefulSet pod "monitor-3" is
// replica 3); N from the environment variable SSIMULACRA2CMP_SHARDS. On
// failure returns false and says why in `error`.
bool ParseShard(const std::string& text, Shard* shard, std::string* error);

// The "auto" rule on given inputs (the pod's name and
// SSIMULACRA2CMP_SHARDS's value, null when unset), for tests.
bool ShardFromPodName(const std::string& pod_name, const char* shards, Shard* shard,
                      std::string* error);

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_SHARD_H_
