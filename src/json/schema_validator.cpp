// schema_validator.cpp: the JSON Schema subset behind crosscheck's own file formats.
#include "json/schema_validator.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

#include "json/equal.hpp"
#include "json/parse.hpp"
#include "json/pointer.hpp"
#include "json/write.hpp"

namespace crosscheck::json {
namespace {

const std::set<std::string, std::less<>> kAnnotations = {"$schema",     "$id",      "$comment", "title",
                                                         "description", "examples", "default"};
const std::set<std::string, std::less<>> kKeywords = {
    "type",    "enum",     "const",    "properties",  "required",  "additionalProperties",
    "items",   "minItems", "maxItems", "uniqueItems", "minLength", "maxLength",
    "pattern", "minimum",  "anyOf",    "oneOf",       "allOf",     "not",
    "$ref",    "$defs"};
const std::set<std::string, std::less<>> kTypes = {"null",   "boolean", "object", "array",
                                                   "number", "string",  "integer"};

std::string unescape_token(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size()) {
      out += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

std::vector<std::string> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < pointer.size()) {
    std::size_t next = pointer.find('/', i + 1);
    if (next == std::string_view::npos) next = pointer.size();
    tokens.push_back(unescape_token(pointer.substr(i + 1, next - i - 1)));
    i = next;
  }
  return tokens;
}

const Value* resolve_ref(const Value& root, std::string_view ref) {
  if (ref.substr(0, 2) != "#/") return nullptr;
  const Value* node = &root;
  for (const auto& t : pointer_tokens(ref.substr(1))) {
    node = node->is_object() ? node->find(t) : nullptr;
    if (!node) return nullptr;
  }
  return node;
}

bool is_count(const Value* v) {
  return v && v->is_number() && is_integral(v->number_text()) && v->number_text()[0] != '-';
}

std::size_t count_of(const Value& v) { return std::stoull(canonical_number(v.number_text())); }

/// Load-time check of one schema node: supported keywords with well-formed values.
std::optional<std::string> check_schema(const Value& root, const Value& node, const std::string& at) {
  if (node.is_bool()) return std::nullopt;
  if (!node.is_object()) return at + ": expected a schema (object or boolean)";
  for (const auto& m : node.members()) {
    std::string here = at + "/" + pointer_token(m.key);
    const Value& v = m.value;
    if (kAnnotations.count(m.key)) continue;
    if (!kKeywords.count(m.key))
      return here + ": keyword not supported by crosscheck's schema validator (json/schema_validator.hpp)";
    if (m.key == "type") {
      std::vector<const Value*> names;
      if (v.is_string()) names.push_back(&v);
      if (v.is_array())
        for (const auto& x : v.items()) names.push_back(&x);
      if (names.empty()) return here + ": expected a type name or an array of them";
      for (const auto* n : names) {
        if (!n->is_string() || !kTypes.count(n->string_value()))
          return here + ": expected a JSON Schema type name";
      }
    } else if (m.key == "enum" && (!v.is_array() || v.items().empty())) {
      return here + ": expected a non-empty array";
    } else if (m.key == "properties" || m.key == "$defs") {
      if (!v.is_object()) return here + ": expected an object of schemas";
      for (const auto& p : v.members()) {
        if (auto e = check_schema(root, p.value, here + "/" + pointer_token(p.key))) return e;
      }
    } else if (m.key == "required") {
      if (!v.is_array()) return here + ": expected an array of member names";
      for (const auto& x : v.items()) {
        if (!x.is_string()) return here + ": expected an array of member names";
      }
    } else if (m.key == "additionalProperties" || m.key == "items" || m.key == "not") {
      if (auto e = check_schema(root, v, here)) return e;
    } else if (m.key == "minItems" || m.key == "maxItems" || m.key == "minLength" || m.key == "maxLength") {
      if (!is_count(&v)) return here + ": expected a non-negative integer";
    } else if (m.key == "uniqueItems" && !v.is_bool()) {
      return here + ": expected true or false";
    } else if (m.key == "minimum" && !v.is_number()) {
      return here + ": expected a number";
    } else if (m.key == "pattern") {
      if (!v.is_string()) return here + ": expected a regular expression";
      try {
        std::regex re(v.string_value(), std::regex::ECMAScript);
      } catch (const std::regex_error&) {
        return here + ": not a valid regular expression";
      }
    } else if (m.key == "anyOf" || m.key == "oneOf" || m.key == "allOf") {
      if (!v.is_array() || v.items().empty()) return here + ": expected a non-empty array of schemas";
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        if (auto e = check_schema(root, v.items()[i], here + "/" + std::to_string(i))) return e;
      }
    } else if (m.key == "$ref") {
      if (!v.is_string() || !resolve_ref(root, v.string_value()))
        return here + ": expected a reference \"#/...\" to a node of this schema";
    }
  }
  return std::nullopt;
}

std::string article(const std::string& type) {
  if (type == "null") return "null";
  bool vowel = type[0] == 'a' || type[0] == 'o' || type[0] == 'i';
  return (vowel ? "an " : "a ") + type;
}

std::string shown(const Value& v) {
  std::string text = write(v);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

bool has_type(const Value& v, const std::string& type) {
  if (type == "integer") return v.is_number() && is_integral(v.number_text());
  return type == kind_name(v.kind());
}

class Checker {
 public:
  explicit Checker(const Value& root) : root_(root) {}

  std::optional<SchemaViolation> check(const Value& schema, const Value& v, const std::string& at) const {
    if (schema.is_bool()) {
      if (schema.as_bool()) return std::nullopt;
      return SchemaViolation{at, "not allowed here"};
    }
    auto fail = [&](std::string message) {
      return std::optional<SchemaViolation>(SchemaViolation{at, message});
    };
    if (const Value* ref = schema.find("$ref")) {
      if (auto e = check(*resolve_ref(root_, ref->string_value()), v, at)) return e;
    }
    if (const Value* type = schema.find("type")) {
      std::vector<std::string> types;
      if (type->is_string()) types.push_back(type->string_value());
      if (type->is_array())
        for (const auto& t : type->items()) types.push_back(t.string_value());
      bool ok = false;
      std::string expected;
      for (const auto& t : types) {
        ok = ok || has_type(v, t);
        expected += (expected.empty() ? "" : " or ") + article(t);
      }
      if (!ok) return fail("expected " + expected + ", got " + kind_name(v.kind()));
    }
    if (const Value* c = schema.find("const"); c && !semantically_equal(*c, v))
      return fail("expected " + shown(*c) + ", got " + shown(v));
    if (const Value* e = schema.find("enum")) {
      bool ok = false;
      std::string options;
      for (const auto& x : e->items()) {
        ok = ok || semantically_equal(x, v);
        options += (options.empty() ? "" : ", ") + shown(x);
      }
      if (!ok) return fail("expected one of " + options + ", got " + shown(v));
    }
    if (v.is_string()) {
      std::size_t length = code_points(v.string_value());
      if (const Value* n = schema.find("minLength"); n && length < count_of(*n))
        return fail(count_of(*n) == 1 ? "expected a non-empty string"
                                      : "expected at least " + std::to_string(count_of(*n)) + " characters");
      if (const Value* n = schema.find("maxLength"); n && length > count_of(*n))
        return fail("expected at most " + std::to_string(count_of(*n)) + " characters");
      if (const Value* p = schema.find("pattern")) {
        std::regex re(p->string_value(), std::regex::ECMAScript);
        if (!std::regex_search(v.string_value(), re))
          return fail("expected a string matching /" + p->string_value() + "/, got " + shown(v));
      }
    }
    if (v.is_number()) {
      if (const Value* n = schema.find("minimum");
          n && compare_numbers(v.number_text(), n->number_text()) < 0)
        return fail("expected a number >= " + n->number_text() + ", got " + v.number_text());
    }
    if (v.is_array()) {
      const auto& items = v.items();
      if (const Value* n = schema.find("minItems"); n && items.size() < count_of(*n))
        return fail(count_of(*n) == 1 ? "expected a non-empty array"
                                      : "expected at least " + std::to_string(count_of(*n)) + " items");
      if (const Value* n = schema.find("maxItems"); n && items.size() > count_of(*n))
        return fail("expected at most " + std::to_string(count_of(*n)) + " items");
      if (const Value* u = schema.find("uniqueItems"); u && u->as_bool()) {
        for (std::size_t i = 0; i < items.size(); ++i) {
          for (std::size_t k = 0; k < i; ++k) {
            if (semantically_equal(items[i], items[k]))
              return SchemaViolation{
                  at + "/" + std::to_string(i),
                  "expected unique items, " + shown(items[i]) + " repeats item " + std::to_string(k)};
          }
        }
      }
      if (const Value* s = schema.find("items")) {
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (auto e = check(*s, items[i], at + "/" + std::to_string(i))) return e;
        }
      }
    }
    if (v.is_object()) {
      const Value* props = schema.find("properties");
      const Value* extra = schema.find("additionalProperties");
      for (const auto& m : v.members()) {
        std::string child = at;
        append_pointer_token(child, m.key);
        const Value* s = props ? props->find(m.key) : nullptr;
        if (!s && extra && extra->is_bool() && !extra->as_bool()) {
          std::string known;
          if (props)
            for (const auto& p : props->members()) known += (known.empty() ? "" : ", ") + p.key;
          return SchemaViolation{
              child, "unknown field" + (known.empty() ? std::string() : " (expected one of: " + known + ")")};
        }
        if (!s) s = extra;
        if (s) {
          if (auto e = check(*s, m.value, child)) return e;
        }
      }
      if (const Value* req = schema.find("required")) {
        for (const auto& r : req->items()) {
          if (!v.find(r.string_value())) {
            std::string child = at;
            append_pointer_token(child, r.string_value());
            return SchemaViolation{child, "required field is missing"};
          }
        }
      }
    }
    if (const Value* all = schema.find("allOf")) {
      for (const auto& s : all->items()) {
        if (auto e = check(s, v, at)) return e;
      }
    }
    const Value* description = schema.find("description");
    auto compound = [&](const std::string& fallback) {
      if (description && description->is_string()) return fail("expected " + description->string_value());
      return fail(fallback);
    };
    if (const Value* any = schema.find("anyOf")) {
      std::string why;
      bool ok = false;
      for (const auto& s : any->items()) {
        auto e = check(s, v, at);
        if (!e) {
          ok = true;
          break;
        }
        why += (why.empty() ? "" : "; or ") + describe_relative(*e, at);
      }
      if (!ok) return compound("none of the allowed forms fits: " + why);
    }
    if (const Value* one = schema.find("oneOf")) {
      std::size_t matched = 0;
      std::string why;
      for (const auto& s : one->items()) {
        auto e = check(s, v, at);
        if (!e)
          ++matched;
        else
          why += (why.empty() ? "" : "; or ") + describe_relative(*e, at);
      }
      if (matched == 0) return compound("none of the allowed forms fits: " + why);
      if (matched > 1)
        return compound("exactly one of the allowed forms, but " + std::to_string(matched) + " fit");
    }
    if (const Value* no = schema.find("not"); no && !check(*no, v, at))
      return compound("a value this schema forbids");
    return std::nullopt;
  }

 private:
  static std::size_t code_points(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  }
  static std::string describe_relative(const SchemaViolation& e, const std::string& at) {
    std::string rest = e.pointer.substr(at.size());
    return rest.empty() ? e.message : "'" + rest.substr(1) + "' " + e.message;
  }
  const Value& root_;
};

}  // namespace

Result<SchemaValidator, std::string> SchemaValidator::from_value(Value schema) {
  if (auto e = check_schema(schema, schema, "#")) return *e;
  return SchemaValidator(std::move(schema));
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
  return Checker(schema_).check(schema_, instance, "");
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
