// lower.cpp: naming, $ref resolution and lowering of schema documents to the IR (lower.hpp): the
// builder's steps in order, then dense shape ids and the roots with their document closures. The
// steps are in detail/ (lower_builder.hpp names the files).
//
// The lowering follows the AHP generator (ahp-spec.md 2.3) as the installed Python SDK's embedded
// descriptors show it; tests/integration/schema_real_test.cpp compares the two node by node.
#include "schema/lower.hpp"

#include <algorithm>
#include <deque>
#include <functional>

#include "schema/detail/lower_builder.hpp"
#include "schema/detail/lower_support.hpp"
#include "schema/sha256.hpp"

namespace crosscheck::schema {
namespace lowering {

Builder::Builder(std::vector<Document> documents, const Naming& naming) : naming_(naming) {
  std::sort(documents.begin(), documents.end(),
            [](const Document& a, const Document& b) { return a.path < b.path; });
  ir_.documents = std::move(documents);
  for (const Document& doc : ir_.documents) {
    if (!by_path_.emplace(doc.path, &doc).second) fail(doc.path, "", "each document path only once");
  }
}

Ir Builder::build() {
  for (const Document& doc : ir_.documents) scan(doc.body, doc, "");
  collect_named_nodes();
  assign_names();
  for (const auto& [key, name] : name_of_) {
    auto [doc, pointer] = locate(key);
    NamedType type;
    type.name = name;
    type.source = key;
    type.shape = lower(*find_node(doc->body, pointer), *doc, pointer, {});
    ir_.types.emplace(name, std::move(type));
  }
  finish_unions();
  assign_ids();
  build_roots();
  return std::move(ir_);
}

void Builder::assign_ids() {
  std::uint32_t next = 0;
  std::unordered_set<const Shape*> seen;
  std::function<void(const ShapePtr&)> visit = [&](const ShapePtr& shape) {
    if (!shape || !seen.insert(shape.get()).second) return;
    // Every shape was created non-const by this builder; ids are set once, before publication.
    const_cast<Shape&>(*shape).id = next++;
    visit(shape->items);
    for (const Property& property : shape->properties) visit(property.shape);
    visit(shape->additional_shape);
    for (const ShapePtr& variant : shape->variants) visit(variant);
  };
  for (const auto& [name, type] : ir_.types) visit(type.shape);
  ir_.node_count = next;
}

void Builder::build_roots() {
  std::map<std::string, std::string> snake_owner;
  for (const std::string& key : roots_) {
    auto [doc, pointer] = locate(key);
    Root root;
    root.public_name = name_of_.at(key);
    root.snake_name = snake_case(root.public_name);
    root.document = doc->path;
    root.pointer = pointer;
    auto [it, inserted] = snake_owner.emplace(root.snake_name, root.public_name);
    if (!inserted) {
      fail(doc->path, "",
           "a unique snake_case root name, but " + quoted(root.snake_name) + " also names " + it->second);
    }
    // The closure is document-level: every document reachable through $refs (conditionals included).
    std::set<std::string> closure{doc->path};
    std::deque<std::string> queue{doc->path};
    while (!queue.empty()) {
      std::string path = queue.front();
      queue.pop_front();
      auto edges = edges_.find(path);
      if (edges == edges_.end()) continue;
      for (const std::string& next : edges->second) {
        if (closure.insert(next).second) queue.push_back(next);
      }
    }
    std::string lines;
    for (const std::string& path : closure) lines += path + " " + by_path_.at(path)->sha256 + "\n";
    root.closure_documents.assign(closure.begin(), closure.end());
    root.closure_hash = sha256_hex(lines);
    ir_.roots.push_back(std::move(root));
  }
  std::sort(ir_.roots.begin(), ir_.roots.end(),
            [](const Root& a, const Root& b) { return a.snake_name < b.snake_name; });
}

}  // namespace lowering

Result<Ir, SchemaError> build_ir(std::vector<Document> documents, const Naming& naming) {
  try {
    lowering::Builder builder(std::move(documents), naming);
    return builder.build();
  } catch (lowering::Failure& failure) {
    return std::move(failure.error);
  }
}
}  // namespace crosscheck::schema
