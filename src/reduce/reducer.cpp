// reducer.cpp: hierarchical delta debugging of a finding's input (see reducer.hpp, docs/reducer.md).
#include "reduce/reducer.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "decoder/decoder.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "verdict/blame.hpp"

namespace crosscheck::reduce {
namespace {

using json::Value;
using Clock = std::chrono::steady_clock;
using Mask = std::vector<char>;  // removed[i]: unit i is left out of the candidate

// Deeper than the decoder's own limit (so deep-nesting findings reduce as trees), and still far
// from what the recursive tree code here can take on a default stack.
constexpr std::size_t kMaxTreeDepth = 8000;

json::ParseLimits tree_limits() {
  json::ParseLimits limits;
  limits.max_depth = kMaxTreeDepth;
  limits.max_bytes = std::size_t{1} << 30;
  return limits;
}

const core::Divergence* find_bucket(const core::PayloadResults& r, const std::string& bucket) {
  for (const auto& d : r.divergences) {
    if (d.bucket == bucket) return &d;
  }
  return nullptr;
}

/// The outcome the signature's outcome tuple gives "cpp" ("...|cpp=accepted,rust=rejected|..."), when
/// it is one the in-process decoder can give. Only then does cpp's answer decide membership.
std::optional<core::Outcome> cpp_outcome_in(const std::string& signature) {
  for (auto outcome : {core::Outcome::kAccepted, core::Outcome::kRejected}) {
    const std::string token =
        std::string(verdict::kReferenceImplementation) + "=" + core::outcome_name(outcome);
    for (std::size_t at = signature.find(token); at != std::string::npos;
         at = signature.find(token, at + 1)) {
      bool starts = at == 0 || signature[at - 1] == ',' || signature[at - 1] == '|';
      std::size_t end = at + token.size();
      bool ends = end == signature.size() || signature[end] == ',' || signature[end] == '|';
      if (starts && ends) return outcome;
    }
  }
  return std::nullopt;
}

// --- the oracle: batches, cache, budget, in-process screening ---------------------------------------

class Oracle {
 public:
  Oracle(const run::Finding& finding, std::string bucket, exec::ImplementationSet& set,
         const ReduceOptions& options, ReduceResult& stats)
      : root_(finding.root),
        bucket_(std::move(bucket)),
        layers_(run::finding_layers(finding)),
        set_(set),
        options_(options),
        stats_(stats) {
    if (options_.max_seconds > 0) {
      deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options_.max_seconds));
    }
  }

  /// Evaluates the original input (one call); false when it is not in the bucket.
  bool start(const std::string& original) {
    auto results = set_.run({{root_, original}}, layers_);
    ++stats_.calls;
    stats_.results = results.front();
    const core::Divergence* d = find_bucket(results.front(), bucket_);
    if (!d) return false;
    verdict_[original] = true;
    best_ = original;
    best_results_ = results.front();
    // Screening is sound only when the bucket names cpp's outcome and our decoder agrees with the
    // set's cpp on the original.
    auto expected = cpp_outcome_in(d->signature);
    const schema::Root* root = options_.oracle ? options_.oracle->find_root(root_) : nullptr;
    if (expected && root) {
      decoder_ = std::make_unique<decoder::Decoder>(*options_.oracle);
      oracle_root_ = root;
      expected_ = *expected;
      auto mine = in_process(original);
      auto theirs = cpp_answer(results.front());
      screening_ = mine == *expected && theirs && *theirs == *expected;
      if (!screening_) decoder_.reset();
    }
    stats_.oracle_used = screening_;
    return true;
  }

  /// Indices (ascending) of candidates known to keep the bucket, from the first slice of the
  /// candidates (in order) that holds any; empty when none does or the budget ran out first.
  /// `make(i)` builds candidate i; it is called lazily, slice by slice.
  std::vector<std::size_t> keepers(std::size_t count, const std::function<std::string(std::size_t)>& make) {
    std::size_t i = 0;
    while (i < count) {
      if (out_of_budget()) return {};
      std::size_t room = std::min(options_.batch, remaining());
      std::vector<std::pair<std::size_t, std::string>> slice;
      std::unordered_set<std::string> pending;
      std::vector<std::size_t> known;
      for (; i < count && slice.size() < room; ++i) {
        std::string c = make(i);
        if (auto it = verdict_.find(c); it != verdict_.end()) {
          ++stats_.cache_hits;
          if (it->second) {
            known.push_back(i++);
            break;  // everything before it is in `slice`; the first keeper is among them or this one
          }
          continue;
        }
        if (pending.count(c)) continue;
        if (screened_out(c)) {
          verdict_[c] = false;
          ++stats_.screened;
          continue;
        }
        pending.insert(c);
        slice.emplace_back(i, std::move(c));
      }
      std::vector<std::size_t> found = evaluate(slice);
      found.insert(found.end(), known.begin(), known.end());
      if (!found.empty()) {
        std::sort(found.begin(), found.end());
        return found;
      }
    }
    return {};
  }

  bool keeps(const std::string& candidate) {
    return !keepers(1, [&](std::size_t) { return candidate; }).empty();
  }

  bool out_of_budget() {
    if (remaining() == 0) {
      stats_.budget_exhausted = true;
      return true;
    }
    if ((deadline_ && Clock::now() > *deadline_) || (options_.should_stop && options_.should_stop())) {
      stats_.stopped = true;
      return true;
    }
    return false;
  }

  /// Caps the calls from now on at `calls` more (for the final byte pass); 0 lifts the cap.
  void cap(std::size_t calls) {
    cap_ = calls ? std::optional<std::size_t>(stats_.calls + calls) : std::nullopt;
  }
  bool capped() const { return cap_ && stats_.calls >= *cap_; }

  const std::string& best() const { return best_; }
  std::size_t calls() const { return stats_.calls; }
  const core::PayloadResults& best_results() const { return best_results_; }

 private:
  std::size_t remaining() const {
    std::size_t limit = options_.budget;
    if (cap_) limit = std::min(limit, *cap_);
    return stats_.calls >= limit ? 0 : limit - stats_.calls;
  }

  std::optional<core::Outcome> in_process(const std::string& bytes) const {
    if (!decoder_) return std::nullopt;
    return decoder_->decode(*oracle_root_, bytes).accepted ? core::Outcome::kAccepted
                                                           : core::Outcome::kRejected;
  }

  static std::optional<core::Outcome> cpp_answer(const core::PayloadResults& r) {
    for (const auto& x : r.results) {
      if (x.implementation == verdict::kReferenceImplementation) return x.outcome;
    }
    return std::nullopt;
  }

  bool screened_out(const std::string& candidate) {
    if (!screening_) return false;
    auto mine = in_process(candidate);
    if (*mine != expected_) return true;
    screened_outcome_[candidate] = *mine;  // checked against the set's cpp once it has answered
    return false;
  }

  std::vector<std::size_t> evaluate(const std::vector<std::pair<std::size_t, std::string>>& slice) {
    if (slice.empty()) return {};
    std::vector<exec::DecodeRequest> batch;
    for (const auto& [index, bytes] : slice) batch.push_back({root_, bytes});
    auto results = set_.run(batch, layers_);
    stats_.calls += batch.size();
    std::vector<std::size_t> found;
    for (std::size_t k = 0; k < slice.size(); ++k) {
      const std::string& bytes = slice[k].second;
      if (screening_) {
        // The set's cpp must agree with ours on everything we let through; otherwise stop screening.
        auto theirs = cpp_answer(results[k]);
        auto it = screened_outcome_.find(bytes);
        if (!theirs || it == screened_outcome_.end() || *theirs != it->second) {
          screening_ = false;
          if (options_.log)
            *options_.log << "[reduce] the in-process decoder disagrees with the set's cpp; "
                             "screening off\n";
        }
        screened_outcome_.erase(bytes);
      }
      bool keeps = find_bucket(results[k], bucket_) != nullptr;
      verdict_[bytes] = keeps;
      if (!keeps) continue;
      found.push_back(slice[k].first);
      if (bytes.size() < best_.size()) {
        best_ = bytes;
        best_results_ = results[k];
      }
    }
    return found;
  }

  std::string root_, bucket_;
  core::Layers layers_;  // the layers that found the finding: a layer-2 bucket needs both
  exec::ImplementationSet& set_;
  const ReduceOptions& options_;
  ReduceResult& stats_;
  std::optional<Clock::time_point> deadline_;
  std::optional<std::size_t> cap_;
  std::unordered_map<std::string, bool> verdict_;
  std::unordered_map<std::string, core::Outcome> screened_outcome_;
  std::string best_;
  core::PayloadResults best_results_;
  bool screening_ = false;
  std::unique_ptr<decoder::Decoder> decoder_;
  const schema::Root* oracle_root_ = nullptr;
  core::Outcome expected_ = core::Outcome::kAccepted;
};

// --- ddmin over units, batched -----------------------------------------------------------------------

/// Classic ddmin on complements (remove a chunk, big chunks first, granularity doubling when no
/// chunk can go), with the batch's keepers combined into one extra candidate when several chunks
/// can go, and a sweep that resumes where it left off once chunks are single units. Returns which
/// units were removed.
Mask ddmin(std::size_t n, const std::function<std::string(const Mask&)>& build, Oracle& oracle,
           bool try_all = true) {
  Mask removed(n, 0);
  if (n == 0) return removed;
  if (try_all) {
    Mask all(n, 1);
    if (oracle.keeps(build(all))) return all;
  }
  std::vector<std::size_t> alive(n);
  std::iota(alive.begin(), alive.end(), 0);
  std::size_t gran = std::min<std::size_t>(2, n);
  std::size_t cursor = 0;  // where the unit-by-unit sweep resumes
  while (!alive.empty() && !oracle.out_of_budget()) {
    gran = std::min(gran, alive.size());
    const bool units = gran == alive.size();
    const std::size_t first = units ? std::min(cursor, gran) : 0;
    auto chunk = [&](std::size_t k) {
      return std::pair<std::size_t, std::size_t>{k * alive.size() / gran, (k + 1) * alive.size() / gran};
    };
    auto with = [&](const std::vector<std::size_t>& ks) {
      Mask m = removed;
      for (std::size_t k : ks) {
        auto [b, e] = chunk(k);
        for (std::size_t x = b; x < e; ++x) m[alive[x]] = 1;
      }
      return m;
    };
    auto got = oracle.keepers(gran - first, [&](std::size_t i) { return build(with({first + i})); });
    if (!got.empty()) {
      std::vector<std::size_t> chosen{first + got.front()};
      if (got.size() > 1) {
        std::vector<std::size_t> all;
        for (std::size_t g : got) all.push_back(first + g);
        if (oracle.keeps(build(with(all)))) chosen = all;
      }
      removed = with(chosen);
      std::vector<std::size_t> next;
      for (std::size_t x : alive) {
        if (!removed[x]) next.push_back(x);
      }
      alive.swap(next);
      if (units) {
        cursor = chosen.front();
        gran = alive.size();
      } else {
        gran = std::max<std::size_t>(gran > chosen.size() ? gran - chosen.size() : 2, 2);
      }
      continue;
    }
    if (oracle.out_of_budget()) break;
    if (units) {
      if (first == 0) break;
      cursor = 0;  // the units before the cursor were tried before later removals: once more
      continue;
    }
    gran = std::min(gran * 2, alive.size());
    cursor = 0;
  }
  return removed;
}

// --- the JSON tree --------------------------------------------------------------------------------

using Path = std::vector<std::size_t>;

std::size_t child_count(const Value& v) {
  if (v.is_array()) return v.items().size();
  if (v.is_object()) return v.members().size();
  return 0;
}

Value& child(Value& v, std::size_t i) { return v.is_array() ? v.items()[i] : v.members()[i].value; }
const Value& child(const Value& v, std::size_t i) {
  return v.is_array() ? v.items()[i] : v.members()[i].value;
}

Value& at(Value& root, const Path& p) {
  Value* v = &root;
  for (std::size_t i : p) v = &child(*v, i);
  return *v;
}

void collect(const Value& v, std::size_t depth, std::size_t target, Path& path, std::vector<Path>& out) {
  if (depth == target) {
    out.push_back(path);
    return;
  }
  for (std::size_t i = 0; i < child_count(v); ++i) {
    path.push_back(i);
    collect(child(v, i), depth + 1, target, path, out);
    path.pop_back();
  }
}

std::vector<Path> nodes_at(const Value& root, std::size_t depth) {
  std::vector<Path> out;
  Path path;
  collect(root, 0, depth, path, out);
  return out;
}

/// Node counts of every subtree of `v`, by address (one post-order walk).
std::size_t count_nodes(const Value& v, std::unordered_map<const Value*, std::size_t>& counts) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < child_count(v); ++i) n += count_nodes(child(v, i), counts);
  counts[&v] = n;
  return n;
}

/// Splits WTF-8 into code point units (a lone surrogate is one 3-byte unit, like any other).
std::vector<std::string> code_points(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    len = std::min(len, s.size() - i);
    out.push_back(s.substr(i, len));
    i += len;
  }
  return out;
}

bool is_number_token(const std::string& t) {
  if (t.empty()) return false;
  auto parsed = json::parse(t);
  return parsed.ok() && parsed.value().is_number();
}

/// Shorter spellings of a number: 0, 1, -1, without exponent or fraction, fewer digits.
std::vector<std::string> number_shrinks(const std::string& text) {
  std::vector<std::string> out{"0", "1", "-1"};
  std::string sign = !text.empty() && text[0] == '-' ? "-" : "";
  std::string rest = text.substr(sign.size());
  std::size_t e = rest.find_first_of("eE");
  std::string exp = e == std::string::npos ? "" : rest.substr(e);
  std::string mant = rest.substr(0, e);
  std::size_t dot = mant.find('.');
  std::string ip = mant.substr(0, dot);
  std::string fp = dot == std::string::npos ? "" : mant.substr(dot + 1);
  out.push_back(sign + ip);
  out.push_back(sign + ip + exp);
  if (!fp.empty()) out.push_back(sign + ip + "." + fp);
  auto lengths = [](std::size_t n) {
    std::set<std::size_t> ks;
    for (std::size_t k = 1; k <= std::min<std::size_t>(n, 8); ++k) ks.insert(k);
    for (std::size_t k = n / 2; k >= 1 && k < n; k /= 2) ks.insert(k);
    if (n > 1) ks.insert(n - 1);
    return ks;
  };
  for (std::size_t k : lengths(ip.size())) {
    if (k < ip.size()) {
      out.push_back(sign + ip.substr(0, k));
      out.push_back(sign + ip.substr(0, k) + exp);
    }
  }
  for (std::size_t k : lengths(fp.size())) {
    if (k < fp.size()) out.push_back(sign + ip + "." + fp.substr(0, k) + exp);
  }
  std::vector<std::string> valid;
  for (auto& t : out) {
    if (t != text && t.size() <= text.size() && is_number_token(t)) valid.push_back(std::move(t));
  }
  return valid;
}

/// Replacement values for a node: simple values of every kind, a same-type simplest one, shorter
/// number spellings, and the node's own descendants (hoisting: children and, along the largest
/// child, descendants 2, 4, 8, ... levels down, which collapses deep nesting in a few steps).
std::vector<Value> replacements(const Value& v) {
  std::vector<Value> out;
  out.push_back(Value::number("0"));
  out.push_back(Value::string(""));
  out.push_back(Value::object());
  out.push_back(Value::array());
  out.push_back(Value::null());
  out.push_back(Value::boolean(true));
  out.push_back(Value::boolean(false));
  if (v.is_number()) {
    for (auto& t : number_shrinks(v.number_text())) out.push_back(Value::number(std::move(t)));
  }
  if (child_count(v) > 0) {
    std::unordered_map<const Value*, std::size_t> counts;
    count_nodes(v, counts);
    std::vector<std::pair<std::size_t, std::size_t>> sized;  // (node count, child index)
    // Scalar children too: a divergence may hang on one string or number, and `{"":"\t"}` should
    // become `"\t"` (the bigger children are tried first).
    for (std::size_t i = 0; i < child_count(v); ++i) sized.emplace_back(counts[&child(v, i)], i);
    std::sort(sized.rbegin(), sized.rend());
    for (std::size_t k = 0; k < sized.size() && k < 8; ++k) out.push_back(child(v, sized[k].second));
    const Value* cur = &v;
    for (std::size_t depth = 1, next = 2; child_count(*cur) > 0; ++depth) {
      std::size_t biggest = 0, size = 0;
      for (std::size_t i = 0; i < child_count(*cur); ++i) {
        std::size_t s = counts[&child(*cur, i)];
        if (s > size) {
          size = s;
          biggest = i;
        }
      }
      cur = &child(*cur, biggest);
      if (depth == next) {
        out.push_back(*cur);
        next *= 2;
      }
    }
  }
  return out;
}

class TreeReducer {
 public:
  TreeReducer(Value tree, json::WriteOptions writer, Oracle& oracle, const ReduceOptions& options)
      : tree_(std::move(tree)), writer_(writer), oracle_(oracle), options_(options) {}

  std::string text() const { return json::write(tree_, writer_); }

  /// Levels, then strings, again and again until a whole pass gains nothing.
  void run() {
    for (int pass = 1; !oracle_.out_of_budget(); ++pass) {
      std::size_t before = text().size();
      for (std::size_t depth = 0; depth <= max_depth(tree_) && !oracle_.out_of_budget(); ++depth) {
        if (depth > 0) delete_level(depth);
        simplify_level(depth);
      }
      shorten_strings();
      log("pass " + std::to_string(pass), before);
      if (text().size() >= before) break;
    }
  }

 private:
  static std::size_t max_depth(const Value& v) {
    std::size_t d = 0;
    for (std::size_t i = 0; i < child_count(v); ++i) d = std::max(d, 1 + max_depth(child(v, i)));
    return d;
  }

  void log(const std::string& what, std::size_t before) const {
    if (options_.log)
      *options_.log << "[reduce] " << what << ": " << before << " -> " << text().size() << " bytes, "
                    << oracle_.calls() << " calls so far\n";
  }

  /// ddmin over every child of every container at depth - 1.
  void delete_level(std::size_t depth) {
    std::vector<Path> parents = nodes_at(tree_, depth - 1);
    std::vector<std::pair<std::size_t, std::size_t>> items;  // (parent, child index)
    for (std::size_t p = 0; p < parents.size(); ++p) {
      for (std::size_t i = 0; i < child_count(at(tree_, parents[p])); ++i) items.emplace_back(p, i);
    }
    if (items.empty()) return;
    auto apply = [&](const Mask& removed) {
      Value copy = tree_;
      for (std::size_t k = items.size(); k-- > 0;) {  // descending: earlier indices stay valid
        if (!removed[k]) continue;
        Value& parent = at(copy, parents[items[k].first]);
        if (parent.is_array()) {
          parent.items().erase(parent.items().begin() + static_cast<long>(items[k].second));
        } else {
          parent.members().erase(parent.members().begin() + static_cast<long>(items[k].second));
        }
      }
      return copy;
    };
    Mask removed = ddmin(
        items.size(), [&](const Mask& m) { return json::write(apply(m), writer_); }, oracle_, depth > 1);
    if (std::find(removed.begin(), removed.end(), 1) != removed.end()) tree_ = apply(removed);
  }

  void simplify_level(std::size_t depth) {
    for (const Path& p : nodes_at(tree_, depth)) {
      for (int round = 0; round < 64 && !oracle_.out_of_budget(); ++round) {
        if (!simplify_node(p)) break;
        const Value& now = at(tree_, p);
        if (!now.is_number() && child_count(now) == 0) break;
      }
    }
  }

  /// Tries every smaller replacement of one node, smallest candidate first; true when one was kept.
  bool simplify_node(const Path& p) {
    const Value& node = at(tree_, p);
    const std::size_t own = json::write(node, writer_).size();
    std::vector<std::pair<std::string, Value>> cands;  // (candidate text, value)
    std::set<std::string> seen;
    for (auto& r : replacements(node)) {
      std::string rt = json::write(r, writer_);
      if (rt.size() >= own || !seen.insert(rt).second) continue;
      Value copy = tree_;
      at(copy, p) = r;
      cands.emplace_back(json::write(copy, writer_), std::move(r));
    }
    std::stable_sort(cands.begin(), cands.end(),
                     [](const auto& a, const auto& b) { return a.first.size() < b.first.size(); });
    auto got = oracle_.keepers(cands.size(), [&](std::size_t i) { return cands[i].first; });
    if (got.empty()) return false;
    at(tree_, p) = std::move(cands[got.front()].second);
    return true;
  }

  /// ddmin over the code points of every string value and member name, breadth first.
  void shorten_strings() {
    for (std::size_t depth = 0; depth <= max_depth(tree_) && !oracle_.out_of_budget(); ++depth) {
      for (const Path& p : nodes_at(tree_, depth)) {
        if (oracle_.out_of_budget()) return;
        if (at(tree_, p).is_string()) shorten(p, std::nullopt);
        if (at(tree_, p).is_object()) {
          for (std::size_t i = 0; i < at(tree_, p).members().size(); ++i) shorten(p, i);
        }
      }
    }
  }

  /// One string: the value at `p`, or the name of member `key` of the object at `p`.
  void shorten(const Path& p, std::optional<std::size_t> key) {
    const std::string& s = key ? at(tree_, p).members()[*key].key : at(tree_, p).string_value();
    std::vector<std::string> units = code_points(s);
    if (units.size() < (key ? 1u : 2u)) return;  // a one-character value is simplify's business ("")
    auto spelled = [&](const Mask& removed) {
      std::string out;
      for (std::size_t i = 0; i < units.size(); ++i) {
        if (!removed[i]) out += units[i];
      }
      return out;
    };
    auto apply = [&](Value& tree, const Mask& removed) {
      if (key) {
        at(tree, p).members()[*key].key = spelled(removed);
      } else {
        at(tree, p) = Value::string(spelled(removed));
      }
    };
    Mask removed = ddmin(
        units.size(),
        [&](const Mask& m) {
          Value copy = tree_;
          apply(copy, m);
          return json::write(copy, writer_);
        },
        oracle_, key.has_value());
    if (std::find(removed.begin(), removed.end(), 1) != removed.end()) apply(tree_, removed);
  }

  Value tree_;
  json::WriteOptions writer_;
  Oracle& oracle_;
  const ReduceOptions& options_;
};

/// Byte-level ddmin of `text`; returns the smallest text kept. By value: the oracle's best() changes
/// under our feet as candidates are kept.
std::string reduce_bytes(const std::string text, Oracle& oracle) {
  Mask removed = ddmin(
      text.size(),
      [&](const Mask& m) {
        std::string out;
        for (std::size_t i = 0; i < text.size(); ++i) {
          if (!m[i]) out += text[i];
        }
        return out;
      },
      oracle);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!removed[i]) out += text[i];
  }
  return out;
}

}  // namespace

std::optional<std::string> default_bucket(const run::Finding& finding) {
  for (const auto& d : finding.divergences) {
    if (!d.implementation_defined) return d.bucket;
  }
  if (!finding.divergences.empty()) return finding.divergences.front().bucket;
  return std::nullopt;
}

ReduceResult reduce(const run::Finding& finding, const std::string& bucket, exec::ImplementationSet& set,
                    const ReduceOptions& options) {
  ReduceResult result;
  result.input = finding.input;
  Oracle oracle(finding, bucket, set, options, result);
  if (!oracle.start(finding.input)) return result;
  result.reproduced = true;
  auto log = [&](const std::string& what) {
    if (options.log)
      *options.log << "[reduce] " << what << ": " << oracle.best().size() << " bytes, " << result.calls
                   << " calls, " << result.screened << " screened in process\n";
  };

  result.mode = "bytes";
  auto parsed = json::parse(finding.input, tree_limits());
  if (parsed.ok()) {
    // The tree is written back compactly: usable only if that spelling keeps the bucket (otherwise
    // whitespace or an escape's spelling matters, and only bytes can be cut).
    for (bool ascii : {false, true}) {
      json::WriteOptions writer;
      writer.ascii_only = ascii;
      std::string text = json::write(parsed.value(), writer);
      if (text == finding.input || oracle.keeps(text)) {
        result.mode = "json";
        TreeReducer tree(parsed.value(), writer, oracle, options);
        tree.run();
        log("tree");
        break;
      }
      if (oracle.out_of_budget()) break;
    }
  }
  if (result.mode == "bytes") {
    reduce_bytes(oracle.best(), oracle);
    log("bytes");
  } else if (!oracle.out_of_budget()) {
    // A last pass on the text itself, with at most a quarter of what is left (at least 64 calls):
    // cheap when screening rules out the broken texts, and it finds what the tree cannot say.
    std::size_t left = options.budget > result.calls ? options.budget - result.calls : 0;
    oracle.cap(std::max<std::size_t>(64, left / 4));
    reduce_bytes(oracle.best(), oracle);
    oracle.cap(0);
    if (result.budget_exhausted && !oracle.out_of_budget()) result.budget_exhausted = false;  // only the cap
    log("bytes");
  }
  result.input = oracle.best();
  result.results = oracle.best_results();
  return result;
}

}  // namespace crosscheck::reduce
