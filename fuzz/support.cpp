// support.cpp: schema loading, root selection and the decoder invariants for the fuzz targets.
#include "fuzz/support.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "json/equal.hpp"
#include "schema/loader.hpp"

namespace crosscheck::fuzz {
namespace {

/// A packaged build (.clusterfuzzlite/build.sh) ships the schema bundle in crosscheck-schema/ beside
/// the targets: the machine that runs them has neither the source tree nor the SDK.
std::optional<std::string> schema_beside_binary() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  std::filesystem::path bundle = exe.parent_path() / "crosscheck-schema" / "schemas.json";
  if (!std::filesystem::exists(bundle, ec)) return std::nullopt;
  return bundle.string();
}

std::unique_ptr<schema::Ir> load_real_ir() {
  std::optional<std::string> path = schema::default_schema_path();
  if (!path) path = schema_beside_binary();
  if (!path) {
    std::fprintf(
        stderr,
        "ERROR: no schema: set CROSSCHECK_SCHEMA, run ./setup install (writes .deps/schema-path) or put the "
        "bundle in crosscheck-schema/ beside the target\n");
    std::exit(2);
  }
  auto loaded = schema::load_schema(*path);
  if (!loaded) {
    std::fprintf(stderr, "ERROR: %s\n", loaded.error().message().c_str());
    std::exit(2);
  }
  if (loaded->roots.empty()) {
    std::fprintf(stderr, "ERROR: %s has no roots\n", path->c_str());
    std::exit(2);
  }
  return std::make_unique<schema::Ir>(std::move(loaded).value());
}

/// Printable form of a payload for the report: bytes outside ASCII 0x20..0x7e as \xNN, cut at 400.
std::string printable(std::string_view bytes) {
  constexpr std::size_t kMax = 400;
  std::string out;
  for (std::size_t i = 0; i < bytes.size() && i < kMax; ++i) {
    auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (bytes.size() > kMax) out += "... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

/// Warnings as a sorted multiset of "path code".
std::vector<std::string> warnings(const decoder::DecodeResult& result) {
  std::vector<std::string> out;
  for (const auto& d : result.diagnostics) {
    if (d.severity == decoder::Severity::kWarning) out.push_back(d.path + " " + d.code);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& s : items) out += (out.size() > 1 ? ", " : "") + s;
  return out + "]";
}

const decoder::Diagnostic* first_error(const decoder::DecodeResult& result) {
  for (const auto& d : result.diagnostics) {
    if (d.severity == decoder::Severity::kError) return &d;
  }
  return nullptr;
}

std::string describe(const decoder::Diagnostic* d) {
  return d ? d->code + " at '" + d->path + "': " + d->message : std::string("(none)");
}

decoder::DecodeResult decode_or_die(const schema::Root& root, std::string_view payload) {
  try {
    return real_decoder().decode(root, payload);
  } catch (const std::exception& e) {
    violated("decode threw", &root, payload, e.what());
  } catch (...) {
    violated("decode threw", &root, payload, "a non-standard exception");
  }
}

}  // namespace

const schema::Ir& real_ir() {
  static const std::unique_ptr<schema::Ir> ir = load_real_ir();
  return *ir;
}

const decoder::Decoder& real_decoder() {
  static const decoder::Decoder decoder(real_ir());
  return decoder;
}

const schema::Root& root_for(std::uint8_t selector) {
  const auto& roots = real_ir().roots;
  return roots[selector % roots.size()];
}

void violated(std::string_view what, const schema::Root* root, std::string_view payload,
              std::string_view detail) {
  std::fprintf(stderr, "INVARIANT VIOLATED: %.*s\n  root:    %s\n  payload: %s\n  detail:  %.*s\n",
               static_cast<int>(what.size()), what.data(), root ? root->snake_name.c_str() : "(none)",
               printable(payload).c_str(), static_cast<int>(detail.size()), detail.data());
  std::fflush(stderr);
  std::abort();
}

void check_decode_invariants(const schema::Root& root, std::string_view payload) {
  decoder::DecodeResult first = decode_or_die(root, payload);
  const decoder::Diagnostic* error = first_error(first);
  if (!first.accepted) {
    if (!error) violated("rejected without an error diagnostic", &root, payload, joined(warnings(first)));
    return;
  }
  if (error) violated("accepted with an error diagnostic", &root, payload, describe(error));
  if (!first.raw) violated("accepted without the parsed value", &root, payload, "");
  if (!first.encoded) violated("accepted without an encoding", &root, payload, "");
  const std::string& encoded = *first.encoded;

  // Decoding the encoding parses it once for both checks: second.raw is parse(encoding).
  decoder::DecodeResult second = decode_or_die(root, encoded);
  if (!second.raw) {
    violated("the encoding does not parse", &root, payload,
             describe(first_error(second)) + "; encoding: " + encoded);
  }
  if (!json::semantically_equal(*second.raw, *first.raw)) {
    violated("the encoding is not semantically equal to the input", &root, payload, "encoding: " + encoded);
  }
  if (!second.accepted) {
    violated("the encoding decodes to rejected", &root, payload,
             describe(first_error(second)) + "; encoding: " + encoded);
  }
  auto before = warnings(first), after = warnings(second);
  if (before != after) {
    violated("the encoding decodes with other warnings", &root, payload,
             "input " + joined(before) + ", encoding " + joined(after) + "; encoding: " + encoded);
  }
  if (!second.encoded || *second.encoded != encoded) {
    violated("re-encoding the encoding changes it", &root, payload,
             "first: " + encoded + "; second: " + (second.encoded ? *second.encoded : std::string("(none)")));
  }
}

void check_selector_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  std::string_view payload(reinterpret_cast<const char*>(data) + 1, size - 1);
  check_decode_invariants(root_for(data[0]), payload);
}

}  // namespace crosscheck::fuzz
