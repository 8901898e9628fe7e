// Where a test finds the repository's files (fixtures, the shipped resources, the docs):
// OUTBOX_SOURCE_DIR, which tests/CMakeLists.txt sets for every test. The path comes from the
// environment, not from a compile definition, so that a test compiles the same in every clone
// and ccache serves it across clones (Qt Test's own QT_TESTCASE_SOURCEDIR is taken out for that
// reason: see the top-level CMakeLists.txt).
#pragma once

#include <QString>

namespace TestData {

// The repository's root: OUTBOX_SOURCE_DIR, else (a test started by hand from its build
// folder) three folders above the test program. Stops the test with how to set it otherwise.
QString sourceDir();
// A file under tests/, e.g. "fixtures/gruelbox.sql".
QString path(const QString &relative);
QString path(const char *relative);
// Under CI (CI=true or 1, as .ci/run sets it) a missing server or tool fails a test instead of
// skipping it.
bool inCi();

} // namespace TestData
