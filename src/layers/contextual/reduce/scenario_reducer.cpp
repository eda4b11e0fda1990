// scenario_reducer.cpp: greedy, batched reduction of one scenario row (see the header for the rules).
#include "layers/contextual/reduce/scenario_reducer.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "json/parse.hpp"
#include "json/write.hpp"
#include "run/finding_files.hpp"
#include "run/json_file.hpp"
#include "run/replay.hpp"

namespace crosscheck::reduce {
namespace {

using Path = std::vector<std::size_t>;

/// One change to a tree: delete the node at `path`, or replace it with `value`.
struct Edit {
  Path path;
  std::optional<json::Value> value;  ///< nullopt: delete
};

struct Candidate {
  json::Value tree;
  std::vector<Edit> edits;  ///< relative to the base it was made from
  std::string text;         ///< compact JSON, real id
};

std::string wrap(std::string_view row_text) {
  return "{\"version\": 1, \"scenarios\": [" + std::string(row_text) + "]}";
}

Result<scenario::Row, scenario::FormatError> parse_row(std::string_view text) {
  auto file = scenario::parse_scenario_text(wrap(text), "candidate");
  if (!file.ok()) return file.error();
  if (file.value().rows.size() != 1)
    return scenario::FormatError{"candidate", "the document", "expected exactly one row"};
  return std::move(file.value().rows.front());
}

json::Value* child(json::Value& v, std::size_t i) {
  if (v.is_object() && i < v.members().size()) return &v.members()[i].value;
  if (v.is_array() && i < v.items().size()) return &v.items()[i];
  return nullptr;
}

json::Value* at(json::Value& root, const Path& path, std::size_t depth) {
  json::Value* v = &root;
  for (std::size_t k = 0; k < depth && v; ++k) v = child(*v, path[k]);
  return v;
}

/// Applies edits deepest and last first, so earlier paths stay valid; an edit whose node is gone is
/// skipped (the result is only a candidate: the oracle decides).
json::Value apply(json::Value tree, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.path > b.path; });
  for (const auto& e : edits) {
    if (e.path.empty()) continue;
    json::Value* parent = at(tree, e.path, e.path.size() - 1);
    if (!parent) continue;
    const std::size_t i = e.path.back();
    if (e.value) {
      if (json::Value* node = child(*parent, i)) *node = *e.value;
    } else if (parent->is_object() && i < parent->members().size()) {
      parent->members().erase(parent->members().begin() + static_cast<std::ptrdiff_t>(i));
    } else if (parent->is_array() && i < parent->items().size()) {
      parent->items().erase(parent->items().begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return tree;
}

/// The three places the row id lives, as member-name paths: never changed but by renaming.
bool is_id(const std::vector<std::string>& keys) {
  static const std::vector<std::vector<std::string>> ids{
      {"id"}, {"request", "id"}, {"request", "params", "event", "id"}};
  return std::find(ids.begin(), ids.end(), keys) != ids.end();
}
/// The containers of those ids: deleting one cannot give a row (the reader refuses it).
bool holds_id(const std::vector<std::string>& keys) {
  static const std::vector<std::vector<std::string>> holders{
      {}, {"request"}, {"request", "params"}, {"request", "params", "event"}};
  return std::find(holders.begin(), holders.end(), keys) != holders.end();
}

struct Node {
  Path path;
  std::vector<std::string> keys;  ///< member names along the path ("" for array elements)
  const json::Value* value;
  std::size_t size;
};

void collect(const json::Value& v, Path& path, std::vector<std::string>& keys, std::vector<Node>& out) {
  out.push_back({path, keys, &v, json::write(v).size()});
  if (v.is_object()) {
    for (std::size_t i = 0; i < v.members().size(); ++i) {
      path.push_back(i);
      keys.push_back(v.members()[i].key);
      collect(v.members()[i].value, path, keys, out);
      path.pop_back();
      keys.pop_back();
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      path.push_back(i);
      keys.emplace_back();
      collect(v.items()[i], path, keys, out);
      path.pop_back();
      keys.pop_back();
    }
  }
}

/// Code-point boundaries of a WTF-8 string (a continuation byte never starts one).
std::vector<std::size_t> boundaries(const std::string& s) {
  std::vector<std::size_t> b;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) b.push_back(i);
  }
  b.push_back(s.size());
  return b;
}

/// Every candidate change of `base` (a group of edits made together), in the order worth trying:
/// big deletions first, then simpler values, then shorter strings.
std::vector<std::vector<Edit>> edits_of(const json::Value& base) {
  std::vector<Node> nodes;
  Path path;
  std::vector<std::string> keys;
  collect(base, path, keys, nodes);
  std::vector<std::vector<Edit>> deletions, replacements, strings;
  std::vector<const Node*> by_size;
  std::map<Path, const Node*> by_path;
  for (const auto& n : nodes) {
    by_path[n.path] = &n;
    if (!n.path.empty() && !is_id(n.keys) && !holds_id(n.keys)) by_size.push_back(&n);
  }
  std::stable_sort(by_size.begin(), by_size.end(),
                   [](const Node* a, const Node* b) { return a->size > b->size; });
  static const std::vector<std::string> simple{"{}", "[]", "\"\"", "0", "null", "false", "1"};
  for (const Node* n : by_size) {
    deletions.push_back({{n->path, std::nullopt}});
    // A name listed in an array and described by a member of that name beside the array (an
    // advertised effect and its capability object): the schema may need both gone at once.
    if (n->value->is_string() && n->path.size() >= 2 && n->keys.back().empty()) {
      Path array(n->path.begin(), n->path.end() - 1), owner(n->path.begin(), n->path.end() - 2);
      const Node* o = by_path.count(owner) ? by_path[owner] : nullptr;
      if (o && o->value->is_object() && by_path[array]->value->is_array()) {
        const auto& members = o->value->members();
        for (std::size_t i = 0; i < members.size(); ++i) {
          if (members[i].key == n->value->string_value()) {
            Path member = owner;
            member.push_back(i);
            deletions.push_back({{n->path, std::nullopt}, {member, std::nullopt}});
          }
        }
      }
    }
    const std::string now = json::write(*n->value);
    for (const auto& s : simple) {
      if (s.size() < now.size() || (s.size() == now.size() && s < now))
        replacements.push_back({{n->path, json::parse(s).value()}});
    }
    if (n->value->is_string()) {
      const std::string& text = n->value->string_value();
      auto b = boundaries(text);
      const std::size_t cps = b.size() - 1;
      auto cut = [&](std::size_t from, std::size_t to) {  // drop code points [from, to)
        std::string part = text.substr(0, b[from]) + text.substr(b[to]);
        strings.push_back({{n->path, json::Value::string(std::move(part))}});
      };
      if (cps >= 2) {
        cut(cps / 2, cps);
        cut(0, cps / 2);
      }
      // Short strings (times, versions, names): every chunk of 1, 2 or 4 code points, so that a
      // format's optional part (a date-time's fraction) can go while the rest stays valid.
      if (cps <= 40) {
        for (std::size_t len : {std::size_t{4}, std::size_t{2}, std::size_t{1}}) {
          for (std::size_t from = 0; len < cps && from + len <= cps; ++from) cut(from, from + len);
        }
      }
    }
  }
  std::vector<std::vector<Edit>> all = std::move(deletions);
  all.insert(all.end(), replacements.begin(), replacements.end());
  all.insert(all.end(), strings.begin(), strings.end());
  return all;
}

/// Gives the row another id: the row's, the request's, its event's, and the response's when it was
/// the row's (a row about a wrong response id keeps its wrong one).
void rename(json::Value& tree, const std::string& id) {
  auto set = [&](json::Value* v) {
    if (v && v->is_string()) *v = json::Value::string(id);
  };
  const json::Value* old = tree.find("id");
  if (json::Value* response = tree.find("response"); response && old && old->is_string()) {
    json::Value* rid = response->find("id");
    if (rid && rid->is_string() && rid->string_value() == old->string_value()) set(rid);
  }
  set(tree.find("id"));
  if (json::Value* request = tree.find("request")) {
    set(request->find("id"));
    if (json::Value* params = request->find("params")) {
      if (json::Value* event = params->find("event")) set(event->find("id"));
    }
  }
}

bool has_bucket(const std::optional<run::Finding>& f, const std::string& bucket) {
  if (!f) return false;
  return std::any_of(f->divergences.begin(), f->divergences.end(),
                     [&](const auto& d) { return d.bucket == bucket; });
}

class Reduction {
 public:
  Reduction(const scenario::Row& row, const std::string& bucket, const ScenarioOracle& oracle,
            const ScenarioReduceOptions& options)
      : row_(row), bucket_(bucket), oracle_(oracle), options_(options) {
    if (options_.validator) {
      auto valid = [&](const std::string& doc, const json::Value& v) {
        auto r = options_.validator->validate_value(doc, v);
        return r && r->valid;
      };
      request_canonical_ = valid(options_.request_document, row.request());
      response_canonical_ = valid(options_.response_document, row.response());
    }
  }

  ScenarioReduceResult run() {
    out_.input = row_.raw;
    started_ = std::chrono::steady_clock::now();
    json::Value original = row_.value;
    const std::string text = json::write(original);
    // The probe: the original under its id and under a renamed one, in one client run.
    std::vector<json::Value> probe{original, original};
    rename(probe[1], probe_id());
    auto answers = call(probe);
    if (answers.empty() || !has_bucket(answers[0], bucket_)) {
      if (!answers.empty()) out_.finding = answers[0];
      return out_;
    }
    out_.reproduced = true;
    out_.batched = answers.size() > 1 && has_bucket(answers[1], bucket_);
    confirmed_[text] = answers[0];
    log("probe: the bucket " + std::string(out_.batched ? "survives" : "does not survive") +
        " a renamed id; candidates go out " + (out_.batched ? "in batches" : "one per client run"));
    std::vector<std::string> history{text};  // accepted steps, in order
    json::Value base = original;
    std::optional<Candidate> combined;  // every keeper of the last batch applied together
    bool fixed_point = false;
    while (!fixed_point && !out_of_calls(out_.batched ? 1 : 0)) {
      auto edits = edits_of(base);
      std::vector<Candidate> pending;
      if (combined) pending.push_back(std::move(*combined));
      combined.reset();
      std::size_t next = 0;
      bool moved = false;
      while (!moved && !out_of_calls(out_.batched ? 1 : 0)) {
        // Fill one batch with screened candidates not seen before.
        const std::size_t want = out_.batched ? std::max<std::size_t>(options_.batch, 1) : 1;
        while (pending.size() < want && next < edits.size()) {
          const std::vector<Edit>& e = edits[next++];
          Candidate c{apply(base, e), e, {}};
          if (screen(c)) pending.push_back(std::move(c));
        }
        if (pending.empty()) {
          fixed_point = true;
          break;
        }
        std::vector<json::Value> rows;
        for (std::size_t i = 0; i < pending.size(); ++i) {
          rows.push_back(pending[i].tree);
          if (out_.batched) rename(rows.back(), row_.id + "~" + std::to_string(++renamed_));
        }
        auto got = call(rows);
        std::vector<std::size_t> keepers;
        for (std::size_t i = 0; i < pending.size() && i < got.size(); ++i) {
          if (has_bucket(got[i], bucket_)) {
            keepers.push_back(i);
            if (!out_.batched) confirmed_[pending[i].text] = got[i];
          }
        }
        if (!keepers.empty()) {
          Candidate& first = pending[keepers.front()];
          if (keepers.size() > 1) {
            std::vector<Edit> all;
            for (std::size_t k : keepers)
              all.insert(all.end(), pending[k].edits.begin(), pending[k].edits.end());
            Candidate c{apply(base, all), all, {}};
            if (screen(c) && c.text.size() < first.text.size()) combined = std::move(c);
          }
          base = first.tree;
          history.push_back(first.text);
          log("kept " + std::to_string(first.text.size()) + " bytes (" + std::to_string(keepers.size()) +
              " of " + std::to_string(pending.size()) + " candidates kept the bucket)");
          moved = true;
        }
        pending.clear();
      }
    }
    finish(history);
    return out_;
  }

 private:
  std::string probe_id() const { return row_.id + "~0"; }

  bool out_of_calls(std::size_t reserve) {
    if (options_.should_stop && options_.should_stop()) {
      out_.stopped = true;
      return true;
    }
    if (options_.max_seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() >=
            options_.max_seconds) {
      out_.stopped = true;
      return true;
    }
    if (out_.calls + reserve >= options_.budget) {
      out_.budget_exhausted = true;
      return true;
    }
    return false;
  }

  /// Fills c.text; false when the candidate was seen, or is not a row, or lost canonicity.
  bool screen(Candidate& c) {
    c.text = json::write(c.tree);
    if (!seen_.insert(c.text).second) return false;
    auto row = parse_row(c.text);
    bool ok = row.ok();
    if (ok && options_.validator) {
      auto valid = [&](const std::string& doc, const json::Value& v) {
        auto r = options_.validator->validate_value(doc, v);
        return r && r->valid;
      };
      if (request_canonical_ && !valid(options_.request_document, row.value().request())) ok = false;
      if (ok && response_canonical_ && !valid(options_.response_document, row.value().response())) ok = false;
    }
    if (!ok) ++out_.screened;
    return ok;
  }

  std::vector<std::optional<run::Finding>> call(const std::vector<json::Value>& trees) {
    std::vector<scenario::Row> rows;
    for (const auto& t : trees) {
      auto r = parse_row(json::write(t));
      if (!r.ok()) return {};  // screened before: cannot happen but for the renamed id
      rows.push_back(std::move(r).value());
    }
    ++out_.calls;
    out_.candidates += rows.size();
    return oracle_(rows);
  }

  /// The result is the last accepted step that keeps the bucket under the real id.
  void finish(const std::vector<std::string>& history) {
    std::size_t good = 0;  // history[good] keeps the bucket under the real id
    std::size_t lo = 0, hi = history.size() - 1;
    auto confirm = [&](std::size_t i) {
      if (confirmed_.count(history[i])) return has_bucket(confirmed_[history[i]], bucket_);
      auto got = call({json::parse(history[i]).value()});
      const bool kept = !got.empty() && has_bucket(got[0], bucket_);
      if (kept) confirmed_[history[i]] = got[0];
      return kept;
    };
    if (confirm(hi)) {
      good = hi;
    } else {
      out_.walked_back = true;
      log("the batched result does not keep the bucket under the real id: walking back");
      while (lo + 1 < hi) {  // history[lo] keeps it, history[hi] does not
        std::size_t mid = lo + (hi - lo) / 2;
        if (confirm(mid)) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      good = lo;
    }
    out_.input = good > 0 ? history[good] : row_.raw;
    out_.finding = confirmed_[history[good]];
  }

  void log(const std::string& line) {
    if (options_.log)
      *options_.log << "reduce: call " << out_.calls << ", " << out_.candidates << " rows: " << line << "\n";
  }

  const scenario::Row& row_;
  const std::string bucket_;
  const ScenarioOracle& oracle_;
  const ScenarioReduceOptions& options_;
  bool request_canonical_ = false, response_canonical_ = false;
  ScenarioReduceResult out_;
  std::set<std::string> seen_;
  std::map<std::string, std::optional<run::Finding>> confirmed_;  ///< real-id answers by row text
  std::size_t renamed_ = 0;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace

Result<scenario::Row, std::string> finding_row(const std::string& path, const run::Finding& finding) {
  if (!finding.scenario) return path + ": field 'scenario': not a layer-3 finding";
  auto row = parse_row(finding.input);
  if (!row.ok()) {
    const auto& e = row.error();
    std::string where = e.where;
    if (where.rfind("scenarios[0]", 0) == 0) where = "the row" + where.substr(12);
    return path + ": field 'input': its row does not read as a scenario row: " + where + ": " + e.message;
  }
  if (row.value().id != finding.scenario->id)
    return path + ": field 'scenario.id': \"" + finding.scenario->id + "\" is not the row's id \"" +
           row.value().id + "\"";
  return std::move(row).value();
}

std::size_t row_size(const std::string& row_text) {
  auto v = json::parse(row_text);
  return v.ok() ? json::write(v.value()).size() : row_text.size();
}

ScenarioReduceResult reduce_scenario(const scenario::Row& row, const std::string& bucket,
                                     const ScenarioOracle& oracle, const ScenarioReduceOptions& options) {
  return Reduction(row, bucket, oracle, options).run();
}

Result<ScenarioFileReduction, std::string> reduce_scenario_finding(const std::string& path,
                                                                   const run::Finding& f,
                                                                   const std::string& bucket,
                                                                   const ScenarioOracle& oracle,
                                                                   const ScenarioReduceOptions& options) {
  auto row = finding_row(path, f);
  if (!row.ok()) return row.error();
  ScenarioFileReduction out;
  out.finding_path = path;
  out.min_path = run::minimized_path_for(path);
  out.bucket = bucket;
  out.size_before = row_size(f.input);
  out.result = reduce_scenario(row.value(), bucket, oracle, options);
  if (!out.result.reproduced || !out.result.finding) {
    std::string now;
    if (out.result.finding) {
      for (const auto& d : out.result.finding->divergences) now += (now.empty() ? "" : ", ") + d.bucket;
    }
    return path + ": bucket " + bucket + " does not reproduce any more on the reference and the clients " +
           "(the row now gives " + (now.empty() ? std::string("no divergence") : "buckets " + now) +
           "); nothing was written";
  }
  std::error_code ec;
  if (std::filesystem::exists(out.min_path, ec)) {
    auto existing = run::FindingStore::load(out.min_path);
    if (existing.ok() && row_size(existing.value().input) <= row_size(out.result.input)) {
      out.note = "kept " + out.min_path + " (" + std::to_string(row_size(existing.value().input)) +
                 " bytes, not larger than this run's " + std::to_string(row_size(out.result.input)) + ")";
      return out;
    }
  }
  run::Finding m = *out.result.finding;
  m.seed = f.seed;
  m.source = f.source;
  m.replay = run::replay_command(out.min_path);
  if (f.reduction) {  // reducing a .min.json again: the story starts at the first original
    m.reduction = *f.reduction;
    m.reduction->calls += out.result.calls;
    m.reduction->bytes_after = m.input.size();
  } else {
    m.reduction = run::Reduction{std::filesystem::path(path).filename().string(), out.result.calls,
                                 f.input.size(), m.input.size()};
  }
  json::WriteOptions pretty;
  pretty.indent = 2;
  run::write_file_atomically(out.min_path, json::write(run::finding_to_json(m), pretty) + "\n");
  out.written = true;
  out.note = "wrote " + out.min_path;
  return out;
}

ScenarioRunReduction reduce_scenario_run_folder(const std::string& findings_dir,
                                                const ScenarioOracleFactory& factory,
                                                std::size_t total_budget, const ScenarioReduceOptions& base,
                                                std::ostream& log) {
  ScenarioRunReduction out;
  struct Entry {
    std::string path;
    run::Finding finding;
  };
  std::vector<Entry> originals;
  std::set<std::string> covered;
  for (const auto& listed : run::list_finding_files(findings_dir)) {
    auto load = [&](const std::string& p) -> std::optional<run::Finding> {
      auto loaded = run::FindingStore::load(p);
      if (loaded.ok()) return std::move(loaded).value();
      out.skipped.push_back(loaded.error() + " (skipped)");
      return std::nullopt;
    };
    if (listed.min_path || listed.orphan_minimized) {
      if (auto m = load(listed.min_path.value_or(listed.path))) {
        for (const auto& d : m->divergences) covered.insert(d.bucket);
      }
      continue;  // reduced already (or a minimized file standing for itself)
    }
    if (auto f = load(listed.path)) {
      if (f->scenario) originals.push_back({listed.path, std::move(*f)});
    }
  }
  std::map<std::string, const Entry*> pick;
  std::set<std::string> contract, timeouts;
  for (const auto& e : originals) {
    for (const auto& d : e.finding.divergences) {
      if (covered.count(d.bucket)) continue;
      if (d.cls == core::DivergenceClass::kTimeout) timeouts.insert(d.bucket);
      if (!d.implementation_defined) contract.insert(d.bucket);
      auto& best = pick[d.bucket];
      if (!best || row_size(e.finding.input) < row_size(best->finding.input)) best = &e;
    }
  }
  std::vector<std::pair<std::string, const Entry*>> todo(pick.begin(), pick.end());
  std::stable_sort(todo.begin(), todo.end(), [&](const auto& a, const auto& b) {
    const bool ca = contract.count(a.first) > 0, cb = contract.count(b.first) > 0;
    if (ca != cb) return ca;
    return row_size(a.second->finding.input) < row_size(b.second->finding.input);
  });
  std::set<std::string> done_files;
  for (std::size_t k = 0; k < todo.size(); ++k) {
    const auto& [bucket, entry] = todo[k];
    if (covered.count(bucket)) continue;
    const std::string name = std::filesystem::path(entry->path).filename().string();
    if (timeouts.count(bucket)) {  // a hanging candidate costs a whole batch deadline
      out.skipped.push_back("bucket " + bucket + " (" + name + "): a timeout; run `crosscheck reduce " +
                            entry->path + "`");
      continue;
    }
    if (done_files.count(entry->path)) {
      out.skipped.push_back("bucket " + bucket + " (" + name +
                            "): its row was reduced for another bucket; run " +
                            "`crosscheck reduce --bucket " + bucket + " " + entry->path + "`");
      continue;
    }
    std::size_t left = total_budget > out.calls ? total_budget - out.calls : 0;
    std::size_t buckets_here = 0;
    for (std::size_t j = k; j < todo.size(); ++j) buckets_here += covered.count(todo[j].first) ? 0 : 1;
    const std::size_t share = left / std::max<std::size_t>(buckets_here, 1);
    if (share < 3 || (base.should_stop && base.should_stop())) {  // the probe, one step, the confirmation
      out.buckets_left = buckets_here;
      break;
    }
    ScenarioReduceOptions o = base;
    o.budget = share;
    done_files.insert(entry->path);
    Result<ScenarioFileReduction, std::string> r = std::string();
    try {
      ScenarioRig rig = factory(entry->finding);
      o.validator = rig.validator;
      r = reduce_scenario_finding(entry->path, entry->finding, bucket, rig.oracle, o);
    } catch (const Fatal& e) {
      if (e.code() != kExitUsage) throw;  // a client that cannot start ends the command (exit 3)
      out.skipped.push_back("bucket " + bucket + " (" + name + "): " + e.what());
      continue;
    }
    if (!r.ok()) {
      out.calls += 1;
      out.skipped.push_back("bucket " + bucket + ": " + r.error());
      continue;
    }
    ScenarioFileReduction& fr = r.value();
    out.calls += fr.result.calls;
    if (fr.result.finding) {
      for (const auto& d : fr.result.finding->divergences) covered.insert(d.bucket);
    }
    log << "reduced " << name << " (bucket " << bucket << "): " << fr.size_before << " -> "
        << row_size(fr.result.input) << " bytes in " << fr.result.calls << " client runs"
        << (fr.result.budget_exhausted ? " (budget reached)" : "") << (fr.written ? "" : "; " + fr.note)
        << "\n";
    out.reduced.push_back(std::move(fr));
  }
  return out;
}

}  // namespace crosscheck::reduce
