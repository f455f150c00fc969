// SPDX-License-Identifier: BSD-3-Clause
// The reference values of ../shared/testdata/ssim: what Xiph's dump_ssim
// prints for each pair, read from the README's table at run time.
#ifndef S2C_TESTS_SSIM_TABLE_H_
#define S2C_TESTS_SSIM_TABLE_H_

#include <string>
#include <vector>

#include "y4m_reader.h"

namespace s2c {
namespace test {

struct SsimExpected {
  std::string ref, dist;  // file names in testdata/ssim
  double combined, y, cb, cr, combined_db;
};

// The rows "| ref.y4m | dist.y4m | raw combined | Y' | Cb | Cr | dB |" of
// testdata/ssim/README.md (TestdataDir()); empty when it cannot be read.
std::vector<SsimExpected> ReadSsimTable();

// A row's two frames; false (with the reason in *error) if one cannot be
// read.
bool ReadSsimPair(const SsimExpected& row, Y4mFrame* ref, Y4mFrame* dist, std::string* error);

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_SSIM_TABLE_H_
