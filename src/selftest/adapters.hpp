// adapters.hpp: the self-test's adapters: the faulty and equivalent proxies (Python programs in
// selftest/) in front of the reference adapter, how they are started, and what is missing when they
// cannot be.
#pragma once

#include <string>
#include <vector>

#include "exec/adapter_pool.hpp"
#include "selftest/selftest.hpp"

namespace crosscheck::selftest {

/// argv[0] resolved the way the adapter pool will resolve it, or an empty string.
std::string find_program(const std::string& name);
/// The adapter `name` started with `argv` (empty: the in-process C++ decoder, for "cpp").
exec::AdapterConfig proxy_config(const std::string& name, const std::vector<std::string>& argv);
/// One process per adapter, the self-test's deadline, and a long start-up allowance.
exec::PoolOptions pool_options(const Options& o);
/// The interpreter behind `python` (a pyenv shim costs half a second per start, and the pool starts
/// the adapter again after every crash or hang), or `python` itself when it cannot say.
std::string resolve_python(const std::string& python);
/// Why the adapters of the self-test cannot start here, or "".
std::string missing_part(const Options& o);

}  // namespace crosscheck::selftest
