#include "retrypolicy.h"

#include <QMap>
#include <QRandomGenerator>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace {

bool parseMillis(const QString &text, qint64 *value)
{
    bool ok = false;
    *value = text.trimmed().toLongLong(&ok);
    return ok && *value >= 0;
}

// "initial=100,multiplier=2,max=30000" into a map; rejects unknown and malformed keys.
bool parseParameters(const QString &kind, const QString &text, const QStringList &allowed,
    QMap<QString, QString> *values, QString *error)
{
    if (text.trimmed().isEmpty())
        return true;
    for (const QString &part : text.split(QLatin1Char(','))) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        const QString key = part.left(eq).trimmed();
        if (eq < 0 || part.mid(eq + 1).trimmed().isEmpty()) {
            *error = QStringLiteral("%1: expected key=value, got '%2'").arg(kind, part);
            return false;
        }
        if (!allowed.contains(key)) {
            *error = QStringLiteral("%1: unknown parameter '%2' (allowed: %3)")
                         .arg(kind, key, allowed.join(QStringLiteral(", ")));
            return false;
        }
        values->insert(key, part.mid(eq + 1).trimmed());
    }
    return true;
}

} // namespace

RetryPolicy::RetryPolicy()
    : m_spec(QStringLiteral("seed"))
    , m_delays({10, 20, 40})
{ }

bool RetryPolicy::parse(const QString &spec, RetryPolicy *policy, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;
    const QString trimmed = spec.trimmed();
    const qsizetype colon = trimmed.indexOf(QLatin1Char(':'));
    const QString kind = trimmed.left(colon).toLower();
    const QString rest = colon < 0 ? QString() : trimmed.mid(colon + 1);
    RetryPolicy result;
    result.m_spec = trimmed;
    auto bad = [&](const QString &why) {
        *error = QStringLiteral("bad retry policy '%1': %2").arg(spec, why);
        return false;
    };

    if (trimmed.isEmpty())
        return bad(QStringLiteral("empty spec (expected e.g. seed, fixed:80 or exponential)"));
    if (kind == QLatin1String("seed")) {
        if (colon >= 0)
            return bad(QStringLiteral("seed takes no parameters"));
        *policy = result;
        return true;
    }
    if (kind == QLatin1String("capped") || kind == QLatin1String("fixed")) {
        result.m_kind = kind == QLatin1String("fixed") ? Kind::Fixed : Kind::Capped;
        result.m_delays.clear();
        if (rest.trimmed().isEmpty())
            return bad(kind + QStringLiteral(" needs at least one delay, e.g. ") + kind
                + QStringLiteral(":10"));
        for (const QString &part : rest.split(QLatin1Char(','))) {
            qint64 delay = 0;
            if (!parseMillis(part, &delay))
                return bad(QStringLiteral("'%1' is not a non-negative whole number").arg(part));
            result.m_delays << delay;
        }
        if (result.m_kind == Kind::Fixed && result.m_delays.size() != 1)
            return bad(QStringLiteral("fixed takes exactly one delay"));
        *policy = result;
        return true;
    }

    const bool exponential
        = kind == QLatin1String("exponential") || kind == QLatin1String("exponential-random");
    if (!exponential && kind != QLatin1String("full-jitter"))
        return bad(QStringLiteral("unknown kind '%1' (expected seed, capped, fixed, exponential, "
                                  "exponential-random or full-jitter)")
                       .arg(kind));
    const QStringList allowed = exponential
        ? QStringList {QStringLiteral("initial"), QStringLiteral("multiplier"),
            QStringLiteral("max")}
        : QStringList {QStringLiteral("base"), QStringLiteral("max")};
    QMap<QString, QString> values;
    QString why;
    if (!parseParameters(kind, rest, allowed, &values, &why))
        return bad(why);
    result.m_kind = kind == QLatin1String("exponential") ? Kind::Exponential
        : exponential                                    ? Kind::ExponentialRandom
                                                         : Kind::FullJitter;
    const QString initialKey = exponential ? QStringLiteral("initial") : QStringLiteral("base");
    if (values.contains(initialKey) && !parseMillis(values.value(initialKey), &result.m_initial))
        return bad(initialKey + QStringLiteral(" must be a non-negative whole number"));
    if (values.contains(QStringLiteral("max"))
        && !parseMillis(values.value(QStringLiteral("max")), &result.m_max))
        return bad(QStringLiteral("max must be a non-negative whole number"));
    if (values.contains(QStringLiteral("multiplier"))) {
        bool ok = false;
        result.m_multiplier = values.value(QStringLiteral("multiplier")).toDouble(&ok);
        if (!ok || result.m_multiplier < 1.0 || !std::isfinite(result.m_multiplier))
            return bad(QStringLiteral("multiplier must be a number of at least 1"));
    }
    if (result.m_max < result.m_initial)
        return bad(QStringLiteral("max must not be smaller than ") + initialKey);
    *policy = result;
    return true;
}

qint64 RetryPolicy::exponentialBase(int failures) const
{
    const int k = std::max(failures, 1);
    const double multiplier = m_kind == Kind::FullJitter ? 2.0 : m_multiplier;
    // FullJitter grows as base * 2^k; Spring's exponential as initial * multiplier^(k-1).
    const int exponent = m_kind == Kind::FullJitter ? k : k - 1;
    if (m_initial == 0)
        return 0; // 0 * pow(...) would be NaN once pow overflows to infinity
    const double value = double(m_initial) * std::pow(multiplier, exponent);
    return value < double(m_max) ? qint64(value) : m_max; // infinity too: never cast

}

qint64 RetryPolicy::minimumDelayAfter(int failures) const
{
    switch (m_kind) {
    case Kind::Capped:
    case Kind::Fixed:
        return m_delays.at(std::clamp<qsizetype>(failures - 1, 0, m_delays.size() - 1));
    case Kind::Exponential:
    case Kind::ExponentialRandom:
        return exponentialBase(failures);
    case Kind::FullJitter:
        return 0;
    }
    return 0;
}

qint64 RetryPolicy::maximumDelayAfter(int failures) const
{
    switch (m_kind) {
    case Kind::ExponentialRandom: {
        // Spring's ExponentialRandomBackOffPolicy: base * (1 + r * (multiplier - 1)), capped at
        // max.
        const double top = double(exponentialBase(failures)) * m_multiplier;
        return top >= double(m_max) ? std::max(m_max, exponentialBase(failures)) : qint64(top);
    }
    case Kind::FullJitter:
        return exponentialBase(failures);
    default:
        return minimumDelayAfter(failures);
    }
}

qint64 RetryPolicy::delayAfter(int failures, QRandomGenerator &random) const
{
    const qint64 low = minimumDelayAfter(failures);
    const qint64 high = maximumDelayAfter(failures);
    if (high <= low)
        return low;
    return low + qint64(random.bounded(quint64(high - low + 1)));
}
