// The signature of an error message: the message with what varies between two occurrences of
// the same failure replaced by placeholders, so that "timeout after 3000 ms on 10.0.0.7" and
// "timeout after 5000 ms on 10.0.0.9" are one group. In this order: ISO timestamps <time>,
// UUIDs <uuid>, quoted values '<str>' / "<str>", hex strings (0x..., or 8+ hex digits holding
// a digit and a letter) <hex>, numbers not glued to a preceding letter <n> (so "HTTP 400" ->
// "HTTP <n>", "3000ms" -> "<n>ms", "relay-2" -> "relay-<n>", but "v2" and "IPv4" stay);
// white space collapsed, at most MaxLength characters. A signature is its own signature, so
// an operator may paste one back (`outboxctl replay --error-group`).
#pragma once

#include <QString>

namespace ErrorSignature {

constexpr int MaxLength = 300;
// The prefix of a stored message that the database hands over for grouping (SUBSTR in SQL):
// groups are formed from it, so a message differing only after it is the same group.
constexpr int ReadLength = 500;

QString of(const QString &message);

} // namespace ErrorSignature
