// fault_table.cpp: the reader of selftest/faults.json (load_faults, selftest.hpp).
#include <filesystem>
#include <set>

#include "core/divergence.hpp"
#include "core/impl_result.hpp"
#include "exec/adapter_config.hpp"
#include "json/parse.hpp"
#include "json/schema_validator.hpp"
#include "layers/contextual/generate/scenario_generator.hpp"
#include "selftest/selftest.hpp"
#include "util/file.hpp"

namespace crosscheck::selftest {

namespace fs = std::filesystem;

Result<std::vector<Fault>, std::string> load_faults(const std::string& path) {
  auto text = read_file_bytes(path);
  if (!text) return path + ": cannot be read";
  auto parsed = json::parse(*text);
  if (!parsed.ok()) return path + ": not JSON: " + parsed.error().message();
  // The shipped schema is the definition of the table: every field typed, none unknown.
  if (auto bad = json::shipped_schema("selftest-faults.schema.json").validate(parsed.value())) {
    return path + ": at " + (bad->pointer.empty() ? std::string("\"\"") : bad->pointer) + " (" +
           json::describe_location(parsed.value(), bad->pointer) + "): " + bad->message +
           " (schemas/selftest-faults.schema.json)";
  }
  const json::Value* list = parsed.value().find("faults");
  std::vector<Fault> out;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list->items().size(); ++i) {
    const json::Value& e = list->items()[i];
    std::string where = path + ": /faults/" + std::to_string(i);
    auto text_field = [&](const json::Value& o, const char* key,
                          std::string& into) -> std::optional<std::string> {
      const json::Value* v = o.is_object() ? o.find(key) : nullptr;
      if (!v || !v->is_string()) return where + ": field '" + key + "': expected a string";
      into = v->string_value();
      return std::nullopt;
    };
    Fault f;
    for (auto [key, into] : {std::pair<const char*, std::string*>{"name", &f.name},
                             {"area", &f.area},
                             {"description", &f.description},
                             {"expectedClass", &f.expected_class}}) {
      if (auto err = text_field(e, key, *into)) return *err;
    }
    if (!core::parse_class(f.expected_class))
      return where + ": field 'expectedClass': '" + f.expected_class + "' is not a divergence class";
    if (const json::Value* l = e.find("layer")) {
      if (!l->is_string() ||
          (l->string_value() != core::kStructuralLayer && l->string_value() != core::kCanonicalLayer &&
           l->string_value() != kContextualLayer))
        return where + ": field 'layer': expected \"structural\", \"canonical\" or \"contextual\"";
      f.layer = l->string_value();
    }
    if (const json::Value* d = e.find("implementationDefined")) {
      if (!d->is_bool()) return where + ": field 'implementationDefined': expected true or false";
      f.implementation_defined = d->as_bool();
    }
    if (const json::Value* a = e.find("aliases")) {
      if (!a->is_array()) return where + ": field 'aliases': expected an array of strings";
      for (const auto& x : a->items()) {
        if (!x.is_string()) return where + ": field 'aliases': expected an array of strings";
        f.aliases.push_back(x.string_value());
      }
    }
    if (const json::Value* fams = e.find("families")) {
      for (const auto& x : fams->items()) {
        if (!scenario_gen::find_family(x.string_value()))
          return where + ": field 'families': '" + x.string_value() +
                 "' is not a scenario generator family (docs/scenario-generator.md)";
        f.families.push_back(x.string_value());
      }
    }
    if (const json::Value* also = e.find("alsoRightClasses")) {
      for (const auto& x : also->items()) {
        if (!core::parse_class(x.string_value()))
          return where + ": field 'alsoRightClasses': '" + x.string_value() + "' is not a divergence class";
        f.also_right_classes.push_back(x.string_value());
      }
    }
    if (f.layer == kContextualLayer) {
      // A layer-3 fault is found on generated rows of its families; its witness is a row the stand-in
      // rewrites, which the generator gives (no hand-written payload).
      if (f.families.empty()) return where + ": field 'families': a contextual fault needs its families";
      if (!names.insert(f.name).second) return where + ": the fault name '" + f.name + "' is used twice";
      out.push_back(std::move(f));
      continue;
    }
    const json::Value* w = e.find("witness");
    if (!w || !w->is_object()) return where + ": field 'witness': expected {\"root\", \"payload\"}";
    where += "/witness";
    if (auto err = text_field(*w, "root", f.witness_root)) return *err;
    if (auto err = text_field(*w, "payload", f.witness_payload)) return *err;
    if (const json::Value* s = e.find("schema")) {
      const std::string at = where.substr(0, where.size() - std::string("/witness").size());
      if (!s->is_string() || s->string_value().empty())
        return at + ": field 'schema': expected a schema bundle's path from the repository root";
      f.schema = s->string_value();
      if (!fs::exists(fs::path(exec::repository_root()) / f.schema))
        return at + ": field 'schema': " + f.schema + " does not exist (a path from the repository root)";
    }
    if (!names.insert(f.name).second) return where + ": the fault name '" + f.name + "' is used twice";
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace crosscheck::selftest
