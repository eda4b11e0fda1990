// value.cpp: constructors and look-ups of the lossless tree.
#include "json/value.hpp"

namespace crosscheck::json {

struct Value::Children {
  std::vector<Value> items;     // array elements
  std::vector<Member> members;  // object members in input order, duplicates kept
};

namespace {
const std::vector<Value> kNoItems;
const std::vector<Member> kNoMembers;
}  // namespace

Value::Value(const Value& other) : kind_(other.kind_), bool_(other.bool_), text_(other.text_) {
  if (other.children_) children_ = std::make_unique<Children>(*other.children_);
}

Value& Value::operator=(const Value& other) {
  if (this != &other) {
    Value copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Value::Value() = default;
Value::Value(Value&& other) noexcept = default;
Value& Value::operator=(Value&& other) noexcept = default;

Value::~Value() = default;

const std::vector<Value>& Value::items() const { return children_ ? children_->items : kNoItems; }

std::vector<Value>& Value::items() {
  if (!children_) children_ = std::make_unique<Children>();
  return children_->items;
}

const std::vector<Member>& Value::members() const { return children_ ? children_->members : kNoMembers; }

std::vector<Member>& Value::members() {
  if (!children_) children_ = std::make_unique<Children>();
  return children_->members;
}

void Value::push(Value value) { items().push_back(std::move(value)); }

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
  v.kind_ = Kind::kArray;
  if (!items.empty()) v.items() = std::move(items);
  return v;
}

Value Value::object(std::vector<Member> members) {
  Value v;
  v.kind_ = Kind::kObject;
  if (!members.empty()) v.members() = std::move(members);
  return v;
}

const Value* Value::find(std::string_view key) const {
  if (!children_) return nullptr;
  const auto& members = children_->members;
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->key == key) return &it->value;
  }
  return nullptr;
}

Value* Value::find(std::string_view key) {
  return const_cast<Value*>(static_cast<const Value&>(*this).find(key));
}

void Value::add(std::string key, Value value) {
  members().push_back(Member{std::move(key), std::move(value)});
}

}  // namespace crosscheck::json
