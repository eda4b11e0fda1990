// value.hpp: the lossless JSON tree.
//
// Why hand-written: the decoder, the reducer and the comparator must see exactly what a payload
// says: member order, duplicate keys, each number's spelling and lone surrogate escapes. No packaged
// DOM keeps all four (nlohmann collapses duplicates and converts numbers).
//
// Strings and keys hold WTF-8: UTF-8 that may also encode lone surrogates (U+D800..U+DFFF) as
// three-byte sequences, so "\ud800" survives a parse/write round trip. A valid escaped pair is
// joined into one code point. Byte order of WTF-8 is code point order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace crosscheck::json {

enum class Kind : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

/// Name of a kind as JSON Schema spells it ("null", "boolean", "number", "string", "array", "object").
const char* kind_name(Kind kind);

struct Member;

class Value {
 public:
  Value();  ///< null
  Value(const Value& other);
  Value(Value&& other) noexcept;
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value();
  static Value null();
  static Value boolean(bool b);
  /// `text` must be a valid RFC 8259 number token; it is kept verbatim.
  static Value number(std::string text);
  /// `wtf8` is the decoded content (no quotes, no escapes).
  static Value string(std::string wtf8);
  static Value array(std::vector<Value> items);
  static Value array();  ///< empty
  static Value object(std::vector<Member> members);
  static Value object();  ///< empty

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_bool() const { return kind_ == Kind::kBool; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }

  bool as_bool() const { return bool_; }
  /// Number spelling exactly as parsed (or as given to number()).
  const std::string& number_text() const { return text_; }
  /// String content in WTF-8.
  const std::string& string_value() const { return text_; }

  const std::vector<Value>& items() const;
  std::vector<Value>& items();
  const std::vector<Member>& members() const;
  std::vector<Member>& members();

  /// The value of the LAST member named `key` (duplicate keys: last wins, as in every SDK), or nullptr.
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  bool contains(std::string_view key) const { return find(key) != nullptr; }

  /// Appends a member (no de-duplication: the tree is lossless).
  void add(std::string key, Value value);
  /// Appends an array element.
  void push(Value value);

 private:
  struct Children;  // array elements and object members, allocated only for containers
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  std::string text_;                    // number spelling or string content
  std::unique_ptr<Children> children_;  // keeps a scalar at 48 bytes: parse trees stay small
};

struct Member {
  std::string key;  ///< WTF-8
  Value value;
};

// Defined here, not as default arguments: clang instantiates those where Member is still incomplete.
inline Value Value::null() { return Value(); }
inline Value Value::array() { return array(std::vector<Value>{}); }
inline Value Value::object() { return object(std::vector<Member>{}); }

}  // namespace crosscheck::json
