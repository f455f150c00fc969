// SPDX-License-Identifier: BSD-3-Clause
// Status: how every fallible call of the metric library reports failure.
// The library never throws and never aborts; a caller gets a code it can act
// on (the element maps them to GStreamer error domains) and a sentence for
// the user.
#ifndef S2C_STATUS_H_
#define S2C_STATUS_H_

#include <string>
#include <utility>

namespace s2c {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad sizes, strides, formats: the caller's input
  kUnsupported,      // a valid request this build or device cannot serve
  kNoDevice,         // no usable CUDA device
  kOutOfMemory,      // an allocation failed (host or device)
  kDeviceError,      // a CUDA call or kernel failed
  kCancelled,        // the caller abandoned the work (Backend::Cancel); no failure
  kInternal,
};

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) {
  return Status(StatusCode::kInvalidArgument, std::move(m));
}
inline Status Unsupported(std::string m) {
  return Status(StatusCode::kUnsupported, std::move(m));
}
inline Status Cancelled() { return Status(StatusCode::kCancelled, "cancelled"); }

}  // namespace s2c

#define S2C_RETURN_IF_ERROR(expr)        \
  do {                                   \
    ::s2c::Status s2c_status_ = (expr);  \
    if (!s2c_status_.ok()) return s2c_status_; \
  } while (0)

#endif  // S2C_STATUS_H_
