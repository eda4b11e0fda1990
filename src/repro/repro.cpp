// repro.cpp: the writer for an SDK's language, and the output folder (refused when it exists unless
// --force; files written whole, through a temporary name, so an interrupted write leaves no half file).
#include "repro/repro.hpp"

#include <filesystem>
#include <fstream>

#include "repro/detail/writer.hpp"

namespace crosscheck::repro {

namespace fs = std::filesystem;

Result<std::vector<OutputFile>, std::string> write_reproducer(const Plan& plan, const SdkInfo& sdk) {
  if (sdk.path != "text")
    return "adapter " + sdk.name + " takes the SDK's " + sdk.path +
           " path: only the text path (the generated parse and the canonical validator) has a reproducer "
           "writer";
  if (!plan.scenario_id.empty()) {
    if (sdk.language != "python")
      return std::string(
          "layer-3 reproducers are written for python only (its interop client and server are modules of the "
          "package; the other SDKs' are binaries of their checkouts)");
    return detail::write_python_contextual(plan, sdk);
  }
  if (sdk.language == "python") return detail::write_python(plan, sdk);
  if (sdk.language == "rust") return detail::write_rust(plan, sdk);
  if (sdk.language == "go" || sdk.language == "typescript") {
    if (detail::has_canonical(plan))
      return "no layer-2 reproducer for " + sdk.language +
             ": its adapter's validator needs a schema folder or a built draft module that no checkout here "
             "shows "
             "(layer 1 only)";
    return sdk.language == "go" ? detail::write_go(plan, sdk) : detail::write_typescript(plan, sdk);
  }
  return "no reproducer writer for language '" + sdk.language + "' (python, rust, go, typescript)";
}

Result<std::vector<std::string>, std::string> write_files(const std::string& dir,
                                                          const std::vector<OutputFile>& files, bool force) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !force)
    return dir +
           ": exists: expected a folder that does not exist yet (--force replaces the reproducer's files in "
           "it)";
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) return dir + ": exists and is not a folder";
  std::vector<std::string> written;
  for (const auto& f : files) {
    const fs::path path = fs::path(dir) / f.path;
    fs::create_directories(path.parent_path(), ec);
    if (ec) return path.parent_path().string() + ": cannot create: " + ec.message();
    const fs::path tmp = path.string() + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << f.content;
      if (!out.flush()) return tmp.string() + ": cannot write";
    }
    fs::rename(tmp, path, ec);
    if (ec) return path.string() + ": cannot write: " + ec.message();
    written.push_back(path.string());
  }
  return written;
}

}  // namespace crosscheck::repro
