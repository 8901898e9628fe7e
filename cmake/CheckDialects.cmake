# cmake -DSOURCE_DIR=<checkout> -P cmake/CheckDialects.cmake
# Fails naming every C++ file outside models/db/dialect/ that names a Qt SQL driver ("QPSQL",
# "QSQLITE", "QMYSQL"), asks a connection for its driverName() or reaches for a driver's own
# handle (libpq's PGconn, pg_conn or libpq-fe.h), and every declaration of an
# engine enum beyond the one in models/db/engine.h: what differs between engines lives in one
# dialect per engine (docs/architecture.md, "Database engines"), so a caller asks what the
# engine can do, never which engine it is. Tests are held to it too.
cmake_minimum_required(VERSION 3.21)
if(NOT SOURCE_DIR)
    set(SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR}/..)
endif()
set(globs "")
foreach(folder models app views tests)
    list(APPEND globs ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.h)
endforeach()
file(GLOB_RECURSE sources RELATIVE ${SOURCE_DIR} ${globs})

set(pattern "QPSQL|QSQLITE|QMYSQL|driverName\\(|PGconn|pg_conn|libpq-fe\\.h|enum class Engine[ {]")
set(problems "")
set(enums "")
foreach(file IN LISTS sources)
    if(file MATCHES "^models/db/dialect/")
        continue()
    endif()
    file(READ ${SOURCE_DIR}/${file} content)
    if(NOT content MATCHES "${pattern}")
        continue()
    endif()
    # One list element a line (a `;` of the code is not a list separator).
    string(REPLACE ";" "," content "${content}")
    string(REPLACE "\n" ";" lines "${content}")
    foreach(line IN LISTS lines)
        if(NOT line MATCHES "${pattern}")
            continue()
        endif()
        if(line MATCHES "enum class Engine[ {]")
            list(APPEND enums "${file}")
            continue()
        endif()
        string(STRIP "${line}" line)
        list(APPEND problems "${file}: ${line}")
    endforeach()
endforeach()
if(NOT enums STREQUAL "models/db/engine.h")
    string(REPLACE ";" ", " text "${enums}")
    list(APPEND problems "one enum class Engine, in models/db/engine.h, expected; found in: ${text}")
endif()

# Engine-specific SQL and words, in the string literals of the program's code (models/, app/,
# views/; comments may name them), a clause appended to shared SQL that another engine writes
# elsewhere in the statement (LIMIT, FOR UPDATE, SKIP LOCKED, ON CONFLICT, ON DUPLICATE KEY,
# INSERT OR IGNORE), and a branch on one named engine (== Engine::MySql,
# case Engine::PostgreSql:, isPostgres()): each engine's whole statements, fragments and error words
# live in its dialect (models/db/dialect/, EngineStatements and SqlDialect). Exempt, with why:
# - tests/: a test runs each engine's own SQL against its server to check what the dialect
#   claims (tst_dialect), and fixtures write an engine's own catalogue; the driver-name
#   check above still holds there.
# - models/db/sqldialect.h, sqldialect.cpp, enginestatements.h: the dialect's own interface
#   and base class (fragments two engines share, overridden by the third).
# - models/db/readhazards.cpp: names of functions no profile's read may call, refused on
#   every engine alike (a PostgreSQL name in a MySQL profile is refused too): a deny-list
#   of words, never SQL that runs, so it branches on no engine.
# - models/profiles/profileparser.cpp: its refusal of a profile's `?` names the function a
#   PostgreSQL author writes instead (jsonb_exists): advice in words, not SQL that runs.
set(sql_words
    "SKIP LOCKED" "FOR UPDATE" "gen_random_uuid" "unnest\\(" "::(text|jsonb|json|bigint|integer|int|regclass|numeric)[^A-Za-z_]"
    "percentile_disc" "WITHIN GROUP" "generate_series" "pg_(stat|class|catalog|constraint|namespace|settings)"
    "pg_[a-z_]+\\(" "VACUUM" "ANALYZE" "TRUNCATE" "SHOW [A-Za-z_]" "set_config" "synchronous_commit"
    "work_mem" "AUTO_INCREMENT" "ON DUPLICATE KEY" "LAST_INSERT_ID" "CONNECTION_ID" "KILL QUERY"
    "FORCE INDEX" "JSON_TABLE" "utf8mb4" "MODIFY " "PRAGMA" "BEGIN IMMEDIATE" "INSERT OR "
    "sqlite_master" "sqlite_sequence" "json_each" "jsonb" "ON CONFLICT" "RETURNING" "ILIKE"
    "information_schema" "COLLATE \"C\""
    # clauses appended to shared SQL: a row limit (SQL Server writes TOP or OFFSET ... FETCH), a
    # row lock (a table hint there), an insert that skips or updates a taken key (MERGE): the
    # whole statement is EngineStatements' (limitedSql, selectSql, insertIgnoringSql, upsertSql)
    "(^|[^A-Za-z_])LIMIT([^A-Za-z_]|$)" "INSERT OR IGNORE"
    # error words (FailureCause asks each engine's EngineStatements for them)
    "server has gone away" "Lost connection to" "Deadlock found" "Lock wait timeout"
    "deadlock detected" "could not serialize" "pg_hba" "password authentication failed"
    "Access denied for user" "the database system is" "READ ONLY transaction"
    "SQLite database file not found")
string(REPLACE ";" "|" sql_pattern "${sql_words}")
# A branch on one named engine in code (never in a comment): what differs is the dialect's.
set(branch_pattern "(==|!=) *Engine::[A-Za-z]|Engine::[A-Za-z]+ *(==|!=)|case Engine::|is(Postgres|PostgreSql|MySql|Sqlite|SQLite)\\(")
set(sql_pattern "${sql_pattern}|${branch_pattern}")
set(sql_exempt "^(tests/|models/db/dialect/|models/db/(sqldialect\\.(h|cpp)|enginestatements\\.h|readhazards\\.cpp)$|models/profiles/profileparser\\.cpp$)")
set(sql_problems "")
foreach(file IN LISTS sources)
    if(file MATCHES "${sql_exempt}")
        continue()
    endif()
    file(READ ${SOURCE_DIR}/${file} content)
    if(NOT content MATCHES "${sql_pattern}")
        continue()
    endif()
    # One list element a line; brackets would keep CMake from splitting, escaped quotes from
    # finding the literals' ends.
    string(REPLACE ";" "," content "${content}")
    string(REPLACE "[" "<" content "${content}")
    string(REPLACE "]" ">" content "${content}")
    string(REPLACE "\\\"" "" content "${content}")
    string(REPLACE "\n" ";" lines "${content}")
    foreach(line IN LISTS lines)
        string(STRIP "${line}" line)
        if(line MATCHES "^(//|\\*|/\\*)" OR NOT line MATCHES "${sql_pattern}")
            continue()
        endif()
        if(line MATCHES "${branch_pattern}")
            list(APPEND sql_problems "${file}: ${line}")
            continue()
        endif()
        string(REGEX MATCHALL "\"[^\"]*\"" literals "${line}")
        foreach(literal IN LISTS literals)
            if(literal MATCHES "${sql_pattern}")
                list(APPEND sql_problems "${file}: ${line}")
                break()
            endif()
        endforeach()
    endforeach()
endforeach()
if(sql_problems)
    list(LENGTH sql_problems count)
    string(REPLACE ";" "\n  " text "${sql_problems}")
    list(APPEND problems "${count} line(s) of engine-specific SQL or words outside "
        "models/db/dialect/ (ask the dialect's EngineStatements for the whole statement):\n  ${text}")
endif()

if(problems)
    list(LENGTH problems count)
    string(REPLACE ";" "\n  " text "${problems}")
    message(FATAL_ERROR "dialects_check: ${count} engine branch(es) outside models/db/dialect/ "
        "(ask SqlDialect::of(db).can() instead):\n  ${text}")
endif()
list(LENGTH sources count)
message(STATUS "dialects_check: ${count} files, no driver named outside models/db/dialect/")
