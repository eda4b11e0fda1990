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
#include <new>
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
  /// Number spelling exactly as parsed (or as given to number()); empty for other kinds.
  const std::string& number_text() const { return holds_text() ? text_ : empty_text(); }
  /// String content in WTF-8; empty for other kinds.
  const std::string& string_value() const { return holds_text() ? text_ : empty_text(); }

  /// Array elements and object members; empty for any other kind. On another kind the non-const forms
  /// change nothing: they return an empty scratch list, and what is added to it is dropped. Build a
  /// container with array() / object(), or push() / add(), which make a null value one.
  const std::vector<Value>& items() const;
  std::vector<Value>& items();
  const std::vector<Member>& members() const;
  std::vector<Member>& members();

  /// The value of the LAST member named `key` (duplicate keys: last wins, as in every SDK), or nullptr.
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  bool contains(std::string_view key) const { return find(key) != nullptr; }

  /// Makes this value a number or a string (`kind`) with empty text, and returns the text, to be
  /// filled in place: the parser's way, without the copies a short string costs through a temporary
  /// (a number's text must end up a valid number token, as for number()).
  std::string& become_text(Kind kind) {
    if (holds_text()) {
      text_.clear();
    } else {
      become(Kind::kNull);
    }
    kind_ = kind;
    bool_ = false;
    return text_;
  }

  /// Appends a member (no de-duplication: the tree is lossless). A null value becomes an object first.
  void add(std::string key, Value value);
  /// Appends an array element. A null value becomes an array first.
  void push(Value value);

 private:
  bool holds_text() const { return kind_ != Kind::kArray && kind_ != Kind::kObject; }
  static const std::string& empty_text();
  void destroy() noexcept;
  void take(Value&& other) noexcept;  // moves `other`'s kind and content into this uninitialized value
  void become(Kind kind);             // destroys the content, then holds an empty one of `kind`

  // One of the three, by kind_: the items of an array, the members of an object, text for the rest
  // (empty for null and booleans). A union, not a pointer to a separately allocated block of
  // children: a container costs one allocation fewer, and a node is 40 bytes. Not std::variant: its
  // own index beside kind_ would make the node 48 bytes again, and its assignment between
  // alternatives destroys the old content before reading `other`, which may live inside it.
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  union {
    std::string text_;  // number spelling or string content
    std::vector<Value> items_;
    std::vector<Member> members_;
  };
};

struct Member {
  std::string key;  ///< WTF-8
  Value value;
};

/// Whether two members of `members` share a key.
bool has_duplicate_keys(const std::vector<Member>& members);

// Defined here, not as default arguments: clang instantiates those where Member is still incomplete.
inline Value Value::null() { return Value(); }

// Moves and destruction are inline: they run for every node of every tree.
inline void Value::take(Value&& other) noexcept {
  kind_ = other.kind_;
  bool_ = other.bool_;
  switch (kind_) {
    case Kind::kArray:
      new (&items_) std::vector<Value>(std::move(other.items_));
      break;
    case Kind::kObject:
      new (&members_) std::vector<Member>(std::move(other.members_));
      break;
    default:
      new (&text_) std::string(std::move(other.text_));
  }
}

inline void Value::destroy() noexcept {
  switch (kind_) {
    case Kind::kArray:
      items_.~vector();
      break;
    case Kind::kObject:
      members_.~vector();
      break;
    default:
      text_.~basic_string();
  }
}

inline Value::Value() : text_() {}

inline Value::Value(Value&& other) noexcept { take(std::move(other)); }

inline Value& Value::operator=(Value&& other) noexcept {
  if (this == &other) return *this;
  if (holds_text()) {  // no children, so `other` is not among them
    text_.~basic_string();
    take(std::move(other));
    return *this;
  }
  // `other` may live inside this container (`v = std::move(v.items()[0])`): take it out before
  // this value's content, and with it `other`, is destroyed.
  Value taken(std::move(other));
  destroy();
  take(std::move(taken));
  return *this;
}

inline Value::~Value() { destroy(); }
inline Value Value::array() { return array(std::vector<Value>{}); }
inline Value Value::object() { return object(std::vector<Member>{}); }

}  // namespace crosscheck::json
