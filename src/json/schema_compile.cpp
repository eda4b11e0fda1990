// schema_compile.cpp: loading a SchemaSet: the keyword subset, well-formed keyword values, and $ref
// resolution within and across documents. Every refusal names the document and the JSON Pointer.
#include <deque>
#include <set>
#include <unordered_map>

#include "json/equal.hpp"
#include "json/pointer.hpp"
#include "json/schema_node.hpp"
#include "json/schema_validator.hpp"
#include "json/wtf8.hpp"

namespace crosscheck::json {

struct SchemaSet::Impl {
  std::vector<SchemaDocument> documents;  // not resized after load: nodes point into them
  std::vector<std::string> ids;           // each document's $id ("" when it has none)
  std::deque<SchemaNode> nodes;
  std::vector<const SchemaNode*> roots;
};

namespace {

const std::set<std::string, std::less<>> kAnnotations = {"$schema",     "$comment", "title",
                                                         "description", "examples", "default"};
const std::set<std::string, std::less<>> kTypes = {"null",   "boolean", "object", "array",
                                                   "number", "string",  "integer"};

struct LoadFailure {
  SchemaLoadError error;
};

std::string percent_decoded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

/// The node at JSON Pointer `pointer` (RFC 6901) in `root`, or nullptr.
const Value* at_pointer(const Value& root, std::string_view pointer) {
  const Value* node = &root;
  std::size_t i = 0;
  while (node && i < pointer.size()) {
    std::size_t next = pointer.find('/', i + 1);
    if (next == std::string_view::npos) next = pointer.size();
    std::string token;
    std::string_view raw = pointer.substr(i + 1, next - i - 1);
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '~' && k + 1 < raw.size() && (raw[k + 1] == '0' || raw[k + 1] == '1')) {
        token += raw[++k] == '1' ? '/' : '~';
      } else {
        token += raw[k];
      }
    }
    if (node->is_object()) {
      node = node->find(token);
    } else if (node->is_array() && !token.empty() &&
               token.find_first_not_of("0123456789") == std::string::npos && token.size() < 10 &&
               std::stoul(token) < node->items().size()) {
      node = &node->items()[std::stoul(token)];
    } else {
      node = nullptr;
    }
    i = next;
  }
  return node;
}

class Compiler {
 public:
  explicit Compiler(SchemaSet::Impl& set) : set_(set) {}

  const SchemaNode* compile(std::size_t doc, const Value& v, const std::string& at) {
    if (auto it = by_value_.find(&v); it != by_value_.end()) return it->second;
    SchemaNode& node = set_.nodes.emplace_back();
    node.id = static_cast<std::uint32_t>(set_.nodes.size() - 1);
    node.location = set_.documents[doc].name + "#" + at;
    by_value_[&v] = &node;
    if (v.is_bool()) {
      node.boolean = v.as_bool();
      return &node;
    }
    if (!v.is_object()) fail(doc, at, "expected a schema (object or boolean)");
    for (const Member& m : v.members()) keyword(doc, node, m, at + "/" + pointer_token(m.key), at.empty());
    return &node;
  }

 private:
  [[noreturn]] void fail(std::size_t doc, const std::string& at, std::string message) {
    throw LoadFailure{SchemaLoadError{set_.documents[doc].name, at, std::move(message)}};
  }

  std::size_t count(std::size_t doc, const Value& v, const std::string& at) {
    if (!v.is_number() || !is_integral(v.number_text()) || v.number_text()[0] == '-')
      fail(doc, at, "expected a non-negative integer");
    std::string digits = canonical_number(v.number_text());
    if (digits.find('E') != std::string::npos || digits.size() > 18) return SIZE_MAX;
    return std::stoull(digits);
  }

  std::vector<const SchemaNode*> schema_array(std::size_t doc, const Value& v, const std::string& at) {
    if (!v.is_array() || v.items().empty()) fail(doc, at, "expected a non-empty array of schemas");
    std::vector<const SchemaNode*> out;
    for (std::size_t i = 0; i < v.items().size(); ++i)
      out.push_back(compile(doc, v.items()[i], at + "/" + std::to_string(i)));
    return out;
  }

  const SchemaNode* reference(std::size_t doc, const Value& v, const std::string& at) {
    if (!v.is_string()) fail(doc, at, "expected a reference (a string)");
    const std::string& ref = v.string_value();
    std::size_t hash = ref.find('#');
    std::string target = ref.substr(0, hash);
    std::string fragment = hash == std::string::npos ? "" : percent_decoded(ref.substr(hash + 1));
    std::size_t to = doc;
    if (!target.empty()) {
      std::string uri = target;
      std::size_t colon = target.find(':'), slash = target.find('/');
      bool absolute = colon != std::string::npos && (slash == std::string::npos || colon < slash);
      if (!absolute) {
        const std::string& base = set_.ids[doc];
        if (base.empty() || target[0] == '/' || target.find("..") != std::string::npos ||
            target.find("./") != std::string::npos || target.find('?') != std::string::npos)
          fail(doc, at, "expected a reference to a document of the set by a file name relative to the $id");
        uri = base.substr(0, base.rfind('/') + 1) + target;
      }
      auto it = by_id_.find(uri);
      if (it == by_id_.end())
        fail(doc, at, "expected a reference to a document of the set, " + uri + " is none");
      to = it->second;
    }
    if (!fragment.empty() && fragment[0] != '/')
      fail(doc, at, "expected a JSON Pointer fragment (\"#/...\"); anchors are not supported");
    const Value* node = at_pointer(set_.documents[to].body, fragment);
    if (!node) fail(doc, at, "expected a reference to a node, " + ref + " names none");
    return compile(to, *node, fragment);
  }

  void keyword(std::size_t doc, SchemaNode& n, const Member& m, const std::string& here, bool root) {
    const std::string& k = m.key;
    const Value& v = m.value;
    if (kAnnotations.count(k) || k.rfind("x-", 0) == 0) {
      if (k == "description") n.description = &v;
      return;
    }
    if (k == "$id") {
      if (!root) fail(doc, here, "$id only at the root of a document");
    } else if (k == "type") {
      std::vector<const Value*> names;
      if (v.is_string()) names.push_back(&v);
      if (v.is_array())
        for (const auto& x : v.items()) names.push_back(&x);
      if (names.empty()) fail(doc, here, "expected a type name or an array of them");
      for (const auto* x : names) {
        if (!x->is_string() || !kTypes.count(x->string_value()))
          fail(doc, here, "expected a JSON Schema type name");
        n.types.push_back(x->string_value());
      }
    } else if (k == "enum") {
      if (!v.is_array() || v.items().empty()) fail(doc, here, "expected a non-empty array");
      n.enum_values = &v;
    } else if (k == "const") {
      n.const_value = &v;
    } else if (k == "properties") {
      if (!v.is_object()) fail(doc, here, "expected an object of schemas");
      n.has_properties = true;
      for (const auto& p : v.members()) {
        const SchemaNode* s = compile(doc, p.value, here + "/" + pointer_token(p.key));
        if (n.property_index.emplace(p.key, s).second) {
          n.properties.emplace_back(p.key, s);
        } else {
          n.property_index[p.key] = s;  // a repeated key: the last one counts, as everywhere
        }
      }
    } else if (k == "$defs") {
      if (!v.is_object()) fail(doc, here, "expected an object of schemas");
      for (const auto& p : v.members()) compile(doc, p.value, here + "/" + pointer_token(p.key));
    } else if (k == "required") {
      if (!v.is_array()) fail(doc, here, "expected an array of member names");
      for (const auto& x : v.items()) {
        if (!x.is_string()) fail(doc, here, "expected an array of member names");
        n.required.push_back(x.string_value());
      }
    } else if (k == "additionalProperties") {
      n.additional = compile(doc, v, here);
    } else if (k == "propertyNames") {
      n.property_names = compile(doc, v, here);
    } else if (k == "items") {
      n.items = compile(doc, v, here);
    } else if (k == "contains") {
      n.contains = compile(doc, v, here);
    } else if (k == "not") {
      n.not_schema = compile(doc, v, here);
    } else if (k == "if") {
      n.if_schema = compile(doc, v, here);
    } else if (k == "then") {
      n.then_schema = compile(doc, v, here);
    } else if (k == "else") {
      n.else_schema = compile(doc, v, here);
    } else if (k == "minItems") {
      n.min_items = count(doc, v, here);
    } else if (k == "maxItems") {
      n.max_items = count(doc, v, here);
    } else if (k == "minLength") {
      n.min_length = count(doc, v, here);
    } else if (k == "maxLength") {
      n.max_length = count(doc, v, here);
    } else if (k == "minProperties") {
      n.min_properties = count(doc, v, here);
    } else if (k == "uniqueItems") {
      if (!v.is_bool()) fail(doc, here, "expected true or false");
      n.unique_items = v.as_bool();
    } else if (k == "minimum") {
      if (!v.is_number()) fail(doc, here, "expected a number");
      n.minimum = &v;
    } else if (k == "pattern") {
      if (!v.is_string()) fail(doc, here, "expected a regular expression");
      auto p = EcmaPattern::compile(v.string_value());
      if (!p.ok()) fail(doc, here, "not a valid regular expression: " + p.error());
      n.pattern = std::move(p.value());
    } else if (k == "format") {
      if (v.is_string() && v.string_value() == "date-time") {
        n.format = Format::kDateTime;
      } else if (v.is_string() && v.string_value() == "uri") {
        n.format = Format::kUri;
      } else {
        fail(doc, here, "format not supported by crosscheck's schema validator (date-time and uri are)");
      }
    } else if (k == "anyOf") {
      n.any_of = schema_array(doc, v, here);
    } else if (k == "oneOf") {
      n.one_of = schema_array(doc, v, here);
    } else if (k == "allOf") {
      n.all_of = schema_array(doc, v, here);
    } else if (k == "$ref") {
      n.ref = reference(doc, v, here);
    } else {
      fail(doc, here, "keyword not supported by crosscheck's schema validator (json/schema_validator.hpp)");
    }
  }

 public:
  void index_ids() {
    for (std::size_t i = 0; i < set_.documents.size(); ++i) {
      const Value& body = set_.documents[i].body;
      const Value* id = body.is_object() ? body.find("$id") : nullptr;
      std::string text = id && id->is_string() ? id->string_value() : "";
      if (id && (!id->is_string() || text.find('#') != std::string::npos))
        fail(i, "/$id", "expected an absolute URI without a fragment");
      set_.ids.push_back(text);
      if (!text.empty() && !by_id_.emplace(text, i).second)
        fail(i, "/$id",
             "each $id once, " + text + " is also the $id of " + set_.documents[by_id_[text]].name);
    }
  }

 private:
  SchemaSet::Impl& set_;
  std::unordered_map<const Value*, const SchemaNode*> by_value_;
  std::unordered_map<std::string, std::size_t> by_id_;
};

}  // namespace

Result<SchemaSet, SchemaLoadError> SchemaSet::load(std::vector<SchemaDocument> documents) {
  auto impl = std::make_unique<Impl>();
  impl->documents = std::move(documents);
  try {
    Compiler compiler(*impl);
    compiler.index_ids();
    for (std::size_t i = 0; i < impl->documents.size(); ++i)
      impl->roots.push_back(compiler.compile(i, impl->documents[i].body, ""));
  } catch (LoadFailure& failure) {
    return std::move(failure.error);
  }
  return SchemaSet(std::move(impl));
}

SchemaSet::SchemaSet(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SchemaSet::SchemaSet(SchemaSet&&) noexcept = default;
SchemaSet& SchemaSet::operator=(SchemaSet&&) noexcept = default;
SchemaSet::~SchemaSet() = default;

std::size_t SchemaSet::size() const { return impl_->documents.size(); }
const std::string& SchemaSet::name(std::size_t document) const { return impl_->documents[document].name; }

Validation SchemaSet::validate(std::size_t document, const Value& instance, NodeSink* sink) const {
  Evaluation ev;
  ev.sink = sink;
  std::string path;
  Validation out;
  out.valid = evaluate(*impl_->roots[document], instance, path, ev);
  out.errors = std::move(ev.errors);
  out.implementation_defined = trait_names(ev.traits);
  return out;
}

const SchemaNode& SchemaSet::root(std::size_t document) const { return *impl_->roots[document]; }
std::size_t SchemaSet::node_count() const { return impl_->nodes.size(); }
const SchemaNode& SchemaSet::node(std::size_t id) const { return impl_->nodes[id]; }

std::optional<SchemaError> SchemaSet::first_error(std::size_t document, const Value& instance) const {
  Evaluation ev;
  ev.first_only = true;
  std::string path;
  if (evaluate(*impl_->roots[document], instance, path, ev)) return std::nullopt;
  return std::move(ev.errors.front());
}

}  // namespace crosscheck::json
