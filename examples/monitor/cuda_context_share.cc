// SPDX-License-Identifier: BSD-3-Clause
#include "cuda_context_share.h"

#include <cstring>

namespace s2c::monitor {
namespace {

// GST_CUDA_CONTEXT_TYPE and its device field (gst/cuda/gstcudautils.h).
constexpr char kCudaContextType[] = "gst.cuda.context";
constexpr char kDeviceField[] = "cuda-device-id";

}  // namespace

CudaContextShare::~CudaContextShare() {
  for (auto& entry : by_device_) gst_context_unref(entry.second);
}

void CudaContextShare::Offer(GstElement* pipeline) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& entry : by_device_) gst_element_set_context(pipeline, entry.second);
}

void CudaContextShare::OnSyncMessage(GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_NEED_CONTEXT) {
    const gchar* type = nullptr;
    if (!gst_message_parse_context_type(message, &type) || std::strcmp(type, kCudaContextType)) {
      return;
    }
    // The element takes the first context of the device it wants
    // (gst_cuda_handle_set_context) and ignores the others.
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& entry : by_device_) {
      gst_element_set_context(GST_ELEMENT(GST_MESSAGE_SRC(message)), entry.second);
    }
  } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_HAVE_CONTEXT) {
    GstContext* context = nullptr;
    gst_message_parse_have_context(message, &context);
    guint device = 0;
    if (std::strcmp(gst_context_get_context_type(context), kCudaContextType) == 0 &&
        gst_structure_get_uint(gst_context_get_structure(context), kDeviceField, &device)) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (by_device_.emplace(device, context).second) return;  // kept
    }
    gst_context_unref(context);
  }
}

}  // namespace s2c::monitor
