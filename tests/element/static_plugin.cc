// SPDX-License-Identifier: BSD-3-Clause
// SelectBackend (gst/element/backend_factory.h) for the static plugin of
// static_plugin.h: the element calls it when it starts.
#include "static_plugin.h"

#include <gst/gst.h>

#include <mutex>
#include <utility>

#include "backend_factory.h"
#include "cpu/cpu_backend.h"
#include "delayed_backend.h"

// Defined by GST_PLUGIN_DEFINE in gst/element/plugin.cc, a C function.
G_BEGIN_DECLS
GST_PLUGIN_STATIC_DECLARE(ssimulacra2cmp);
G_END_DECLS

namespace {

std::mutex delay_lock;
double delay_ms = 0.0;
long delayed_pairs = -1;

}  // namespace

namespace s2c_test {

void RegisterStaticPlugin() { GST_PLUGIN_STATIC_REGISTER(ssimulacra2cmp); }

void SetPairDelay(double ms, long pairs) {
  std::lock_guard<std::mutex> lock(delay_lock);
  delay_ms = ms;
  delayed_pairs = pairs;
}

}  // namespace s2c_test

namespace s2c {

// The CPU backend whatever the device and the pairs in flight, slowed down
// as SetPairDelay last said.
Status SelectBackend(GstElement* /*element*/, const BackendRequest& request,
                     BackendSelection* out) {
  out->backend.reset();
  out->is_cuda = false;
  out->fallback_reason.clear();
  if (request.choice == BackendChoice::kCuda) {
    return Unsupported("the tests' static plugin scores on the CPU backend only");
  }
  out->backend = MakeCpuBackend(request.cpu_threads);
  if (!out->backend) return Status(StatusCode::kInternal, "could not create the CPU backend");
  std::lock_guard<std::mutex> lock(delay_lock);
  if (delay_ms > 0.0) out->backend = WithPairDelay(std::move(out->backend), delay_ms, delayed_pairs);
  return Status::Ok();
}

}  // namespace s2c
