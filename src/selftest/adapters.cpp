// adapters.cpp: starting the self-test's adapters (see adapters.hpp).
#include "selftest/adapters.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace crosscheck::selftest {

namespace fs = std::filesystem;

std::string selftest_dir() { return (fs::path(exec::repository_root()) / "selftest").string(); }

std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
  }
  return "";
}

exec::AdapterConfig proxy_config(const std::string& name, const std::vector<std::string>& argv) {
  exec::AdapterConfig a;
  a.spec.name = name;
  a.spec.argv = argv;
  return a;
}

exec::PoolOptions pool_options(const Options& o) {
  exec::PoolOptions pool;
  pool.processes = 1;
  pool.deadline = o.deadline;
  pool.hello_deadline = std::chrono::milliseconds(30000);
  return pool;
}

std::string resolve_python(const std::string& python) {
  std::string program = find_program(python);
  if (program.empty()) return python;
  std::string command = "'" + program + "' -c 'import sys; sys.stdout.write(sys.executable)' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return python;
  char buffer[4096];
  std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, pipe);
  int status = ::pclose(pipe);
  std::string real(buffer, n);
  return status == 0 && !real.empty() && real.find('\'') == std::string::npos && !find_program(real).empty()
             ? real
             : python;
}

std::string missing_part(const Options& o) {
  if (find_program(o.python).empty())
    return o.python + " not found (" +
           (o.python.find('/') == std::string::npos ? "on PATH" : "not executable") +
           "): the self-test adapters are Python programs";
  for (const char* f : {"faulty_adapter.py", "equivalent_adapter.py", "proxy.py"}) {
    if (!fs::exists(fs::path(selftest_dir()) / f))
      return (fs::path(selftest_dir()) / f).string() +
             " is missing (the self-test adapters ship in selftest/)";
  }
  if (o.reference.empty()) return "no reference adapter command";
  if (find_program(o.reference.front()).empty())
    return "the reference adapter " + o.reference.front() + " is not an executable program";
  return "";
}

}  // namespace crosscheck::selftest
