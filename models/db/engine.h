// The database engines Outbox Health speaks to: the one enum of them. What differs between
// them lives in the engine's SqlDialect (sqldialect.h), never in a caller's branch.
#pragma once

#include <array>

enum class Engine { PostgreSql, Sqlite, MySql };

inline constexpr int EngineCount = 3;
inline constexpr std::array<Engine, EngineCount> AllEngines
    = {Engine::PostgreSql, Engine::Sqlite, Engine::MySql};
