// SPDX-License-Identifier: BSD-3-Clause
// How many pairs a backend keeps in flight within a limit on its device
// memory: each pair in flight owns its own workspace, so a limit trades
// pairs in flight (throughput) for memory rather than refusing to run.
#ifndef S2C_DEVICE_MEMORY_BUDGET_H_
#define S2C_DEVICE_MEMORY_BUDGET_H_

#include <cstddef>

#include "status.h"

namespace s2c {

// The pairs in flight for frames of width x height whose pairs take
// `per_pair` device bytes each: max_in_flight (>= 1) when `limit` is 0 (no
// limit), else as many as fit in `limit`, at most max_in_flight. When not
// even one pair fits: kOutOfMemory naming the frame size, the MiB one pair
// needs and the limit's MiB, and *pairs is left as it was.
Status FitPairsInFlight(size_t per_pair, size_t limit, int max_in_flight, int width,
                        int height, int* pairs);

}  // namespace s2c

#endif  // S2C_DEVICE_MEMORY_BUDGET_H_
