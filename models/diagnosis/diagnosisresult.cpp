#include "diagnosisresult.h"

#include <QJsonArray>
#include <algorithm>

namespace DiagnosisCode {

QStringList all()
{
    return {RelayStalled, LeaseExpiredUnclaimed, DominantError, PoisonType, RetryHerd, DeadRising,
        FutureSchedule, CreatedInFuture, BlockedAggregate};
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

QJsonObject Finding::toJson() const
{
    return {{u"code"_qs, code}, {u"severity"_qs, severityName(severity)}, {u"count"_qs, count},
        {u"summary"_qs, summary}, {u"evidence"_qs, QJsonObject::fromVariantMap(evidence)},
        {u"action"_qs, action}};
}

bool DiagnosisResult::hasProblem() const
{
    return std::any_of(findings.cbegin(), findings.cend(),
        [](const Finding &finding) { return finding.severity != Finding::Severity::Info; });
}

void DiagnosisResult::sortFindings()
{
    const QStringList order = DiagnosisCode::all();
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
    return {{u"now"_qs, now}, {u"findings"_qs, list},
        {u"checked"_qs, QJsonArray::fromStringList(checked)},
        {u"not_checked"_qs, QJsonArray::fromStringList(notChecked)}};
}
