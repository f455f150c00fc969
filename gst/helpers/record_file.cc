// SPDX-License-Identifier: BSD-3-Clause
#include "record_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <set>
#include <utility>

namespace s2c {
namespace {

// The process's descriptor that `path` names, -1 for an ordinary path.
int DescriptorNamed(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  static const std::string kFd = "/dev/fd/";
  if (path.compare(0, kFd.size(), kFd) != 0 || path.size() == kFd.size()) return -1;
  const std::string digits = path.substr(kFd.size());
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return -1;
  return std::atoi(digits.c_str());
}

// The regular files this process's writers have open: flock does not
// conflict between two duplicates of one descriptor (/dev/stdout twice).
using FileId = std::pair<dev_t, ino_t>;
std::mutex open_files_lock;
std::set<FileId>& OpenFiles() {
  static std::set<FileId> files;
  return files;
}

bool Register(FileId id) {
  std::lock_guard<std::mutex> lock(open_files_lock);
  return OpenFiles().insert(id).second;
}

void Unregister(FileId id) {
  std::lock_guard<std::mutex> lock(open_files_lock);
  OpenFiles().erase(id);
}

}  // namespace

RecordFile::OpenResult RecordFile::Open(const std::string& path, bool append) {
  Close();
  const int named = DescriptorNamed(path);
  // Appending, the writer reads where the file ends.
  const int fd = named >= 0 ? fcntl(named, F_DUPFD_CLOEXEC, 0)
                            : open(path.c_str(), (append ? O_RDWR : O_WRONLY) | O_CREAT | O_CLOEXEC,
                                   0666);
  if (fd < 0) return OpenResult::kFailed;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int error = errno;
    close(fd);
    errno = error;
    return OpenResult::kFailed;
  }
  if (S_ISREG(st.st_mode)) {
    const FileId id(st.st_dev, st.st_ino);
    if (!Register(id)) {
      close(fd);
      return OpenResult::kInUse;
    }
    // Another process's writer holds the lock. A file system without
    // locks (flock fails otherwise) is written all the same: the check
    // within the process still holds there.
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
      Unregister(id);
      close(fd);
      return OpenResult::kInUse;
    }
    // Truncated only once it is ours; a descriptor is written as it is.
    // Kept, it is written after its end (the lock keeps others from
    // moving it).
    const bool kept = named < 0 && append;
    const off_t end = kept ? lseek(fd, 0, SEEK_END) : 0;
    if (end < 0 || (named < 0 && !kept && ftruncate(fd, 0) != 0)) {
      const int error = errno;
      Unregister(id);
      close(fd);
      errno = error;
      return OpenResult::kFailed;
    }
    registered_ = true;
    device_ = st.st_dev;
    inode_ = st.st_ino;
    kept_bytes_ = end;
  }
  fd_ = fd;
  return OpenResult::kOk;
}

bool RecordFile::ReadKept(off_t offset, size_t size, std::string* out) const {
  out->assign(size, '\0');
  size_t done = 0;
  while (done < size) {
    const ssize_t n = pread(fd_, &(*out)[done], size - done, offset + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;  // shorter than when it was opened
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

bool RecordFile::Write(const std::string& record) {
  if (fd_ < 0) {
    errno = EBADF;
    return false;
  }
  size_t done = 0;
  while (done < record.size()) {
    const ssize_t n = write(fd_, record.data() + done, record.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    const int error = n < 0 ? errno : ENOSPC;
    if (done > 0) {
      // Cut the part written off again. Appending or not, the descriptor's
      // offset is now just after it.
      const off_t end = lseek(fd_, 0, SEEK_CUR);
      const off_t start = end - static_cast<off_t>(done);
      if (end >= 0 && ftruncate(fd_, start) == 0) lseek(fd_, start, SEEK_SET);
    }
    errno = error;
    return false;
  }
  return true;
}

void RecordFile::Close() {
  if (fd_ < 0) return;
  if (registered_) {
    // The descriptor may be a duplicate of one that stays open (standard
    // output): the lock would outlive this writer unless released.
    flock(fd_, LOCK_UN);
    Unregister(FileId(device_, inode_));
    registered_ = false;
  }
  close(fd_);
  fd_ = -1;
  kept_bytes_ = 0;
}

}  // namespace s2c
