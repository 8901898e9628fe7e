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

if(problems)
    list(LENGTH problems count)
    string(REPLACE ";" "\n  " text "${problems}")
    message(FATAL_ERROR "dialects_check: ${count} engine branch(es) outside models/db/dialect/ "
        "(ask SqlDialect::of(db).can() instead):\n  ${text}")
endif()
list(LENGTH sources count)
message(STATUS "dialects_check: ${count} files, no driver named outside models/db/dialect/")
