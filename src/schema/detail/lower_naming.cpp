// lower_naming.cpp: a public name for every named node: the stable names first, then the roots, then
// the $defs and $ref targets by the naming rule (docs/schema-ir.md), each name owned by one node.
#include <algorithm>
#include <cctype>
#include <functional>

#include "schema/detail/lower_builder.hpp"
#include "schema/detail/lower_support.hpp"

namespace crosscheck::schema::lowering {

namespace {

std::string_view file_name(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string document_stem(std::string_view path) {
  std::string_view name = file_name(path);
  for (std::string_view suffix : {std::string_view(".schema.json"), std::string_view(".json")}) {
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
      return std::string(name.substr(0, name.size() - suffix.size()));
    }
  }
  return std::string(name);
}

bool valid_public_name(std::string_view name) {
  return !name.empty() && std::isalpha(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace

bool Builder::is_root_node(const json::Value& body) {
  if (!body.is_object()) return false;
  for (std::string_view k : {"type", "const", "enum", "oneOf", "anyOf", "allOf"}) {
    if (body.contains(k)) return true;
  }
  return false;
}

void Builder::collect_named_nodes() {
  for (const Document& doc : ir_.documents) {
    const std::string root_key = key_of(doc.path, "");
    if (is_root_node(doc.body) || (naming_.names && naming_.names->count(root_key))) roots_.insert(root_key);
    if (!doc.body.is_object()) continue;
    if (const json::Value* defs = doc.body.find("$defs")) {
      for (const json::Member& def : defs->members()) {
        defs_.push_back(key_of(doc.path, child("/$defs", def.key)));
      }
    }
  }
  if (naming_.names) {
    for (const auto& [key, name] : *naming_.names) {
      std::size_t hash = key.find('#');
      auto it = hash == std::string::npos ? by_path_.end() : by_path_.find(key.substr(0, hash));
      bool found = it != by_path_.end() && find_node(it->second->body, key.substr(hash + 1)) != nullptr;
      if (!found) {
        if (naming_.strict) {
          fail(naming_.names_document, child("/sdkGeneration/stableNames", key),
               "a key \"<document path>#<JSON pointer>\" naming a node of the schema set");
        }
        continue;
      }
      stable_keys_.push_back(key);
    }
  }
}

void Builder::claim(const std::string& name, const std::string& key, const std::string& document,
                    const std::string& pointer) {
  auto [it, inserted] = owner_.emplace(name, key);
  if (!inserted && it->second != key) {
    fail(document, pointer, "a unique public name, but " + quoted(name) + " also names " + it->second);
  }
  name_of_[key] = name;
}

std::string Builder::unique(std::string name) {
  if (!owner_.count(name)) return name;
  for (int i = 2;; ++i) {
    std::string candidate = name + std::to_string(i);
    if (!owner_.count(candidate)) return candidate;
  }
}

void Builder::assign_names() {
  for (const std::string& key : stable_keys_) {
    const std::string& name = naming_.names->at(key);
    const std::string where = child("/sdkGeneration/stableNames", key);
    if (!valid_public_name(name)) fail(naming_.names_document, where, "a public name (letters, digits, _)");
    claim(name, key, naming_.names_document, where);
  }
  for (const std::string& key : roots_) {
    if (name_of_.count(key)) continue;
    auto [doc, pointer] = locate(key);
    claim(root_public_name(doc->path), key, doc->path, "");
  }
  auto rule_name = [](const std::string& path, const std::string& pointer) {
    std::string name = pascal_case(document_stem(path));
    std::string_view rest = pointer;
    while (!rest.empty()) {
      rest.remove_prefix(1);
      std::size_t slash = rest.find('/');
      std::string_view token = rest.substr(0, slash);
      if (token != "$defs" && token != "properties") name += pascal_case(token);
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    }
    return name;
  };
  std::vector<std::string> rest(defs_.begin(), defs_.end());
  for (const std::string& key : ref_targets_) {
    if (std::find(defs_.begin(), defs_.end(), key) == defs_.end()) rest.push_back(key);
  }
  for (const std::string& key : rest) {
    if (name_of_.count(key)) continue;
    auto [doc, pointer] = locate(key);
    std::string name = pointer.empty() ? root_public_name(doc->path) : rule_name(doc->path, pointer);
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) name = "T" + name;
    claim(unique(name), key, doc->path, pointer);
  }
}

std::string Builder::name_for(const std::string& key) const { return name_of_.at(key); }

}  // namespace crosscheck::schema::lowering

namespace crosscheck::schema {

std::string pascal_case(std::string_view text) {
  std::string out;
  bool start = true;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      start = true;
      continue;
    }
    out.push_back(start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    start = false;
  }
  return out;
}

std::string root_public_name(std::string_view document_path) {
  static const std::map<std::string, std::string, std::less<>> kSpecial = {
      {"session-start", "SessionStartEvent"},
      {"session-end", "SessionEndEvent"},
      {"tool-before", "ToolBeforeEvent"},
      {"tool-after", "ToolAfterEvent"},
      {"schema", "WireMessage"},
  };
  std::string stem = lowering::document_stem(document_path);
  auto it = kSpecial.find(stem);
  return it != kSpecial.end() ? it->second : pascal_case(stem);
}

}  // namespace crosscheck::schema
