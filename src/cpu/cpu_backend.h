// SPDX-License-Identifier: BSD-3-Clause
// The CPU reference behind the Backend interface: Submit checks and queues a
// pair, a worker thread scores the pairs in order (each on all the pool's
// threads), and CollectOldest hands the results back.
#ifndef S2C_CPU_BACKEND_H_
#define S2C_CPU_BACKEND_H_

#include <memory>

#include "backend.h"

namespace s2c {

// threads <= 0: all cores.
std::unique_ptr<Backend> MakeCpuBackend(int threads);

}  // namespace s2c

#endif  // S2C_CPU_BACKEND_H_
