// SPDX-License-Identifier: BSD-3-Clause
// The reference values of ../shared/testdata/ssim: what Xiph's dump_ssim
// prints for each pair, read from the README's table at run time.
#ifndef S2C_TESTS_SSIM_TABLE_H_
#define S2C_TESTS_SSIM_TABLE_H_

#include <string>
#include <vector>

namespace s2c {
namespace test {

struct SsimExpected {
  std::string ref, dist;  // file names in testdata/ssim
  double combined, y, cb, cr, combined_db;
};

// The rows "| ref.y4m | dist.y4m | raw combined | Y' | Cb | Cr | dB |";
// empty when the file cannot be read.
std::vector<SsimExpected> ReadSsimTable(const std::string& readme);

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_SSIM_TABLE_H_
