// A PostgreSQL role that must give its password, for tests of refused credentials (a real
// SQLSTATE 28P01): the shared test server trusts every other role. The role is a member of
// outbox_password_roles, which one pg_hba.conf line (added once, before the others) makes give
// a scram-sha-256 password over TCP; every other role keeps its trust.
#pragma once

#include <QString>

namespace PasswordRole {

// Creates (or resets) role `name` with `password`; empty on success, else why (no server:
// OUTBOX_TEST_PG_URL unset).
QString create(const QString &name, const QString &password);
// The test server's URL for that role, with `password` in it (postgresql://NAME:PW@HOST:PORT/DB).
QString url(const QString &name, const QString &password);

} // namespace PasswordRole
