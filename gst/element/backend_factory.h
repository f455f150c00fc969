// SPDX-License-Identifier: BSD-3-Clause
// Which metric backend an element runs on, chosen once at start: the
// "backend" property's auto/cpu/cuda. No silent switch after start.
// SelectBackend is defined by backend_factory.cc in the installed plugin;
// the live tests' static build of the plugin links its own
// (tests/element/static_plugin.cc, docs/decisions.md D33).
#ifndef S2C_GST_BACKEND_FACTORY_H_
#define S2C_GST_BACKEND_FACTORY_H_

#include <gst/gst.h>

#include <memory>
#include <string>

#include "backend.h"
#include "backend_request.h"
#include "status.h"

namespace s2c {

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  bool is_cuda = false;  // reads CUDA memory in place
  // Set when auto fell back to the CPU: why CUDA was not used.
  std::string fallback_reason;
};

// kCuda without a usable device (or in a build without CUDA) fails with
// kNoDevice / kUnsupported; kAuto then takes the CPU and says why.
// `element` is the one whose CUDA context is shared through GstContext.
Status SelectBackend(GstElement* element, const BackendRequest& request,
                     BackendSelection* out);

}  // namespace s2c

#endif  // S2C_GST_BACKEND_FACTORY_H_
