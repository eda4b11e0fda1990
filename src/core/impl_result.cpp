// impl_result.cpp: the outcome names that run folders, tables and adapter answers use.
#include "core/impl_result.hpp"

namespace crosscheck::core {

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kAccepted:
      return "accepted";
    case Outcome::kRejected:
      return "rejected";
    case Outcome::kUnsupported:
      return "unsupported";
    case Outcome::kError:
      return "error";
    case Outcome::kCrash:
      return "crash";
    case Outcome::kTimeout:
      return "timeout";
    case Outcome::kProtocol:
      return "protocol";
  }
  return "?";
}

std::optional<Outcome> parse_outcome(std::string_view name) {
  for (Outcome o : {Outcome::kAccepted, Outcome::kRejected, Outcome::kUnsupported, Outcome::kError,
                    Outcome::kCrash, Outcome::kTimeout, Outcome::kProtocol}) {
    if (name == outcome_name(o)) return o;
  }
  return std::nullopt;
}

}  // namespace crosscheck::core
