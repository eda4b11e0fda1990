// schema_check.cpp: evaluation of a compiled schema node, keyword by keyword.
//
// Order (kept: crosscheck's own formats print the first error): $ref, type, const, enum, the string
// keywords, minimum, the array keywords, the object keywords, allOf, anyOf, oneOf, not, if/then/else.
// anyOf, oneOf, not, contains and if evaluate their subschemas for a yes/no answer (first error
// only) and report one error of their own where they fail.
#include <unordered_set>

#include "json/equal.hpp"
#include "json/pointer.hpp"
#include "json/schema_formats.hpp"
#include "json/schema_node.hpp"
#include "json/write.hpp"

namespace crosscheck::json {
namespace {

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

/// Code points of WTF-8: a lone surrogate is one code point, as an astral character is.
std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool has_lone_surrogate(const std::string& s) {
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (static_cast<unsigned char>(s[i]) == 0xED && static_cast<unsigned char>(s[i + 1]) >= 0xA0) return true;
  }
  return false;
}

bool has_astral(const std::string& s) {
  for (unsigned char c : s)
    if (c >= 0xF0) return true;
  return false;
}

bool has_non_ascii(const std::string& s) {
  for (unsigned char c : s)
    if (c >= 0x80) return true;
  return false;
}

/// A number an IEEE double cannot be trusted with: more than 15 significant digits, an integer
/// beyond 2^53 - 1, or a magnitude outside the normal double range.
bool beyond_double(const std::string& text) {
  std::size_t i = text[0] == '-' ? 1 : 0, significant = 0, zeros = 0;
  long long point = 0;  // decimal exponent of the first significant digit
  bool seen = false, fraction = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      fraction = true;
      continue;
    }
    if (text[i] == '0' && !seen) {
      if (fraction) --point;
      continue;
    }
    if (!seen) seen = true;
    if (!fraction) ++point;
    if (text[i] == '0') {
      ++zeros;
    } else {
      significant += zeros + 1;
      zeros = 0;
    }
  }
  if (!seen) return false;  // zero
  if (is_integral(text)) return !is_safe_integer(text);
  if (significant > 15) return true;
  if (i < text.size()) {
    std::string exponent = text.substr(i + 1);
    if (exponent.size() > 6) return true;
    point += std::stoll(exponent);
  }
  return point > 308 || point < -306;
}

class Checker {
 public:
  explicit Checker(Evaluation& ev) : ev_(ev) {}

  bool run(const SchemaNode& s, const Value& v, std::string& at) {
    const bool ok = check(s, v, at);
    if (ev_.sink) ev_.sink->evaluated(s.id, ok);
    return ok;
  }

 private:
  bool check(const SchemaNode& s, const Value& v, std::string& at) {
    if (s.boolean) return *s.boolean || fail(at, "false", "not allowed here");
    bool ok = true;
    // Each failed keyword: record it, and stop here when only the first error is wanted.
#define CHECK(cond)                     \
  do {                                  \
    if (!(cond)) {                      \
      ok = false;                       \
      if (ev_.first_only) return false; \
    }                                   \
  } while (0)
    if (s.ref) CHECK(run(*s.ref, v, at));
    if (!s.types.empty()) {
      bool match = false;
      std::string expected;
      for (const auto& t : s.types) {
        match = match || has_type(v, t);
        if (t == "integer" && v.is_number() && beyond_double(v.number_text()))
          trait(Trait::kIntegerBigNumber);
        expected += (expected.empty() ? "" : " or ") + article(t);
      }
      CHECK(match || fail(at, "type", "expected " + expected + ", got " + kind_name(v.kind())));
    }
    if (s.const_value) {
      equality_traits(*s.const_value, v);
      CHECK(semantically_equal(*s.const_value, v) ||
            fail(at, "const", "expected " + shown(*s.const_value) + ", got " + shown(v)));
    }
    if (s.enum_values) {
      bool match = false;
      std::string options;
      for (const auto& x : s.enum_values->items()) {
        equality_traits(x, v);
        match = match || semantically_equal(x, v);
        options += (options.empty() ? "" : ", ") + shown(x);
      }
      CHECK(match || fail(at, "enum", "expected one of " + options + ", got " + shown(v)));
    }
    if (v.is_string()) CHECK(string_keywords(s, v.string_value(), at));
    if (v.is_number() && s.minimum) {
      if (beyond_double(v.number_text()) || beyond_double(s.minimum->number_text()))
        trait(Trait::kMinimumBigNumber);
      CHECK(compare_numbers(v.number_text(), s.minimum->number_text()) >= 0 ||
            fail(at, "minimum",
                 "expected a number >= " + s.minimum->number_text() + ", got " + v.number_text()));
    }
    if (v.is_array()) CHECK(array_keywords(s, v, at));
    if (v.is_object()) CHECK(object_keywords(s, v, at));
    for (const SchemaNode* sub : s.all_of) CHECK(run(*sub, v, at));
    auto compound = [&](const char* keyword, const std::string& fallback) {
      if (s.description && s.description->is_string())
        return fail(at, keyword, "expected " + s.description->string_value());
      return fail(at, keyword, fallback);
    };
    if (!s.any_of.empty()) {
      std::string why;
      bool match = false;
      for (const SchemaNode* sub : s.any_of) {
        std::optional<SchemaError> e = probe(*sub, v, at);
        if (!e) {
          match = true;
          break;
        }
        why += (why.empty() ? "" : "; or ") + relative(*e, at);
      }
      CHECK(match || compound("anyOf", "none of the allowed forms fits: " + why));
    }
    if (!s.one_of.empty()) {
      std::size_t matched = 0;
      std::string why;
      for (const SchemaNode* sub : s.one_of) {
        std::optional<SchemaError> e = probe(*sub, v, at);
        if (!e)
          ++matched;
        else
          why += (why.empty() ? "" : "; or ") + relative(*e, at);
      }
      CHECK(matched != 0 || compound("oneOf", "none of the allowed forms fits: " + why));
      CHECK(matched <= 1 ||
            compound("oneOf", "exactly one of the allowed forms, but " + std::to_string(matched) + " fit"));
    }
    if (s.not_schema) CHECK(probe(*s.not_schema, v, at) || compound("not", "a value this schema forbids"));
    if (s.if_schema) {
      const SchemaNode* branch = probe(*s.if_schema, v, at) ? s.else_schema : s.then_schema;
      if (branch) CHECK(run(*branch, v, at));
    }
#undef CHECK
    return ok;
  }

  bool fail(const std::string& at, const char* keyword, std::string message, std::string member = {}) {
    ev_.errors.push_back(SchemaError{at, keyword, std::move(message), std::move(member)});
    return false;
  }
  void trait(Trait t) { ev_.traits |= static_cast<std::uint32_t>(t); }

  /// The first error of `s` on `v`, or nullopt; traits are kept, errors are not.
  std::optional<SchemaError> probe(const SchemaNode& s, const Value& v, std::string& at) {
    Evaluation sub;
    sub.first_only = true;
    sub.sink = ev_.sink;
    bool valid = Checker(sub).run(s, v, at);
    ev_.traits |= sub.traits;
    if (valid) return std::nullopt;
    return std::move(sub.errors.front());
  }

  static std::string relative(const SchemaError& e, const std::string& at) {
    std::string rest = e.path.substr(at.size());
    if (e.keyword == "required") rest += "/" + pointer_token(e.member);
    std::string message = e.keyword == "required" ? "required field is missing" : e.message;
    return rest.empty() ? message : "'" + rest.substr(1) + "' " + message;
  }

  void equality_traits(const Value& expected, const Value& v) {
    if (expected.is_number() && v.is_number() &&
        (beyond_double(expected.number_text()) || beyond_double(v.number_text())))
      trait(Trait::kEqualityBigNumber);
  }

  bool string_keywords(const SchemaNode& s, const std::string& text, const std::string& at) {
    bool ok = true;
    bool checked = s.min_length || s.max_length || s.pattern || s.format != Format::kNone;
    if (checked && has_lone_surrogate(text)) trait(Trait::kStringLoneSurrogate);
    if (s.min_length || s.max_length) {
      std::size_t length = code_points(text);
      if (s.min_length && length < *s.min_length) {
        ok = fail(at, "minLength",
                  *s.min_length == 1 ? "expected a non-empty string"
                                     : "expected at least " + std::to_string(*s.min_length) + " characters");
        if (ev_.first_only) return false;
      }
      if (s.max_length && length > *s.max_length) {
        ok = fail(at, "maxLength", "expected at most " + std::to_string(*s.max_length) + " characters");
        if (ev_.first_only) return false;
      }
    }
    if (s.pattern) {
      if (s.pattern->astral_sensitive() && has_astral(text)) trait(Trait::kPatternAstral);
      if (s.pattern->word_boundary() && has_non_ascii(text)) trait(Trait::kPatternWordBoundary);
      if (!s.pattern->search(code_points_of(text))) {
        ok = fail(
            at, "pattern",
            "expected a string matching /" + s.pattern->source() + "/, got " + shown(Value::string(text)));
        if (ev_.first_only) return false;
      }
    }
    if (s.format == Format::kDateTime) {
      DateTimeEdges edges;
      bool valid = date_time_valid(text, &edges);
      if (edges.leap_second) trait(Trait::kDateTimeLeapSecond);
      if (edges.lower_case) trait(Trait::kDateTimeLowerCase);
      if (edges.year_zero) trait(Trait::kDateTimeYearZero);
      if (!valid)
        ok = fail(at, "format",
                  "expected a date-time (RFC 3339 section 5.6), got " + shown(Value::string(text)));
    } else if (s.format == Format::kUri && !uri_valid(text)) {
      ok = fail(at, "format", "expected an absolute URI (RFC 3986), got " + shown(Value::string(text)));
    }
    return ok;
  }

  bool array_keywords(const SchemaNode& s, const Value& v, std::string& at) {
    const auto& items = v.items();
    bool ok = true;
    auto stop = [&](bool good) {
      ok = ok && good;
      return !good && ev_.first_only;
    };
    if (s.min_items && items.size() < *s.min_items &&
        stop(fail(at, "minItems",
                  *s.min_items == 1 ? "expected a non-empty array"
                                    : "expected at least " + std::to_string(*s.min_items) + " items")))
      return false;
    if (s.max_items && items.size() > *s.max_items &&
        stop(fail(at, "maxItems", "expected at most " + std::to_string(*s.max_items) + " items")))
      return false;
    if (s.unique_items) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        for (std::size_t k = 0; k < i; ++k) {
          equality_traits(items[i], items[k]);
          if (semantically_equal(items[i], items[k])) {
            if (stop(
                    fail(at + "/" + std::to_string(i), "uniqueItems",
                         "expected unique items, " + shown(items[i]) + " repeats item " + std::to_string(k))))
              return false;
            break;
          }
        }
      }
    }
    const std::size_t length = at.size();
    if (s.items) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        at += "/" + std::to_string(i);
        bool good = run(*s.items, items[i], at);
        at.resize(length);
        if (stop(good)) return false;
      }
    }
    if (s.contains) {
      bool found = false;
      for (std::size_t i = 0; i < items.size() && !found; ++i) {
        at += "/" + std::to_string(i);
        found = !probe(*s.contains, items[i], at);
        at.resize(length);
      }
      if (!found && stop(fail(at, "contains", "expected at least one item that fits the contains schema")))
        return false;
    }
    return ok;
  }

  bool object_keywords(const SchemaNode& s, const Value& v, std::string& at) {
    const auto& members = v.members();
    bool ok = true;
    auto stop = [&](bool good) {
      ok = ok && good;
      return !good && ev_.first_only;
    };
    // Duplicate keys: the last member of a name is the one every SDK keeps, so only it is checked.
    std::size_t distinct = members.size();
    if (members.size() > 1) {
      std::unordered_set<std::string_view> seen;
      for (const auto& m : members) seen.insert(m.key);
      distinct = seen.size();
      if (distinct != members.size()) trait(Trait::kDuplicateKeys);
    }
    if (s.min_properties && distinct < *s.min_properties &&
        stop(
            fail(at, "minProperties", "expected at least " + std::to_string(*s.min_properties) + " members")))
      return false;
    const std::size_t length = at.size();
    for (std::size_t i = 0; i < members.size(); ++i) {
      const Member& m = members[i];
      if (distinct != members.size() && v.find(m.key) != &m.value) continue;
      if (s.property_names) {
        if (std::optional<SchemaError> e = probe(*s.property_names, Value::string(m.key), at)) {
          if (stop(fail(at, "propertyNames",
                        "member name " + quote(m.key) + " is not allowed: " + e->message)))
            return false;
        }
      }
      append_pointer_token(at, m.key);
      auto p = s.property_index.find(m.key);
      const SchemaNode* sub = p == s.property_index.end() ? nullptr : p->second;
      if (!sub && s.additional && s.additional->boolean && !*s.additional->boolean) {
        std::string known;
        for (const auto& [name, node] : s.properties) known += (known.empty() ? "" : ", ") + name;
        bool good =
            fail(at, "additionalProperties",
                 "unknown field" + (known.empty() ? std::string() : " (expected one of: " + known + ")"));
        at.resize(length);
        if (stop(good)) return false;
        continue;
      }
      if (!sub) sub = s.additional;
      bool good = !sub || run(*sub, m.value, at);
      at.resize(length);
      if (stop(good)) return false;
    }
    for (const auto& r : s.required) {
      if (!v.find(r) && stop(fail(at, "required", "required member " + quote(r) + " is missing", r)))
        return false;
    }
    return ok;
  }

  Evaluation& ev_;
};

}  // namespace

bool evaluate(const SchemaNode& node, const Value& v, std::string& path, Evaluation& ev) {
  return Checker(ev).run(node, v, path);
}

}  // namespace crosscheck::json
