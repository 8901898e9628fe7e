#include "diagnosisresult.h"

#include "numbertext.h"
#include "timeformat.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <algorithm>

namespace DiagnosisCode {

QStringList all()
{
    return {RelayStalled, LeaseExpiredUnclaimed, DominantError, PoisonType, RetryHerd, DeadRising,
        FutureSchedule, CreatedInFuture, CreatedAtOnUpdate, BlockedAggregate, DeadEvents};
}

QStringList ordered()
{
    return all() << CdcSlot;
}

} // namespace DiagnosisCode

QString Finding::severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return u"info"_qs;
    case Severity::Warning:
        return u"warning"_qs;
    case Severity::Critical:
        return u"critical"_qs;
    }
    return u"warning"_qs;
}

QString Finding::actionFor(Advice::Surface surface) const
{
    return advice.isEmpty() ? action : advice.phrase(surface);
}

QStringList Finding::evidenceLines(qint64 now) const
{
    QStringList lines;
    for (auto it = evidence.cbegin(); it != evidence.cend(); ++it) {
        QString name = it.key();
        const QVariant &value = it.value();
        const int type = value.typeId();
        const bool number = type == QMetaType::Int || type == QMetaType::LongLong
            || type == QMetaType::UInt || type == QMetaType::ULongLong;
        QString text = type == QMetaType::QVariantList || type == QMetaType::QStringList
            ? value.toStringList().join(u", "_qs)
            : value.toString();
        if (number && (name.endsWith(u"_ms"_qs) || name.contains(u"_ms_"_qs))) {
            name.remove(u"_ms"_qs);
            const qint64 ms = value.toLongLong();
            text = TimeFormat::isLogical(now) ? TimeFormat::units(ms)
                                              : TimeFormat::ageInTwoUnits(ms);
        } else if (number && name.endsWith(u"_percent"_qs)) {
            name.chop(8);
            text = value.toString() + u"%"_qs;
        } else if (number) {
            text = NumberText::count(value.toLongLong());
        }
        lines << name.replace(u'_', u' ') + u": "_qs + text;
    }
    return lines;
}

QJsonObject Finding::toJson() const
{
    QJsonObject json {{u"code"_qs, code}, {u"severity"_qs, severityName(severity)},
        {u"count"_qs, count}, {u"summary"_qs, summary},
        {u"evidence"_qs, QJsonObject::fromVariantMap(evidence)},
        {u"action"_qs, actionFor(Advice::Surface::Cli)}};
    if (!advice.isEmpty())
        json.insert(u"action_id"_qs, advice.action);
    return json;
}

bool DiagnosisResult::hasProblem() const
{
    return std::any_of(findings.cbegin(), findings.cend(),
        [](const Finding &finding) { return finding.severity != Finding::Severity::Info; });
}

void DiagnosisResult::sortFindings()
{
    const QStringList order = DiagnosisCode::ordered();
    std::stable_sort(
        findings.begin(), findings.end(), [&order](const Finding &a, const Finding &b) {
            if (a.severity != b.severity)
                return a.severity > b.severity;
            return order.indexOf(a.code) < order.indexOf(b.code);
        });
}

QJsonObject DiagnosisResult::toJson() const
{
    QJsonArray list;
    for (const Finding &finding : findings)
        list.append(finding.toJson());
    QJsonObject json {{u"now"_qs, now}, {u"findings"_qs, list},
        {u"checked"_qs, QJsonArray::fromStringList(checked)},
        {u"not_checked"_qs, QJsonArray::fromStringList(notChecked)}};
    if (acknowledged() > 0) // only then: a database without markers prints the contract as it was
        json.insert(u"acknowledged"_qs,
            QJsonObject {{u"dead"_qs, acknowledged()}, {u"on_hold"_qs, onHold},
                {u"investigating"_qs, investigating}});
    return json;
}

QString Finding::shortName(const QString &code)
{
    static const QHash<QString, const char *> names = {
        {DiagnosisCode::RelayStalled, QT_TRANSLATE_NOOP("Finding", "relay stalled")},
        {DiagnosisCode::LeaseExpiredUnclaimed, QT_TRANSLATE_NOOP("Finding", "leases expired")},
        {DiagnosisCode::DominantError, QT_TRANSLATE_NOOP("Finding", "one error dominates DEAD")},
        {DiagnosisCode::PoisonType, QT_TRANSLATE_NOOP("Finding", "one type dominates DEAD")},
        {DiagnosisCode::RetryHerd, QT_TRANSLATE_NOOP("Finding", "retry herd")},
        {DiagnosisCode::DeadRising, QT_TRANSLATE_NOOP("Finding", "DEAD rising")},
        {DiagnosisCode::FutureSchedule, QT_TRANSLATE_NOOP("Finding", "due far in the future")},
        {DiagnosisCode::CreatedInFuture, QT_TRANSLATE_NOOP("Finding", "created in the future")},
        {DiagnosisCode::CreatedAtOnUpdate,
            QT_TRANSLATE_NOOP("Finding", "creation time rewritten by updates")},
        {DiagnosisCode::BlockedAggregate, QT_TRANSLATE_NOOP("Finding", "aggregates blocked")},
        {DiagnosisCode::DeadEvents, QT_TRANSLATE_NOOP("Finding", "DEAD events need an operator")},
        {DiagnosisCode::CdcSlot, QT_TRANSLATE_NOOP("Finding", "replication slot")}};
    const char *name = names.value(code);
    return name ? QCoreApplication::translate("Finding", name) : code;
}

QString DiagnosisResult::headline() const
{
    if (findings.isEmpty())
        return QCoreApplication::translate("DiagnosisResult", "No findings");
    QStringList names;
    for (const Finding &finding : findings)
        names << Finding::shortName(finding.code);
    const char *pattern = findings.size() == 1
        ? QT_TRANSLATE_NOOP("DiagnosisResult", "%1 finding: %2")
        : QT_TRANSLATE_NOOP("DiagnosisResult", "%1 findings: %2");
    return QCoreApplication::translate("DiagnosisResult", pattern)
        .arg(findings.size())
        .arg(names.join(u", "_qs));
}
