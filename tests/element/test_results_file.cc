// SPDX-License-Identifier: BSD-3-Clause
// The results file as bytes, without a pipeline: the same numbers in every
// locale; a disk that fills and empties again leaves only whole records; one
// writer per file; standard output written through its descriptor, never
// truncated. The full disk is a small tmpfs in a mount namespace of this
// process's own, which vanishes with it; the comma-decimal locale is
// de_DE.UTF-8, generated here when the system lacks it. Neither is
// optional: without them the test fails and says why.
#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/gst.h>

#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "results_writer.h"
#include "test_files.h"

namespace {

using s2c::RecordFile;
using s2c::ResultsFormat;
using s2c::ResultsWriter;
using s2c::test::ReadFile;
using s2c::test::WriteFile;

constexpr ResultsFormat kFormats[] = {ResultsFormat::kJsonLines, ResultsFormat::kCsv,
                                      ResultsFormat::kJson};

// Frame `index` of a run whose records all have the same length (two-digit
// indices, no timestamps) with both metrics' values.
s2c::FrameMessage Frame(uint64_t index) {
  s2c::FrameMessage f;
  f.metrics = s2c::kAllMetrics;
  f.frame_index = index;
  f.score = 90.003499830000003;
  f.ssim.combined = 0.98809958002898923;
  f.ssim.combined_db = 19.24437711895353;
  f.ssim.plane[0] = 0.9905300545742457;
  f.ssim.plane[1] = -0.25;
  f.ssim.plane[2] = 1e-300;
  return f;
}

s2c::SummaryMessage Summary(const char* reason, uint64_t segment) {
  s2c::ScoreStats stats;
  for (double v : {81.5, 90.003499830000003, -2.75}) stats.Add(v);
  s2c::SummaryMessage m;
  m.reason = reason;
  m.segment = segment;
  m.metrics = s2c::kAllMetrics;
  m.scores = stats.Summarize();
  m.ssim = stats.Summarize();
  m.ref_unpaired = 1;
  return m;
}

// A file of two segments: frames, a flush, frames, EOS.
std::string WriteRun(const std::string& path, ResultsFormat format) {
  ResultsWriter w;
  S2C_CHECK(w.Open(path, format, "test", s2c::kAllMetrics) == RecordFile::OpenResult::kOk);
  S2C_CHECK(w.WriteHeader());
  for (uint64_t i = 10; i < 13; ++i) S2C_CHECK(w.Write(Frame(i)));
  S2C_CHECK(w.EndSegment(Summary("flush", 0), 123.456));
  for (uint64_t i = 10; i < 12; ++i) {
    s2c::FrameMessage f = Frame(i);
    f.segment = 1;
    S2C_CHECK(w.Write(f));
  }
  S2C_CHECK(w.Finish(Summary("eos", 1), 0.5));
  w.Close();
  return ReadFile(path);
}

// de_DE.UTF-8, whose decimal separator is a comma: the system's, or made
// with localedef in `dir` (LOCPATH) from the `locales` package's sources.
bool UseCommaLocale(const std::string& dir, std::string* why) {
  const char* kName = "de_DE.UTF-8";
  if (std::setlocale(LC_ALL, kName) == nullptr) {
    const std::string command =
        "localedef -c -i de_DE -f UTF-8 '" + dir + "/" + kName + "' >/dev/null 2>&1";
    const int rc = std::system(command.c_str());
    g_setenv("LOCPATH", dir.c_str(), TRUE);
    if (std::setlocale(LC_ALL, kName) == nullptr) {
      *why = "no de_DE.UTF-8 locale, and `" + command + "` (exit status " +
             std::to_string(rc) + ") did not make one: install the locales package";
      return false;
    }
  }
  if (std::strcmp(std::localeconv()->decimal_point, ",") != 0) {
    *why = "de_DE.UTF-8's decimal point is not a comma";
    return false;
  }
  return true;
}

// Every format, under a locale that writes 0,5 for 0.5, is the same bytes
// as under "C".
void TestSameBytesInEveryLocale(const std::string& dir) {
  std::vector<std::string> in_c;
  for (ResultsFormat format : kFormats) in_c.push_back(WriteRun(dir + "/c", format));
  // The numbers as "C" writes them, '.' and all.
  S2C_CHECK(in_c[0].find("\"ssimulacra2\":90.00349983000001,") != std::string::npos);
  S2C_CHECK(in_c[1].find(",-0.25,1e-300,,\n") != std::string::npos);  // no label, no utc
  S2C_CHECK(in_c[2].find("\"fps\":123.456,") != std::string::npos);
  std::string why;
  if (!S2C_CHECK(UseCommaLocale(dir, &why), "%s", why.c_str())) return;
  for (size_t i = 0; i < G_N_ELEMENTS(kFormats); ++i) {
    const std::string text = WriteRun(dir + "/de", kFormats[i]);
    S2C_CHECK(text == in_c[i], "format %zu differs under de_DE.UTF-8:\n%s", i, text.c_str());
  }
  std::setlocale(LC_ALL, "C");
  g_remove((dir + "/c").c_str());
  g_remove((dir + "/de").c_str());
}

// A mount namespace of this process's own, with a tmpfs of `pages` pages
// at `dir`: gone when the process ends. Root mounts it directly; anyone
// else through a user namespace, where the kernel allows that. Must run
// before the process has threads.
bool MountSmallTmpfs(const std::string& dir, int pages, std::string* why) {
  const uid_t uid = geteuid();
  const gid_t gid = getegid();
  if (unshare(CLONE_NEWNS) != 0) {
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
      *why = std::string("cannot make a mount namespace (root, or user namespaces, needed): ") +
             std::strerror(errno);
      return false;
    }
    WriteFile("/proc/self/setgroups", "deny");
    WriteFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1");
    WriteFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
  }
  const std::string size = "size=" + std::to_string(pages * 4096);
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      mount("s2c-test", dir.c_str(), "tmpfs", 0, size.c_str()) != 0) {
    *why = std::string("cannot mount a tmpfs: ") + std::strerror(errno);
    return false;
  }
  return true;
}

// Fills the file system of `path` to the last byte.
void Fill(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const std::string chunk(4096, 'x');
  while (write(fd, chunk.data(), chunk.size()) > 0) {
  }
  close(fd);
}

off_t SizeOf(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

// The disk fills while frames are written, and empties again: the record
// that no longer fitted, and the records after it, are refused (false) and
// leave nothing behind, and the file goes on with whole records. It is
// exactly what a writer given only the records that were written makes.
void TestFullDiskLeavesWholeRecords(const std::string& tmpfs, const std::string& dir) {
  for (ResultsFormat format : kFormats) {
    const std::string path = tmpfs + "/results";
    const std::string filler = tmpfs + "/filler";
    ResultsWriter w;
    S2C_CHECK(w.Open(path, format, "test", s2c::kAllMetrics) == RecordFile::OpenResult::kOk);
    S2C_CHECK(w.WriteHeader());
    std::vector<uint64_t> written = {10};
    S2C_CHECK(w.Write(Frame(10)));  // the file has its first page now
    Fill(filler);
    uint64_t next = 11;
    while (w.Write(Frame(next))) written.push_back(next++);
    S2C_CHECK(errno == ENOSPC);
    // The refused record did not fit in the file's last page, which had
    // room for part of it: the kernel wrote that part, and it was cut off.
    const off_t size = SizeOf(path);
    S2C_CHECK(size % 4096 != 0,
              "the file ends on a page boundary: no record was cut short, or its part stayed");
    for (int i = 0; i < 3; ++i) S2C_CHECK(!w.Write(Frame(++next)));
    S2C_CHECK(SizeOf(path) == size);
    g_remove(filler.c_str());  // space again
    for (int i = 0; i < 3; ++i) {
      S2C_CHECK(w.Write(Frame(++next)));
      written.push_back(next);
    }
    S2C_CHECK(w.Finish(Summary("eos", 0), 0.5));
    w.Close();

    const std::string expected_path = dir + "/expected";
    ResultsWriter expected;
    S2C_CHECK(expected.Open(expected_path, format, "test", s2c::kAllMetrics) ==
          RecordFile::OpenResult::kOk);
    for (uint64_t i : written) S2C_CHECK(expected.Write(Frame(i)));
    S2C_CHECK(expected.Finish(Summary("eos", 0), 0.5));
    expected.Close();
    const std::string text = ReadFile(path);
    S2C_CHECK(text == ReadFile(expected_path), "format %d after a full disk:\n%s",
              static_cast<int>(format), text.c_str());
    g_remove(path.c_str());
    g_remove(expected_path.c_str());
  }
}

// A file one writer has open is refused to a second writer, of this
// process or (flock) another, before anything in it changes.
void TestOneWriterPerFile(const std::string& dir) {
  const std::string path = dir + "/shared.jsonl";
  ResultsWriter first;
  S2C_CHECK(first.Open(path, ResultsFormat::kJsonLines, "test") == RecordFile::OpenResult::kOk);
  S2C_CHECK(first.Write(Frame(10)));
  const std::string before = ReadFile(path);
  ResultsWriter second;
  S2C_CHECK(second.Open(path, ResultsFormat::kCsv, "test") == RecordFile::OpenResult::kInUse);
  // A hard link is the same file.
  const std::string link = dir + "/link.jsonl";
  S2C_CHECK(::link(path.c_str(), link.c_str()) == 0);
  S2C_CHECK(second.Open(link, ResultsFormat::kCsv, "test") == RecordFile::OpenResult::kInUse);
  S2C_CHECK(ReadFile(path) == before);
  first.Close();
  S2C_CHECK(second.Open(link, ResultsFormat::kCsv, "test") == RecordFile::OpenResult::kOk);
  second.Close();

  // Another process holds the lock.
  WriteFile(path, "kept\n");
  int ready[2];
  S2C_CHECK(pipe(ready) == 0);
  const pid_t child = fork();
  if (child == 0) {
    const int fd = open(path.c_str(), O_WRONLY);
    const bool locked = flock(fd, LOCK_EX) == 0;
    const char byte = locked ? 'y' : 'n';
    if (write(ready[1], &byte, 1) != 1) _exit(1);
    pause();
    _exit(0);
  }
  char byte = 0;
  S2C_CHECK(read(ready[0], &byte, 1) == 1 && byte == 'y');
  ResultsWriter third;
  S2C_CHECK(third.Open(path, ResultsFormat::kJson, "test") == RecordFile::OpenResult::kInUse);
  S2C_CHECK(ReadFile(path) == "kept\n");
  kill(child, SIGTERM);
  waitpid(child, nullptr, 0);
  close(ready[0]);
  close(ready[1]);
  S2C_CHECK(third.Open(path, ResultsFormat::kJson, "test") == RecordFile::OpenResult::kOk);
  third.Close();
  g_remove(path.c_str());
  g_remove(link.c_str());
}

// /dev/stdout is standard output's descriptor, as it is: a file it was
// opened on for appending keeps what it held, and two runs into one
// descriptor (a loop redirected into one file) follow each other.
void TestStandardOutputIsNotReopened(const std::string& dir) {
  const std::string path = dir + "/stdout.jsonl";
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);

  WriteFile(path, "earlier\n");
  int fd = open(path.c_str(), O_WRONLY | O_APPEND);
  dup2(fd, STDOUT_FILENO);
  close(fd);
  {
    ResultsWriter w;
    S2C_CHECK(w.Open("/dev/stdout", ResultsFormat::kJsonLines, "test") ==
          RecordFile::OpenResult::kOk);
    S2C_CHECK(w.Write(Frame(10)));
  }
  const std::string appended = ReadFile(path);

  fd = open(path.c_str(), O_WRONLY | O_TRUNC);
  dup2(fd, STDOUT_FILENO);
  close(fd);
  for (int run = 0; run < 2; ++run) {
    ResultsWriter w;
    S2C_CHECK(w.Open("/dev/stdout", ResultsFormat::kCsv, "test") == RecordFile::OpenResult::kOk);
    S2C_CHECK(w.WriteHeader());
  }
  const std::string looped = ReadFile(path);

  dup2(saved, STDOUT_FILENO);
  close(saved);
  S2C_CHECK(appended.rfind("earlier\n{\"frameNum\":10,", 0) == 0);
  const std::string header =
      "frameNum,segment,timestamp,running_time,dist_timestamp,dist_frameNum,alignFlagged,"
      "ssimulacra2,label,utc\n";
  S2C_CHECK(looped == header + header);
  g_remove(path.c_str());
}

// Appending continues a jsonl or csv file: what it held stays, byte for
// byte, and the run goes on in the segment after the file's last record
// (a summary's, or a frame's where the run before ended without one),
// without a second csv header. What cannot be continued (a json document,
// other columns, a file that does not end in a whole record) is refused
// and left as it was.
void TestAppendContinuesTheFile(const std::string& dir) {
  const std::string path = dir + "/appended";
  for (ResultsFormat format : {ResultsFormat::kJsonLines, ResultsFormat::kCsv}) {
    const std::string before = WriteRun(path, format);  // segments 0 and 1
    ResultsWriter w;
    S2C_CHECK(w.Open(path, format, "test", s2c::kAllMetrics, true) ==
              RecordFile::OpenResult::kOk);
    S2C_CHECK(w.first_segment() == 2, "first segment %" G_GUINT64_FORMAT, w.first_segment());
    S2C_CHECK(w.WriteHeader());
    s2c::FrameMessage f = Frame(10);
    f.segment = 2;
    S2C_CHECK(w.Write(f));
    w.Close();  // stopped without a summary
    const std::string after = ReadFile(path);
    S2C_CHECK(after.rfind(before, 0) == 0, "format %d: the file before was not kept:\n%s",
              static_cast<int>(format), after.c_str());
    const std::string added = after.substr(before.size());
    S2C_CHECK(added.rfind(format == ResultsFormat::kCsv ? "10,2," : "{\"frameNum\":10,\"segment\":2,", 0) ==
                  0,
              "format %d appended:\n%s", static_cast<int>(format), added.c_str());
    // The last record is a frame of segment 2.
    S2C_CHECK(w.Open(path, format, "test", s2c::kAllMetrics, true) ==
              RecordFile::OpenResult::kOk);
    S2C_CHECK(w.first_segment() == 3);
    w.Close();
    S2C_CHECK(ReadFile(path) == after);
  }

  // The last record more than the part of the file read before it.
  {
    ResultsWriter w;
    S2C_CHECK(w.Open(path, ResultsFormat::kJsonLines, "test", s2c::kAllMetrics) ==
              RecordFile::OpenResult::kOk);
    s2c::FrameMessage f = Frame(10);
    f.segment = 41;
    for (int i = 0; i < 2000; ++i) S2C_CHECK(w.Write(f));
    S2C_CHECK(w.Finish(Summary("stop", 41), 0.5));
    w.Close();
    S2C_CHECK(w.Open(path, ResultsFormat::kJsonLines, "test", s2c::kAllMetrics, true) ==
              RecordFile::OpenResult::kOk);
    S2C_CHECK(w.first_segment() == 42);
  }

  // A csv file of the header alone goes on with segment 0, under that header.
  WriteFile(path, "");
  {
    ResultsWriter w;
    S2C_CHECK(w.Open(path, ResultsFormat::kCsv, "test", s2c::kAllMetrics) ==
              RecordFile::OpenResult::kOk);
    S2C_CHECK(w.WriteHeader());
    w.Close();
    const std::string header = ReadFile(path);
    S2C_CHECK(w.Open(path, ResultsFormat::kCsv, "test", s2c::kAllMetrics, true) ==
              RecordFile::OpenResult::kOk);
    S2C_CHECK(w.first_segment() == 0);
    S2C_CHECK(w.WriteHeader() && w.Write(Frame(10)));
    w.Close();
    S2C_CHECK(ReadFile(path).rfind(header + "10,0,", 0) == 0, "%s", ReadFile(path).c_str());
  }

  // Refused, untouched.
  struct Refusal {
    ResultsFormat format;
    unsigned metrics;
    std::string text;  // the file
    const char* why;   // in why_not_continued
  };
  const std::string csv = WriteRun(path, ResultsFormat::kCsv);
  const std::string json = WriteRun(path, ResultsFormat::kJson);
  const Refusal refusals[] = {
      {ResultsFormat::kJson, s2c::kAllMetrics, json, "json"},
      {ResultsFormat::kCsv, s2c::kMetricSsimulacra2, csv, "columns"},
      {ResultsFormat::kJsonLines, s2c::kAllMetrics, "kept\n", "whole jsonl record"},
      {ResultsFormat::kJsonLines, s2c::kAllMetrics, "{\"frameNum\":1,\"segment\":0,", "whole"},
      {ResultsFormat::kCsv, s2c::kAllMetrics, csv + "# fps,1\n", "whole csv record"},
  };
  for (const Refusal& r : refusals) {
    const std::string& text = r.text;
    WriteFile(path, text);
    ResultsWriter w;
    S2C_CHECK(w.Open(path, r.format, "test", r.metrics, true) ==
              RecordFile::OpenResult::kCannotContinue,
              "appended to:\n%s", text.c_str());
    S2C_CHECK(w.why_not_continued().find(r.why) != std::string::npos, "%s",
              w.why_not_continued().c_str());
    S2C_CHECK(!w.is_open());
    w.Close();
    S2C_CHECK(ReadFile(path) == text);
    // Refused, the file is free for the next writer.
    S2C_CHECK(w.Open(path, r.format, "test", r.metrics) == RecordFile::OpenResult::kOk);
  }
  g_remove(path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  // Removed with what the tests leave in it: the locale localedef made.
  const s2c::test::TempDir dir("results-file");
  const std::string tmpfs = dir / "tmpfs";
  g_mkdir(tmpfs.c_str(), 0755);
  std::string why;
  const bool mounted = MountSmallTmpfs(tmpfs, 16, &why);  // before gst_init's threads
  gst_init(&argc, &argv);
  if (S2C_CHECK(mounted, "full disk: %s", why.c_str())) {
    TestFullDiskLeavesWholeRecords(tmpfs, dir.path());
    umount(tmpfs.c_str());
  }
  TestOneWriterPerFile(dir.path());
  TestStandardOutputIsNotReopened(dir.path());
  TestAppendContinuesTheFile(dir.path());
  TestSameBytesInEveryLocale(dir.path());  // last: it changes the process's locale
  return s2c::test::Finish();
}
