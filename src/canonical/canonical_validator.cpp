// canonical_validator.cpp: AHP documents by name on the JSON Schema engine.
#include "canonical/canonical_validator.hpp"

#include <algorithm>

#include "json/parse.hpp"
#include "json/write.hpp"

namespace crosscheck::canonical {

std::string root_document(const schema::Ir& ir, std::string_view root) {
  const schema::Root* r = ir.find_root(root);
  if (!r || !r->pointer.empty()) return "";
  return document_name(r->document);
}

std::string document_name(std::string_view path) {
  std::string_view file = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  for (std::string_view suffix : {std::string_view(".schema.json"), std::string_view(".json")}) {
    if (file.size() > suffix.size() && file.substr(file.size() - suffix.size()) == suffix)
      return std::string(file.substr(0, file.size() - suffix.size()));
  }
  return std::string(file);
}

Result<CanonicalValidator, json::SchemaLoadError> CanonicalValidator::from_ir(const schema::Ir& ir) {
  std::vector<json::SchemaDocument> documents;
  std::vector<std::pair<std::string, std::size_t>> named;
  for (const schema::Document& doc : ir.documents) {
    named.emplace_back(document_name(doc.path), documents.size());
    documents.push_back(json::SchemaDocument{doc.path, doc.body});
  }
  auto set = json::SchemaSet::load(std::move(documents));
  if (!set.ok()) return set.error();
  std::sort(named.begin(), named.end());
  std::vector<std::string> names;
  std::vector<std::size_t> index;
  for (auto& [name, i] : named) {
    if (!names.empty() && names.back() == name) {
      return json::SchemaLoadError{ir.documents[i].path, "",
                                   "one document named " + name + " (the name is what `--document` takes)"};
    }
    names.push_back(name);
    index.push_back(i);
  }
  return CanonicalValidator(std::move(set.value()), std::move(names), std::move(index));
}

bool CanonicalValidator::knows(std::string_view document) const {
  return std::binary_search(names_.begin(), names_.end(), document);
}

std::optional<json::Validation> CanonicalValidator::validate_value(std::string_view document,
                                                                   const json::Value& instance,
                                                                   json::NodeSink* sink) const {
  auto it = std::lower_bound(names_.begin(), names_.end(), document);
  if (it == names_.end() || *it != document) return std::nullopt;
  return set_.validate(index_[static_cast<std::size_t>(it - names_.begin())], instance, sink);
}

const json::SchemaNode* CanonicalValidator::root(std::string_view document) const {
  auto it = std::lower_bound(names_.begin(), names_.end(), document);
  if (it == names_.end() || *it != document) return nullptr;
  return &set_.root(index_[static_cast<std::size_t>(it - names_.begin())]);
}

std::optional<json::Validation> CanonicalValidator::validate(std::string_view document,
                                                             std::string_view input,
                                                             json::NodeSink* sink) const {
  if (!knows(document)) return std::nullopt;
  auto parsed = json::parse(input);
  if (!parsed.ok()) {
    json::Validation out;
    out.valid = false;
    out.errors.push_back(json::SchemaError{"", "json", "not JSON: " + parsed.error().message(), ""});
    return out;
  }
  return validate_value(document, parsed.value(), sink);
}

std::string render(const json::Validation& result) {
  std::string out = R"({"outcome":)";
  out += result.valid ? R"("valid")" : R"("invalid")";
  out += R"(,"errors":[)";
  for (std::size_t i = 0; i < result.errors.size(); ++i) {
    const json::SchemaError& e = result.errors[i];
    if (i) out += ',';
    out += R"({"path":)" + json::quote(e.path) + R"(,"keyword":)" + json::quote(e.keyword) +
           R"(,"message":)" + json::quote(e.message) + "}";
  }
  out += R"(],"implementationDefined":[)";
  for (std::size_t i = 0; i < result.implementation_defined.size(); ++i) {
    if (i) out += ',';
    out += json::quote(result.implementation_defined[i]);
  }
  out += "]}";
  return out;
}

}  // namespace crosscheck::canonical
