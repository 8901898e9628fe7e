// Sizes of WAL and disk as an operator types and reads them: "256MiB", "1GiB", "512kB" or
// plain bytes in; "256 MiB", "2.1 GiB", "900 bytes" out. Units are powers of 1024, as
// PostgreSQL's own settings read them (its "MB" is 1024 kB): K, M, G and T, each with or
// without "iB" or "B", in any case.
#pragma once

#include <QString>
#include <optional>

class ByteText
{
public:
    // Bytes, or nothing for empty, negative, fractional, overflowing or malformed text.
    static std::optional<qint64> parse(const QString &text);
    // "900 bytes", "1 byte", "64 KiB", "2.1 GiB": one decimal below 10 of the unit, else whole.
    static QString format(qint64 bytes);
};
