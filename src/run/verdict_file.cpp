// verdict_file.cpp: reading and writing RUN/verdict.json.
#include "run/verdict_file.hpp"

#include "run/json_file.hpp"

namespace crosscheck::run {

void write_verdict(const std::filesystem::path& run_dir, const verdict::Verdict& v, const char* decided_by) {
  json::Value o = json::Value::object();
  o.add("format", json::Value::string(kVerdictFormat));
  o.add("crosscheckVersion", json::Value::string(CROSSCHECK_VERSION));
  o.add("decidedBy", json::Value::string(decided_by));
  const json::Value fields = verdict::to_json(v);
  for (const auto& m : fields.members()) o.add(m.key, m.value);
  write_json_file(run_dir / kVerdictFile, o, 2);
}

std::optional<verdict::Verdict> read_verdict(const std::filesystem::path& run_dir) {
  const auto file = run_dir / kVerdictFile;
  json::Value o = read_json_object(file);
  if (o.is_null()) return std::nullopt;
  require_format(file, o, kVerdictFormat);
  require_schema(file, o, kVerdictSchema);
  auto v = verdict::from_json(o);
  if (!v.ok()) throw Fatal(file.string() + ": " + v.error());
  return v.value();
}

}  // namespace crosscheck::run
