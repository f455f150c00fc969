// SPDX-License-Identifier: BSD-3-Clause
// Files the tests write and read back: a directory of the test's own that
// goes with what it holds, and a file's whole text. Header-only (GLib and
// the standard library), for the element tests that link nothing else of
// tests/common.
#ifndef S2C_TESTS_TEST_FILES_H_
#define S2C_TESTS_TEST_FILES_H_

#include <glib.h>
#include <glib/gstdio.h>

#include <fstream>
#include <sstream>
#include <string>

namespace s2c {
namespace test {

// The file's bytes; empty when it cannot be read.
inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes `text` in place (no temporary file and rename, so that it also
// writes to /proc files); false when it could not.
inline bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// Removes `path` and, when it is a directory, everything in it.
inline void RemoveTree(const std::string& path) {
  if (GDir* d = g_dir_open(path.c_str(), 0, nullptr)) {
    while (const char* name = g_dir_read_name(d)) RemoveTree(path + "/" + name);
    g_dir_close(d);
  }
  g_remove(path.c_str());
}

// A new directory "s2c-<what>-XXXXXX" in the temporary directory, removed
// with what it holds when the object goes.
class TempDir {
 public:
  explicit TempDir(const char* what) : path_(Make(what)) {}
  ~TempDir() { RemoveTree(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // The path of `name` in the directory.
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  static std::string Make(const char* what) {
    const std::string pattern = std::string("s2c-") + what + "-XXXXXX";
    GError* error = nullptr;
    gchar* made = g_dir_make_tmp(pattern.c_str(), &error);
    if (made == nullptr) {
      g_error("cannot make a temporary directory %s: %s", pattern.c_str(), error->message);
    }
    std::string path = made;
    g_free(made);
    return path;
  }

  std::string path_;
};

}  // namespace test
}  // namespace s2c

#endif  // S2C_TESTS_TEST_FILES_H_
