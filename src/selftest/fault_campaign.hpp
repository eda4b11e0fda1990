// fault_campaign.hpp: the self-test's two kinds of campaign: one seeded fault (its witness checked,
// a campaign against the faulty adapter until the first finding in the expected class, that finding
// reduced, the goals judged) and the false-alarm check (a campaign against the equivalent adapter
// must give no contract finding). Each follows its findings through CampaignOptions::on_finding.
#pragma once

#include <memory>
#include <ostream>

#include "schema/ir.hpp"
#include "selftest/selftest.hpp"

namespace crosscheck::selftest {

FaultReport run_fault(std::shared_ptr<const schema::Ir> ir, const Fault& fault, const Options& o,
                      const Reducer& reducer, std::ostream& log);

FalseAlarmReport run_false_alarms(std::shared_ptr<const schema::Ir> ir, const Options& o, std::ostream& log);

}  // namespace crosscheck::selftest
