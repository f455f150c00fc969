// SPDX-License-Identifier: BSD-3-Clause
// A test aid: a backend made slower on purpose, so that the live tests can
// show what the element does when scoring cannot keep up with real time,
// and then catches up. Only the live tests' static build of the plugin uses
// it (static_plugin.h); the installed plugin does not contain it.
#ifndef S2C_TESTS_DELAYED_BACKEND_H_
#define S2C_TESTS_DELAYED_BACKEND_H_

#include <memory>

#include "backend.h"

namespace s2c {

// The first `pairs` pairs submitted (all of them when negative) cost
// `delay_ms` more, as if the inner backend scored one pair at a time that
// much slower: such a pair is ready no sooner than `delay_ms` after both
// its submission and the previous pair's ready time.
std::unique_ptr<Backend> WithPairDelay(std::unique_ptr<Backend> inner, double delay_ms,
                                       long pairs);

}  // namespace s2c

#endif  // S2C_TESTS_DELAYED_BACKEND_H_
