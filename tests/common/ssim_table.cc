// SPDX-License-Identifier: BSD-3-Clause
#include "ssim_table.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "image_io.h"

namespace s2c {
namespace test {

std::string SsimPath(const std::string& name) { return TestdataDir() + "/ssim/" + name; }

std::vector<SsimExpected> ReadSsimTable() {
  std::vector<SsimExpected> rows;
  std::ifstream in(TestdataDir() + "/README.md");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, '|');) {
      const size_t a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
      if (a != std::string::npos) cells.push_back(cell.substr(a, b - a + 1));
    }
    const auto y4m = [](const std::string& name) {
      return name.size() > 4 && name.compare(name.size() - 4, 4, ".y4m") == 0;
    };
    if (cells.size() != 7 || !y4m(cells[0]) || !y4m(cells[1])) continue;
    // strtod reads "inf" too.
    rows.push_back({cells[0], cells[1], std::strtod(cells[2].c_str(), nullptr),
                    std::strtod(cells[3].c_str(), nullptr), std::strtod(cells[4].c_str(), nullptr),
                    std::strtod(cells[5].c_str(), nullptr), std::strtod(cells[6].c_str(), nullptr)});
  }
  return rows;
}

bool ReadSsimPair(const SsimExpected& row, Y4mFrame* ref, Y4mFrame* dist, std::string* error) {
  return ReadY4m(SsimPath(row.ref), ref, error) && ReadY4m(SsimPath(row.dist), dist, error);
}

}  // namespace test
}  // namespace s2c
