// SPDX-License-Identifier: BSD-3-Clause
#include "ssim_table.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "image_io.h"

namespace s2c {
namespace test {

namespace {

std::string SsimDir() {
  const std::string dir = TestdataDir();
  return dir.empty() ? dir : dir + "/ssim/";
}

}  // namespace

std::vector<SsimExpected> ReadSsimTable() {
  std::vector<SsimExpected> rows;
  const std::string dir = SsimDir();
  if (dir.empty()) return rows;
  std::ifstream in(dir + "README.md");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| flower", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, '|');) {
      const size_t a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
      if (a != std::string::npos) cells.push_back(cell.substr(a, b - a + 1));
    }
    if (cells.size() != 7) continue;
    // strtod reads "inf" too.
    rows.push_back({cells[0], cells[1], std::strtod(cells[2].c_str(), nullptr),
                    std::strtod(cells[3].c_str(), nullptr), std::strtod(cells[4].c_str(), nullptr),
                    std::strtod(cells[5].c_str(), nullptr), std::strtod(cells[6].c_str(), nullptr)});
  }
  return rows;
}

bool ReadSsimPair(const SsimExpected& row, Y4mFrame* ref, Y4mFrame* dist, std::string* error) {
  const std::string dir = SsimDir();
  return ReadY4m(dir + row.ref, ref, error) && ReadY4m(dir + row.dist, dist, error);
}

}  // namespace test
}  // namespace s2c
