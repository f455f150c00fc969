// SPDX-License-Identifier: BSD-3-Clause
// Rendezvous sharding: an even split, a small move when a replica is added,
// and a hash that is the same on every machine.
#include <string>
#include <vector>

#include "check.h"
#include "shard.h"

namespace {

using s2c::monitor::Shard;
using s2c::monitor::ShardOf;

std::vector<std::string> Names(int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back("channel-" + std::to_string(i));
  return names;
}

void TestFnvVectors() {
  // FNV-1a 64's published test vectors: the hash is this one, not a
  // library's, so the split cannot change with a version or a machine.
  S2C_CHECK(s2c::monitor::Fnv1a64("") == 0xcbf29ce484222325ull);
  S2C_CHECK(s2c::monitor::Fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  S2C_CHECK(s2c::monitor::Fnv1a64("foobar") == 0x85944171f73967e8ull);
}

void TestEvenSplit() {
  const std::vector<std::string> names = Names(1000);
  std::vector<int> per_shard(4, 0);
  for (const auto& name : names) ++per_shard[ShardOf(name, 4)];
  for (int s = 0; s < 4; ++s) {
    S2C_CHECK(per_shard[s] >= 212 && per_shard[s] <= 288, "shard %d of 4 holds %d of 1000", s,
              per_shard[s]);
  }
}

void TestGrowthMovesAFifthToTheNewShard() {
  const std::vector<std::string> names = Names(1000);
  int moved = 0;
  int moved_elsewhere = 0;
  for (const auto& name : names) {
    const uint32_t before = ShardOf(name, 4);
    const uint32_t after = ShardOf(name, 5);
    if (before == after) continue;
    ++moved;
    if (after != 4) ++moved_elsewhere;
  }
  S2C_CHECK(moved >= 150 && moved <= 250, "4 -> 5 replicas moved %d of 1000", moved);
  S2C_CHECK(moved_elsewhere == 0, "%d channels moved between old replicas", moved_elsewhere);
}

void TestOneReplicaOwnsAll() {
  for (const auto& name : Names(50)) S2C_CHECK(ShardOf(name, 1) == 0);
}

void TestParse() {
  Shard shard;
  std::string error;
  S2C_CHECK(s2c::monitor::ParseShard("2/5", &shard, &error) && shard.index == 2 &&
            shard.count == 5);
  for (const char* bad : {"5/5", "0/0", "1", "-1/4", "a/4", "1/4x", "/4", "1/"}) {
    error.clear();
    S2C_CHECK(!s2c::monitor::ParseShard(bad, &shard, &error) && !error.empty(),
              "\"%s\" accepted", bad);
  }
  S2C_CHECK(s2c::monitor::ShardFromPodName("s2c-monitor-3", "4", &shard, &error) &&
            shard.index == 3 && shard.count == 4);
  S2C_CHECK(!s2c::monitor::ShardFromPodName("s2c-monitor-4", "4", &shard, &error));
  S2C_CHECK(!s2c::monitor::ShardFromPodName("s2c-monitor", "4", &shard, &error));
  S2C_CHECK(!s2c::monitor::ShardFromPodName("s2c-monitor-0", nullptr, &shard, &error) &&
                error.find("SSIMULACRA2CMP_SHARDS") != std::string::npos,
            "%s", error.c_str());
}

}  // namespace

int main() {
  TestFnvVectors();
  TestEvenSplit();
  TestGrowthMovesAFifthToTheNewShard();
  TestOneReplicaOwnsAll();
  TestParse();
  return s2c::test::Finish();
}
