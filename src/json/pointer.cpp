// pointer.cpp: JSON Pointer token escaping.
#include "json/pointer.hpp"

namespace crosscheck::json {

void append_pointer_token(std::string& path, std::string_view key) {
  path.push_back('/');
  for (char c : key) {
    if (c == '~') {
      path += "~0";
    } else if (c == '/') {
      path += "~1";
    } else {
      path.push_back(c);
    }
  }
}

std::string pointer_token(std::string_view key) {
  std::string out;
  append_pointer_token(out, key);
  return out.substr(1);
}

}  // namespace crosscheck::json
