// finding_store.hpp: the finding file now lives in run/finding_file.hpp; the campaign, merge and
// selftest sources still use these names until they are split.
#pragma once

#include "run/finding_file.hpp"
#include "run/json_file.hpp"

namespace crosscheck::findings {
using run::Finding;
using run::finding_file_name;
using run::finding_from_json;
using run::finding_hash;
using run::finding_of;
using run::finding_to_json;
using run::FindingStore;
using run::Reduction;
using run::write_file_atomically;
}  // namespace crosscheck::findings
