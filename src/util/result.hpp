// result.hpp: value-or-error return type for I/O and parsing, and the Fatal exception for usage and
// configuration errors that only main() catches (errors in two tiers, as in ccache).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace crosscheck {

/// Exit codes shared by every command (documented in the README).
enum ExitCode : int {
  kExitClean = 0,       ///< nothing unexpected
  kExitDivergence = 1,  ///< divergences, failed cases, or a rejected decode
  kExitUsage = 2,       ///< usage, input, schema or configuration error
  kExitAdapter = 3,     ///< an adapter could not be started
};

/// Thrown for errors that end the command: main() prints "ERROR: <what>" and exits with `code`.
class Fatal : public std::runtime_error {
 public:
  explicit Fatal(std::string message, int code = kExitUsage)
      : std::runtime_error(std::move(message)), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

/// Either a value or an error; the error type is a small struct of the caller's domain.
template <class T, class E>
class Result {
 public:
  Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(E error) : data_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  const E& error() const { return std::get<1>(data_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, E> data_;
};

}  // namespace crosscheck
