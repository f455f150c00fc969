// SPDX-License-Identifier: BSD-3-Clause
#include "shard.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

namespace s2c::monitor {
namespace {

constexpr uint64_t kFnvOffsetBasis = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

// MurmurHash3's 64-bit finaliser: FNV-1a's low-entropy output for names
// that differ in one character spreads over all 64 bits, so the weights of
// the shards behave as independent draws.
uint64_t Finalise(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

// A whole decimal number in [0, UINT32_MAX], nothing else.
bool ParseCount(const std::string& text, uint32_t* value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  const unsigned long long parsed = std::strtoull(text.c_str(), nullptr, 10);
  if (errno != 0 || parsed > UINT32_MAX) return false;
  *value = static_cast<uint32_t>(parsed);
  return true;
}

bool Check(const Shard& shard, Shard* out, std::string* error) {
  if (shard.count == 0) {
    *error = "the replica count must be at least 1";
    return false;
  }
  if (shard.index >= shard.count) {
    *error = "replica " + std::to_string(shard.index) + " is not below the replica count " +
             std::to_string(shard.count);
    return false;
  }
  *out = shard;
  return true;
}

}  // namespace

uint64_t Fnv1a64(const std::string& text) {
  uint64_t h = kFnvOffsetBasis;
  for (unsigned char c : text) {
    h ^= c;
    h *= kFnvPrime;
  }
  return h;
}

uint64_t RendezvousWeight(const std::string& name, uint32_t index) {
  // The name, a NUL (no name holds one: GKeyFile group names cannot), the
  // index in decimal: distinct inputs for distinct (name, index).
  std::string key = name;
  key.push_back('\0');
  key += std::to_string(index);
  return Finalise(Fnv1a64(key));
}

uint32_t ShardOf(const std::string& name, uint32_t count) {
  uint32_t best = 0;
  uint64_t best_weight = RendezvousWeight(name, 0);
  for (uint32_t i = 1; i < count; ++i) {
    const uint64_t weight = RendezvousWeight(name, i);
    if (weight > best_weight) {
      best = i;
      best_weight = weight;
    }
  }
  return best;
}

bool ShardFromPodName(const std::string& pod_name, const char* shards, Shard* shard,
                      std::string* error) {
  const size_t dash = pod_name.rfind('-');
  Shard parsed;
  if (dash == std::string::npos || !ParseCount(pod_name.substr(dash + 1), &parsed.index)) {
    *error = "--shard auto: the pod name \"" + pod_name +
             "\" (POD_NAME, else the host name) does not end in -N (a StatefulSet pod's ordinal)";
    return false;
  }
  if (shards == nullptr || !ParseCount(shards, &parsed.count)) {
    *error = std::string("--shard auto: SSIMULACRA2CMP_SHARDS must hold the replica count, got ") +
             (shards == nullptr ? "nothing" : "\"" + std::string(shards) + "\"");
    return false;
  }
  return Check(parsed, shard, error);
}

bool ParseShard(const std::string& text, Shard* shard, std::string* error) {
  if (text == "auto") {
    const char* pod_name = std::getenv("POD_NAME");
    char host[HOST_NAME_MAX + 1] = {};
    if (pod_name == nullptr && gethostname(host, sizeof host - 1) != 0) {
      *error = "--shard auto: cannot read the host name";
      return false;
    }
    return ShardFromPodName(pod_name != nullptr ? pod_name : host,
                            std::getenv("SSIMULACRA2CMP_SHARDS"), shard, error);
  }
  const size_t slash = text.find('/');
  Shard parsed;
  if (slash == std::string::npos || !ParseCount(text.substr(0, slash), &parsed.index) ||
      !ParseCount(text.substr(slash + 1), &parsed.count)) {
    *error = "--shard takes I/N (replica I of N, from 0) or auto, got \"" + text + "\"";
    return false;
  }
  return Check(parsed, shard, error);
}

}  // namespace s2c::monitor
