// SPDX-License-Identifier: BSD-3-Clause
// One CUDA context per GPU for every channel of the process. Elements in
// one pipeline share a GstCudaContext through context queries; separate
// pipelines do not see each other, so each ssimulacra2cmp would create a
// context of its own (device memory, and a scheduler slot, per context).
// GStreamer's answer for applications: the first element to create one
// posts it in a HAVE_CONTEXT message; the application keeps it and hands it
// to every element that asks (NEED_CONTEXT) and to every new pipeline
// (gst_element_set_context). Nothing here needs the CUDA library: the
// context is passed on as the GstContext it came in.
#ifndef S2C_MONITOR_CUDA_CONTEXT_SHARE_H_
#define S2C_MONITOR_CUDA_CONTEXT_SHARE_H_

#include <gst/gst.h>

#include <map>
#include <mutex>

namespace s2c::monitor {

class CudaContextShare {
 public:
  CudaContextShare() = default;
  ~CudaContextShare();
  CudaContextShare(const CudaContextShare&) = delete;
  CudaContextShare& operator=(const CudaContextShare&) = delete;

  // Gives `pipeline` the contexts known so far (before it starts).
  void Offer(GstElement* pipeline);
  // For a bus's sync handler (streaming threads): keeps a CUDA context an
  // element made, answers an element that needs one.
  void OnSyncMessage(GstMessage* message);

 private:
  std::mutex mutex_;
  std::map<guint, GstContext*> by_device_;  // cuda-device-id -> context
};

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_CUDA_CONTEXT_SHARE_H_
