// ProfileParser's reading of the attempt history (`attempts` and its fields) and of the
// event's own attempt limit (`attempt_limit`): docs/profiles.md, "Attempt history".
#include "profileparser.h"

bool ProfileParser::readAttempts()
{
    if (!readPerEngine(QStringLiteral("attempt_limit"), &m_profile.m_attemptLimit, false))
        return false;
    AttemptMapping &mapping = m_profile.m_attempts;
    const auto kind = m_byKey.constFind(QStringLiteral("attempts"));
    if (kind == m_byKey.cend()) {
        for (const auto &field : AttemptMapping::fields()) {
            if (const Entry *entry = anyOf(QString::fromLatin1(field.first))) {
                return fail(entry->line,
                    QStringLiteral("field '%1' needs 'attempts = table' or 'attempts ="
                                   " json_array' (docs/profiles.md, \"Attempt history\")")
                        .arg(QString::fromLatin1(field.first)));
            }
        }
        return true;
    }
    bool ok = false;
    mapping.kind = AttemptMapping::kindFromName(kind->value, &ok);
    if (!ok) {
        return fail(kind->line,
            QStringLiteral("field 'attempts': '%1' is neither 'table' nor 'json_array'")
                .arg(kind->value));
    }
    const bool table = mapping.kind == AttemptMapping::Kind::Table;
    for (const auto &[name, member] : AttemptMapping::fields()) {
        const QString field = QString::fromLatin1(name);
        const bool required = field == QLatin1String("attempts_from")
            || (table && field != QLatin1String("attempt_outcome")
                && field != QLatin1String("attempt_error")
                && field != QLatin1String("attempt_worker")
                && field != QLatin1String("attempt_finished_at"));
        if (!table && field == QLatin1String("attempts_event_id") && anyOf(field)) {
            return fail(anyOf(field)->line,
                QStringLiteral("field 'attempts_event_id' is for 'attempts = table': a JSON"
                               " array belongs to the event's own row"));
        }
        if (required && !anyOf(field)) {
            return fail(kind->line,
                QStringLiteral("'attempts = %1' needs the field '%2'").arg(kind->value, field));
        }
        if (!readPerEngine(field, &(mapping.*member), required))
            return false;
    }
    return true;
}
