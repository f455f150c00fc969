// SPDX-License-Identifier: BSD-3-Clause
// The file under the results writer: where the bytes go, and the promise
// that each record is in it whole or not at all.
//
// - A path naming one of the process's descriptors (/dev/stdout,
//   /dev/stderr, /dev/fd/N) is written through a duplicate of that
//   descriptor, as it is: not reopened, so a file that standard output is
//   redirected to is not truncated (`>>` appends, and runs in a loop
//   redirected into one file follow each other). Any other path is created
//   or truncated, or, to append, created or kept: the records then go after
//   what it held, which the writer may read (ReadKept).
// - One writer per regular file: a file that another writer of this process
//   has open, or that another process holds locked (flock), is refused
//   before anything in it changes. Pipes, terminals and devices are not
//   checked.
// - A record is written whole or not at all: when the file cannot take all
//   of it (a full disk), the part written is cut off again (ftruncate), so
//   the file always ends after a whole record. On a pipe or terminal a
//   record cut short by an error cannot be taken back.
#ifndef S2C_GST_RECORD_FILE_H_
#define S2C_GST_RECORD_FILE_H_

#include <string>
#include <sys/types.h>

namespace s2c {

class RecordFile {
 public:
  enum class OpenResult {
    kOk,
    kFailed,  // errno says why
    kInUse,   // another writer has the file: in this process, or locked by another
    // Appending: the file holds what the writer cannot continue
    // (ResultsWriter::why_not_continued says why); it is left as it was.
    kCannotContinue,
  };

  RecordFile() = default;
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;
  ~RecordFile() { Close(); }

  // `append`: a regular file keeps what it holds, and the records go after
  // it; else it is truncated.
  OpenResult Open(const std::string& path, bool append = false);
  bool is_open() const { return fd_ >= 0; }

  // The bytes a regular file opened to append held then (0 otherwise).
  off_t kept_bytes() const { return kept_bytes_; }
  // Up to `size` of those bytes from `offset`; false (errno set) when they
  // cannot be read.
  bool ReadKept(off_t offset, size_t size, std::string* out) const;

  // Writes `record` whole; false (errno set) when it could not, and then
  // nothing of it stays in a regular file.
  bool Write(const std::string& record);

  void Close();

 private:
  int fd_ = -1;
  bool registered_ = false;  // in the process's list of open results files
  dev_t device_ = 0;
  ino_t inode_ = 0;
  off_t kept_bytes_ = 0;
};

}  // namespace s2c

#endif  // S2C_GST_RECORD_FILE_H_
