// Arithmetic on stored times and counts that saturates instead of wrapping: a row may hold any
// BIGINT (created_at = -9223372036854775808), and now - created_at must not wrap into a small
// or negative age.
#pragma once

#include <QtNumeric>
#include <limits>

namespace Saturating {

inline qint64 sub(qint64 a, qint64 b)
{
    qint64 result = 0;
    if (!qSubOverflow(a, b, &result))
        return result;
    return b < 0 ? std::numeric_limits<qint64>::max() : std::numeric_limits<qint64>::min();
}

inline qint64 add(qint64 a, qint64 b)
{
    qint64 result = 0;
    if (!qAddOverflow(a, b, &result))
        return result;
    return b > 0 ? std::numeric_limits<qint64>::max() : std::numeric_limits<qint64>::min();
}

// |value|, with the most negative value giving the largest positive one.
inline qint64 abs(qint64 value)
{
    if (value == std::numeric_limits<qint64>::min())
        return std::numeric_limits<qint64>::max();
    return value < 0 ? -value : value;
}

} // namespace Saturating
