// value.cpp: constructors and look-ups of the lossless tree.
#include "json/value.hpp"

#include <new>
#include <unordered_set>

namespace crosscheck::json {

namespace {
const std::vector<Value> kNoItems;
const std::vector<Member> kNoMembers;
const std::string kNoText;
}  // namespace

const std::string& Value::empty_text() { return kNoText; }

Value::Value(const Value& other) : kind_(other.kind_), bool_(other.bool_) {
  switch (kind_) {
    case Kind::kArray:
      new (&items_) std::vector<Value>(other.items_);
      break;
    case Kind::kObject:
      new (&members_) std::vector<Member>(other.members_);
      break;
    default:
      new (&text_) std::string(other.text_);
  }
}

Value& Value::operator=(const Value& other) {
  if (this != &other) {
    Value copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void Value::become(Kind kind) {
  destroy();
  kind_ = kind;
  bool_ = false;
  switch (kind) {
    case Kind::kArray:
      new (&items_) std::vector<Value>();
      break;
    case Kind::kObject:
      new (&members_) std::vector<Member>();
      break;
    default:
      new (&text_) std::string();
  }
}

const std::vector<Value>& Value::items() const { return kind_ == Kind::kArray ? items_ : kNoItems; }

// The non-const forms on another kind: a per-thread scratch list, emptied at every such call, so that
// a read sees no children and the value is not changed (what is added there is dropped).
std::vector<Value>& Value::items() {
  if (kind_ == Kind::kArray) return items_;
  thread_local std::vector<Value> scratch;
  scratch.clear();
  return scratch;
}

const std::vector<Member>& Value::members() const { return kind_ == Kind::kObject ? members_ : kNoMembers; }

std::vector<Member>& Value::members() {
  if (kind_ == Kind::kObject) return members_;
  thread_local std::vector<Member> scratch;
  scratch.clear();
  return scratch;
}

void Value::push(Value value) {
  if (kind_ == Kind::kNull) become(Kind::kArray);
  items().push_back(std::move(value));
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "boolean";
    case Kind::kNumber:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kArray:
      return "array";
    case Kind::kObject:
      return "object";
  }
  return "?";
}

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::kBool;
  v.bool_ = b;
  return v;
}

Value Value::number(std::string text) {
  Value v;
  v.kind_ = Kind::kNumber;
  v.text_ = std::move(text);
  return v;
}

Value Value::string(std::string wtf8) {
  Value v;
  v.kind_ = Kind::kString;
  v.text_ = std::move(wtf8);
  return v;
}

Value Value::array(std::vector<Value> items) {
  Value v;
  v.become(Kind::kArray);
  v.items_ = std::move(items);
  return v;
}

Value Value::object(std::vector<Member> members) {
  Value v;
  v.become(Kind::kObject);
  v.members_ = std::move(members);
  return v;
}

const Value* Value::find(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  const auto& members = members_;
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->key == key) return &it->value;
  }
  return nullptr;
}

Value* Value::find(std::string_view key) {
  return const_cast<Value*>(static_cast<const Value&>(*this).find(key));
}

void Value::add(std::string key, Value value) {
  if (kind_ == Kind::kNull) become(Kind::kObject);
  members().push_back(Member{std::move(key), std::move(value)});
}

bool has_duplicate_keys(const std::vector<Member>& members) {
  // Pairwise for the small objects messages are made of (no allocation), by a hash set beyond.
  constexpr std::size_t kPairwise = 16;
  if (members.size() <= kPairwise) {
    for (std::size_t i = 1; i < members.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (members[i].key == members[j].key) return true;
      }
    }
    return false;
  }
  std::unordered_set<std::string_view> seen;
  seen.reserve(members.size());
  for (const auto& m : members) {
    if (!seen.insert(m.key).second) return true;
  }
  return false;
}

}  // namespace crosscheck::json
