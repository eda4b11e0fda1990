// lower_builder.hpp: the builder behind build_ir (lower.hpp), one instance per call, and its parts by
// file: lower.cpp (the steps in order, ids and roots), lower_refs.cpp (keyword support, $ref
// resolution, the document graph), lower_naming.cpp (public names), lower_shapes.cpp (schema nodes
// to shapes), lower_unions.cpp (discriminators and $ref-constrained unions). Internal to schema.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "json/value.hpp"
#include "schema/ir.hpp"
#include "schema/loader.hpp"
#include "schema/lower.hpp"

namespace crosscheck::schema::lowering {

class Builder {
 public:
  Builder(std::vector<Document> documents, const Naming& naming);
  Ir build();

 private:
  struct Flags {
    bool skip_ref = false;              ///< lowering the siblings of a $ref
    const std::string* type = nullptr;  ///< one member of a type array
  };
  struct ExplicitTag {
    std::shared_ptr<Shape> union_shape;
    std::string tag, document, pointer;
  };
  struct Constraint {
    std::shared_ptr<Shape> ref, union_shape;
  };

  // lower_refs.cpp: scanning: keyword support, $ref resolution, document graph.
  void scan(const json::Value& node, const Document& doc, const std::string& ptr);
  void check_type(const json::Value& value, const Document& doc, const std::string& at);
  std::pair<const Document*, std::string> resolve_ref(const Document& doc, const std::string& at,
                                                      const std::string& ref);
  std::pair<const Document*, std::string> locate(const std::string& key) const;

  // lower_naming.cpp
  static bool is_root_node(const json::Value& body);
  void collect_named_nodes();
  void claim(const std::string& name, const std::string& key, const std::string& document,
             const std::string& pointer);
  std::string unique(std::string name);
  void assign_names();
  std::string name_for(const std::string& key) const;

  // lower_shapes.cpp
  std::shared_ptr<Shape> make(ShapeKind kind, const Document& doc, const std::string& ptr);
  bool has_structural(const json::Value& node, const Flags& flags, std::string_view except = {}) const;
  std::shared_ptr<Shape> lower(const json::Value& node, const Document& doc, const std::string& ptr,
                               Flags flags);
  std::shared_ptr<Shape> lower_type(const std::string& type, const json::Value& node, const Document& doc,
                                    const std::string& ptr);
  std::shared_ptr<Shape> lower_object(const json::Value& node, const Document& doc, const std::string& ptr,
                                      std::vector<std::vector<std::string>> forbidden);

  // lower_unions.cpp: discriminators and constrained unions.
  const Shape* resolve(const Shape* shape) const;
  /// Properties of a union branch in order (all, or only the required ones), following refs and
  /// intersections. The SDKs look tags up the same way and ignore `required`.
  void tag_properties(const Shape* shape, bool required_only,
                      std::vector<std::pair<std::string, const Shape*>>& out,
                      std::unordered_set<const Shape*>& seen) const;
  static bool string_literal(const Shape* shape);
  /// Property -> string literal of a branch: the first literal found wins, as in the SDKs' lookup.
  std::map<std::string, std::string> literal_tags(const Shape* branch) const;
  void finish_unions();
  void check_explicit(const ExplicitTag& item);
  /// A property with a string literal in every branch, all distinct (alphabetically first if several).
  void infer(Shape& shape);
  /// {$ref: U, oneOf: [subset]}: every known variant of U missing from the subset is appended as
  /// Intersection[variant, Never], so that its tag is known (error) rather than unknown (warning).
  void complete(const Constraint& item);
  static std::shared_ptr<Shape> clone(const Shape& shape);

  // lower.cpp: ids and roots.
  void assign_ids();
  void build_roots();

  const Naming& naming_;
  Ir ir_;
  std::map<std::string, const Document*> by_path_;
  std::set<std::string> ref_targets_;                   // "doc#pointer" of every $ref target
  std::map<std::string, std::set<std::string>> edges_;  // document -> documents it refers to
  std::set<std::string> roots_;                         // "doc#" of named roots
  std::vector<std::string> defs_;                       // "doc#/$defs/x" in document order
  std::vector<std::string> stable_keys_;                // stableNames keys that name a node
  std::map<std::string, std::string> name_of_;          // key -> public name
  std::map<std::string, std::string> owner_;            // public name -> key
  std::vector<ExplicitTag> explicit_tags_;
  std::vector<std::shared_ptr<Shape>> inferred_;
  std::vector<Constraint> constraints_;
};

}  // namespace crosscheck::schema::lowering
