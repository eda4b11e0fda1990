// contextual_faults.hpp: the self-test's layer-3 faults (docs/selftest.md, "Layer 3").
//
// A stand-in client (selftest/client_standin.py --fault NAME) runs the real Python interop client
// and rewrites the rows of its report the fault changes, marking them (selftestAltered). Batches of
// generated rows (src/layers/contextual/generate, the fault's families, seeded by (seed, batch)) run through
// it (src/interop/client_runner, crosscheck serve-scenarios as the server) and through the reference host;
// src/layers/contextual/compare/scenario_verdict compares them. A rewritten row with a difference is a
// detection; a row left to the real client that differs is the real client's own and never counts. The
// rewording stand-in is the false-alarm check: none of its rewritten rows may differ.
#pragma once

#include <ostream>

#include "canonical/canonical_validator.hpp"
#include "selftest/selftest.hpp"

namespace crosscheck::selftest {

/// The stand-in for `fault` until the first detection in its expected class or the time limit.
FaultReport run_contextual_fault(const canonical::CanonicalValidator& validator, const Fault& fault,
                                 const Options& o, std::ostream& log);

/// The rewording stand-in for `o.false_alarm_seconds` on rows of every family.
ContextualFalseAlarmReport run_contextual_false_alarms(const canonical::CanonicalValidator& validator,
                                                       const Options& o, std::ostream& log);

/// Why the layer-3 stand-ins cannot run here (the real Python client unavailable, ...), or "".
std::string contextual_missing_part(const Options& o);

}  // namespace crosscheck::selftest
