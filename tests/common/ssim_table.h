// SPDX-License-Identifier: BSD-3-Clause
// The SSIM reference pairs of tests/data/ssim and what Xiph's dump_ssim
// prints for each, read from the table of tests/data/README.md at run time.
#ifndef S2C_TESTS_SSIM_TABLE_H_
#define S2C_TESTS_SSIM_TABLE_H_

#include <string>
#include <vector>

#include "y4m_reader.h"

namespace s2c {
namespace test {

struct SsimExpected {
  std::string ref, dist;  // file names in tests/data/ssim
  double combined, y, cb, cr, combined_db;
};

// The number of pairs the table lists: the tests check that they read all.
constexpr size_t kSsimPairs = 6;

// The rows "| ref.y4m | dist.y4m | raw combined | Y' | Cb | Cr | dB |" of
// the README of TestdataDir(); empty when it cannot be read.
std::vector<SsimExpected> ReadSsimTable();

// The path of a file of the table.
std::string SsimPath(const std::string& name);

// A row's two frames; false (with the reason in *error) if one cannot be
// read.
bool ReadSsimPair(const SsimExpected& row, Y4mFrame* ref, Y4mFrame* dist, std::string* error);

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_SSIM_TABLE_H_
