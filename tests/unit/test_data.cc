// SPDX-License-Identifier: BSD-3-Clause
// The test data are what their reference values were computed from: every
// file that tests/data/README.md lists has the sha256 listed there, and
// each flower PNG, written back as the binary PPM the canonical tool read,
// has that PPM's sha256 (so the PNG reader, and any decoder that gives the
// same pixels, hands the metric the canonical input).
#include <glib.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "image_io.h"
#include "png_reader.h"

namespace {

struct Listed {
  std::string sha256, name;
};

// The "    <sha256>  <name>" lines of the README.
std::vector<Listed> ReadChecksums(const std::string& dir) {
  std::vector<Listed> listed;
  std::ifstream in(dir + "/README.md");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    Listed l;
    if (line.rfind("    ", 0) == 0 && fields >> l.sha256 >> l.name && l.sha256.size() == 64) {
      listed.push_back(l);
    }
  }
  return listed;
}

std::string Sha256(const std::string& bytes) {
  gchar* hex = g_compute_checksum_for_data(
      G_CHECKSUM_SHA256, reinterpret_cast<const guchar*>(bytes.data()), bytes.size());
  const std::string out = hex;
  g_free(hex);
  return out;
}

bool ReadFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream all;
  all << in.rdbuf();
  *bytes = all.str();
  return true;
}

}  // namespace

int main() {
  const std::string dir = s2c::test::TestdataDir();
  const std::vector<Listed> listed = ReadChecksums(dir);
  // 15 files here and the 4 PPM files the canonical tool read.
  S2C_CHECK(listed.size() == 19, "%s/README.md lists %zu checksums, want 19", dir.c_str(),
            listed.size());
  int ppms = 0;
  for (const Listed& l : listed) {
    const bool ppm = l.name.size() > 4 && l.name.compare(l.name.size() - 4, 4, ".ppm") == 0;
    std::string bytes;
    if (ppm) {
      ++ppms;
      const std::string png = l.name.substr(0, l.name.size() - 4) + ".png";
      s2c::test::HostImage image;
      std::string error;
      if (!S2C_CHECK(s2c::test::ReadPng(dir + "/" + png, &image, &error), "%s", error.c_str())) {
        continue;
      }
      bytes = s2c::test::PpmBytes(image);
    } else if (!S2C_CHECK(ReadFile(dir + "/" + l.name, &bytes) && !bytes.empty(),
                          "cannot read %s/%s", dir.c_str(), l.name.c_str())) {
      continue;
    }
    const std::string sha = Sha256(bytes);
    S2C_CHECK(sha == l.sha256, "%s%s: sha256 %s, the README lists %s", l.name.c_str(),
              ppm ? " (from its PNG)" : "", sha.c_str(), l.sha256.c_str());
  }
  S2C_CHECK(ppms == 4, "%d PPM checksums, want 4", ppms);
  return s2c::test::Finish();
}
