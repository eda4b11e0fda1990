// scripted_server.hpp: crosscheck as the scripted server of the cross-language adapter contract v1
// (stdio side), used by `crosscheck serve-scenarios`.
//
// Life cycle: the client spawns `crosscheck serve-scenarios --config FILE`, writes one JSON-RPC
// message per line on its stdin and reads one reply line per message from its stdout:
//   hooks/capabilities  -> a fixed, canonical discovery response (tool.before and
//                          turn.finish.before interception), id echoed;
//   hooks/intercept     -> the scripted response of the row whose id equals the request id, byte
//                          for byte as the scenario file spells it (scenario_file.hpp,
//                          response_line), never repaired or re-encoded;
//   anything else       -> a JSON-RPC error (-32600), recorded.
// An unknown id, a request that differs from its row's, or a second request for one id is recorded
// in the receipt and answered as well as it can be (the row's response, or an error): never fatal.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "interop/receipt.hpp"
#include "layers/contextual/rows/scenario_file.hpp"

namespace crosscheck::scenario {

class ScriptedServer {
 public:
  /// `receipts` may be null (nothing recorded).
  ScriptedServer(const ScenarioFile& file, ReceiptWriter* receipts) : file_(file), receipts_(receipts) {}

  /// The reply line (without '\n') to one received line, after recording the receipt.
  std::string answer(std::string_view line);

  /// The discovery response for a hooks/capabilities request with this id.
  static json::Value discovery_response(const json::Value& id);

 private:
  const ScenarioFile& file_;
  ReceiptWriter* receipts_;
  std::uint64_t seq_ = 0;
  std::map<std::string, std::size_t> answered_;  ///< row id -> times answered
};

}  // namespace crosscheck::scenario
