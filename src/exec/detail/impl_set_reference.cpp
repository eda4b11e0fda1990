// impl_set_reference.cpp: the in-process reference's answers to a batch (the structural decoder, or
// the decode the caller already ran on the same IR; the canonical validator, reporting the nodes it
// evaluates on the default schema to the coverage sink).
#include <chrono>

#include "exec/detail/impl_set_member.hpp"
#include "exec/implementation_set.hpp"
#include "exec/reference_validation.hpp"

namespace crosscheck::exec {

using core::ImplResult;
using core::Outcome;
using core::ValidateResult;

void ImplementationSet::reference_batch(InFlight& flight, std::size_t member,
                                        const std::vector<const ReferenceDecode*>& decoded) {
  const Member& m = *members_[member];
  const auto& batch = flight.batch;
  for (std::size_t k = 0; flight.layers.structural && k < batch.size(); ++k) {
    const auto& req = batch[k];
    ImplResult r;
    r.implementation = m.name;
    const schema::Root* root = m.ir->find_root(req.root);
    if (!root) {
      r.outcome = Outcome::kUnsupported;
      flight.per_member[member].push_back(std::move(r));
      continue;
    }
    const ReferenceDecode* done = k < decoded.size() ? decoded[k] : nullptr;
    ReferenceDecode fresh;
    if (!done || done->ir != m.ir.get()) {
      auto start = std::chrono::steady_clock::now();
      decoder::DecodeResult d = m.decoder->decode(*root, req.input);
      fresh = {m.ir.get(), d.accepted, std::move(d.diagnostics), std::move(d.encoded),
               std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count()};
      done = &fresh;
    }
    r.millis = done->millis;
    r.outcome = done->accepted ? Outcome::kAccepted : Outcome::kRejected;
    for (const auto& diag : done->diagnostics)
      r.diagnostics.push_back({diag.path, diag.code, decoder::severity_name(diag.severity)});
    r.encoded = done == &fresh ? std::move(fresh.encoded) : done->encoded;
    flight.per_member[member].push_back(std::move(r));
  }
  for (const auto& req : flight.to_validate) flight.verdicts[member].push_back(reference_validate(m, req));
}

ValidateResult ImplementationSet::reference_validate(const Member& m, const ValidateRequest& request) const {
  auto start = std::chrono::steady_clock::now();
  ValidateResult r = validate_reference(*m.ir, request.document, request.input,
                                        m.ir == schemas_.front() ? node_sink_ : nullptr);
  r.millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace crosscheck::exec
