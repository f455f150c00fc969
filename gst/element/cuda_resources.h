// SPDX-License-Identifier: BSD-3-Clause
// The element's CUDA plumbing (built only with CUDA): the GstCudaContext it
// shares with its neighbours through GstContext, and the CUDA backend bound
// to that context. The context lives on the element as object data, so the
// element itself holds no CUDA types.
#ifndef S2C_GST_CUDA_RESOURCES_H_
#define S2C_GST_CUDA_RESOURCES_H_

#include <gst/gst.h>

#include <memory>

#include "backend.h"
#include "backend_request.h"
#include "status.h"

namespace s2c {

// Answers a CONTEXT query with the element's CUDA context, if it has one.
bool HandleCudaContextQuery(GstElement* element, GstQuery* query);

// Adopts a CUDA context offered by the application or a neighbour
// (GstElement::set_context). `device_id` -1 takes any device's.
void SetCudaContext(GstElement* element, GstContext* context, int device_id);

// Drops the element's context (at stop).
void ReleaseCudaContext(GstElement* element);

// True when every memory of `buffer` is CUDA memory the element's context
// can read in place (its own context, or a peer one); otherwise the element
// maps the frame to the host instead of handing the backend foreign device
// pointers.
bool IsReadableInPlace(GstElement* element, GstBuffer* buffer);

// Waits until the writes to `buffer`'s CUDA memory that its producer left
// running on the memory's CUDA stream have finished, so that the backend,
// on streams of its own, reads the finished frame. Call it after mapping
// the buffer with GST_MAP_CUDA: the map itself may enqueue an upload on
// that stream. CUDA memory carries a stream from GStreamer 1.24 on, and
// GST_MAP_CUDA does not wait for it; in 1.22 the memory has no stream and
// its producers finish their writes before pushing, so there is nothing to
// wait for (docs/decisions.md, D31).
void WaitForCudaWriters(GstBuffer* buffer);

// Finds or creates the element's context (shared through GstContext, so a
// CUDA decoder upstream and this element use one context) and makes the CUDA
// backend inside it. Every call on the returned backend runs with that
// context pushed, which the CUDA backend requires and which makes the device
// pointers of GST_MAP_CUDA valid for it. kNoDevice when the driver or a
// device is missing. The f64 path device_fp64 resolves to is logged.
Status MakeContextBoundCudaBackend(GstElement* element, const BackendRequest& request,
                                   std::unique_ptr<Backend>* out);

}  // namespace s2c

#endif  // S2C_GST_CUDA_RESOURCES_H_
