// ProfileParser's reading of the state-change statements, `resolve` (DEAD -> RESOLVED) and
// `reopen` (RESOLVED -> DEAD): docs/profiles.md, "Resolve and reopen through a profile". Each is
// one fenced UPDATE per engine, checked as `replay` is (checkStatements, checkPlaceholders,
// checkReplayStatement); both need the status expression to yield RESOLVED (`statuses`).
#include "profileparser.h"

bool ProfileParser::readActions()
{
    const Entry *resolve = anyOf(QStringLiteral("resolve"));
    const Entry *reopen = anyOf(QStringLiteral("reopen"));
    const auto unavailable = m_byKey.constFind(QStringLiteral("resolve_unavailable"));
    if (resolve && unavailable != m_byKey.cend()) {
        return fail(std::max(resolve->line, unavailable->line),
            QStringLiteral("'resolve' and 'resolve_unavailable' exclude each other"));
    }
    for (const Entry *entry : {resolve, reopen}) {
        if (!entry)
            continue;
        const QString field = entry->key.section(QLatin1Char('.'), -1);
        if (!m_profile.hasResolved() || !m_profile.statuses().contains(u"DEAD"_qs)) {
            return fail(entry->line,
                QStringLiteral("field '%1' needs 'statuses' to list DEAD and RESOLVED (the"
                               " status expression yields RESOLVED for the library's closed"
                               " state)")
                    .arg(field));
        }
        OutboxProfile::PerEngine &target
            = field == QLatin1String("resolve") ? m_profile.m_resolve : m_profile.m_reopen;
        if (!readPerEngine(field, &target, true))
            return false;
        for (const Engine engine : AllEngines) {
            if (m_profile.supports(engine)
                && !checkReplayStatement(*find(field, engine), target.at(int(engine))))
                return false;
        }
    }
    return true;
}
