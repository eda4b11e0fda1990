// schema_validator.cpp: crosscheck's own schemas on the one engine (schema_compile.cpp,
// schema_check.cpp), the trait names, and readable locations for violations.
#include "json/schema_validator.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "json/parse.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"

namespace crosscheck::json {
namespace {

constexpr const char* kTraitNames[] = {
    "pattern-astral",       "pattern-word-boundary", "string-lone-surrogate", "date-time-leap-second",
    "date-time-lower-case", "date-time-year-zero",   "minimum-big-number",    "integer-big-number",
    "equality-big-number",  "duplicate-keys",
};

std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < pointer.size()) {
    std::size_t next = pointer.find('/', i + 1);
    if (next == std::string_view::npos) next = pointer.size();
    std::string token;
    std::string_view raw = pointer.substr(i + 1, next - i - 1);
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '~' && k + 1 < raw.size()) {
        token += raw[++k] == '1' ? '/' : '~';
      } else {
        token += raw[k];
      }
    }
    tokens.push_back(std::move(token));
    i = next;
  }
  return tokens;
}

}  // namespace

std::vector<std::string> trait_names(std::uint32_t traits) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::size(kTraitNames); ++i) {
    if (traits & (1u << i)) out.emplace_back(kTraitNames[i]);
  }
  return out;
}

Result<SchemaValidator, std::string> SchemaValidator::from_value(Value schema) {
  std::vector<SchemaDocument> docs;
  docs.push_back(SchemaDocument{"", std::move(schema)});
  auto set = SchemaSet::load(std::move(docs));
  if (!set.ok()) return set.error().text();
  return SchemaValidator(std::make_shared<const SchemaSet>(std::move(set.value())));
}

Result<SchemaValidator, std::string> SchemaValidator::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return path + ": cannot be read";
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = parse(ss.str());
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  auto v = from_value(std::move(parsed.value()));
  if (!v.ok()) return path + ": " + v.error();
  return v;
}

std::optional<SchemaViolation> SchemaValidator::validate(const Value& instance) const {
  std::optional<SchemaError> e = set_->first_error(0, instance);
  if (!e) return std::nullopt;
  if (e->keyword == "required") {
    std::string pointer = e->path;
    append_pointer_token(pointer, e->member);
    return SchemaViolation{pointer, "required field is missing"};
  }
  return SchemaViolation{e->path, e->message};
}

const SchemaValidator& shipped_schema(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, SchemaValidator> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  auto loaded = SchemaValidator::from_file(std::string(CROSSCHECK_SOURCE_DIR) + "/schemas/" + name);
  if (!loaded.ok()) throw Fatal("crosscheck's own schema " + loaded.error());
  return cache.emplace(name, std::move(loaded.value())).first->second;
}

std::string describe_location(const Value& instance, const std::string& pointer) {
  std::string entry, field;
  bool last_was_key = false;
  const Value* node = &instance;
  for (const auto& token : pointer_tokens(pointer)) {
    if (node && node->is_array()) {
      std::size_t i = std::strtoull(token.c_str(), nullptr, 10);
      node = i < node->items().size() ? &node->items()[i] : nullptr;
      const Value* id = node && node->is_object() ? node->find("id") : nullptr;
      if (id && id->is_string()) {
        entry = (entry.empty() ? "" : entry + ": ") + field + "[" + token + "] (id " +
                quote(id->string_value()) + ")";
        field.clear();
      } else {
        field += "[" + token + "]";
      }
      last_was_key = false;
    } else {
      node = node && node->is_object() ? node->find(token) : nullptr;
      field += (field.empty() ? "" : ".") + token;
      last_was_key = true;
    }
  }
  if (entry.empty() && field.empty()) return "the document";
  std::string where = field.empty() ? "" : (last_was_key ? "field '" + field + "'" : field);
  if (entry.empty()) return where;
  return where.empty() ? entry : entry + ": " + where;
}

}  // namespace crosscheck::json
