// receipt.hpp: the one writer and the one reader of receipt files (schemas/scenario-receipt.schema.json),
// the record of every message a client sent to crosscheck serve-scenarios.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json/value.hpp"
#include "util/result.hpp"

namespace crosscheck::scenario {

struct Receipt {
  std::uint64_t seq = 0;
  std::string method;
  json::Value id;                       ///< null when absent
  std::optional<std::string> scenario;  ///< the row answered
  std::string reply;                    ///< "scripted", "discovery" or "error"
  std::vector<std::string> problems;    ///< "unparsable", "unknown-method", "unknown-id", "differs", "repeat"
  std::vector<std::string> differences;  ///< pointers, for "differs"
  std::optional<json::Value> message;    ///< as received, when it parsed
  std::string bytes;                     ///< the raw line, kept (base64) only when it did not parse
  bool has(const std::string& problem) const;
};

/// Appends one line per receipt with a single write(2), before the server replies: a client killed
/// later loses nothing already received.
class ReceiptWriter {
 public:
  /// Throws Fatal naming the file when it cannot be opened.
  explicit ReceiptWriter(const std::string& path);
  ~ReceiptWriter();
  ReceiptWriter(const ReceiptWriter&) = delete;
  ReceiptWriter& operator=(const ReceiptWriter&) = delete;
  void append(const Receipt& receipt);

 private:
  int fd_ = -1;
};

struct ReceiptFile {
  std::vector<Receipt> receipts;
  std::vector<std::string> notes;  ///< lines that were cut or malformed (a killed server)
};

/// Reads a receipt file; a missing file is an empty one. Lines that break the schema are skipped
/// with a note naming the line, never fatal: the file is evidence written by a child process.
ReceiptFile read_receipts(const std::string& path);

}  // namespace crosscheck::scenario
