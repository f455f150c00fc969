// SPDX-License-Identifier: BSD-3-Clause
#include "device_memory_budget.h"

#include <string>

#include "frontend.h"

namespace s2c {

Status FitPairsInFlight(size_t per_pair, size_t limit, int max_in_flight, int width,
                        int height, int* pairs) {
  if (limit == 0 || per_pair == 0) {
    *pairs = max_in_flight;
    return Status::Ok();
  }
  const size_t fit = limit / per_pair;
  if (fit == 0) {
    // The need rounded up and the limit down, so that the two numbers
    // never read as equal.
    const size_t mib = size_t{1} << 20;
    return Status(StatusCode::kOutOfMemory,
                  "frames of " + SizeText(width, height) + " need " +
                      std::to_string((per_pair + mib - 1) / mib) +
                      " MiB of device memory for one pair in flight, more than the device "
                      "memory limit of " +
                      std::to_string(limit / mib) + " MiB");
  }
  *pairs = fit < static_cast<size_t>(max_in_flight) ? static_cast<int>(fit) : max_in_flight;
  return Status::Ok();
}

}  // namespace s2c
