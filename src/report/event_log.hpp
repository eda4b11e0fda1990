// event_log.hpp: the event log now lives in run/event_log.hpp; the campaign and selftest sources
// still use these names until they are split.
#pragma once

#include "run/event_log.hpp"
#include "run/layout.hpp"

namespace crosscheck::report {
inline constexpr const char* kEventLogName = run::kEventLogFile;
using run::Event;
using run::EventFile;
using run::EventLog;
using run::read_events;
}  // namespace crosscheck::report
