// SPDX-License-Identifier: BSD-3-Clause
// The element's CUDA plumbing: the GstCudaContext it shares with its
// neighbours through GstContext, the CUDA backend bound to that context, and
// the mapping of a pair's frames for the backend, in place in CUDA memory
// where that backend can read them. The context lives on the element as
// object data, so the element itself holds no CUDA types.
//
// cuda_resources.cc is built only with CUDA (S2C_GST_CUDA). Without it the
// header declares the frame mapping alone, inline: host memory, which is
// all a CPU-only build's backend reads.
#ifndef S2C_GST_CUDA_RESOURCES_H_
#define S2C_GST_CUDA_RESOURCES_H_

#include <gst/gst.h>
#include <gst/video/video.h>

#include <memory>

#include "backend.h"
#include "backend_request.h"
#include "status.h"

namespace s2c {

#ifdef S2C_GST_CUDA

// Answers a CONTEXT query with the element's CUDA context, if it has one.
bool HandleCudaContextQuery(GstElement* element, GstQuery* query);

// Adopts a CUDA context offered by the application or a neighbour
// (GstElement::set_context). `device_id` -1 takes any device's.
void SetCudaContext(GstElement* element, GstContext* context, int device_id);

// Drops the element's context (at stop).
void ReleaseCudaContext(GstElement* element);

// Finds or creates the element's context (shared through GstContext, so a
// CUDA decoder upstream and this element use one context) and makes the CUDA
// backend inside it. Every call on the returned backend runs with that
// context pushed, which the CUDA backend requires and which makes the device
// pointers of GST_MAP_CUDA valid for it. kNoDevice when the driver or a
// device is missing. The f64 path device_fp64 resolves to is logged.
Status MakeContextBoundCudaBackend(GstElement* element, const BackendRequest& request,
                                   std::unique_ptr<Backend>* out);

// How the backend reads a pair's frames: in place, as device pointers
// (kDevice), when `cuda_pair` (the backend is the CUDA one and both pads'
// caps are CUDA memory) and every memory of both buffers is CUDA memory the
// element's context can read (its own context, or a peer one); otherwise
// from host memory (kHost), to which GStreamer downloads CUDA memory on a
// host map, rather than as foreign device pointers.
MemoryKind PairMemory(GstElement* element, bool cuda_pair, GstBuffer* ref, GstBuffer* dist);

// Maps a frame for the backend to read as `memory` (PairMemory) says:
// kDevice with its device pointers (GST_MAP_CUDA), once the writes its
// producer left running on the device have finished; kHost in host memory.
bool MapForBackend(GstVideoFrame* frame, GstVideoInfo* info, GstBuffer* buffer,
                   MemoryKind memory);

#else  // !S2C_GST_CUDA

inline MemoryKind PairMemory(GstElement*, bool, GstBuffer*, GstBuffer*) {
  return MemoryKind::kHost;
}

inline bool MapForBackend(GstVideoFrame* frame, GstVideoInfo* info, GstBuffer* buffer,
                          MemoryKind) {
  return gst_video_frame_map(frame, info, buffer, GST_MAP_READ);
}

#endif  // S2C_GST_CUDA

}  // namespace s2c

#endif  // S2C_GST_CUDA_RESOURCES_H_
