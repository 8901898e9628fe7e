#include "replaypreview.h"

#include "errorsignature.h"
#include "queryerror.h"
#include "replayer.h"
#include "sourcereader.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace {

QStringList distinct(const QStringList &ids)
{
    QStringList out;
    for (const QString &id : ids) {
        if (!out.contains(id))
            out << id;
    }
    return out;
}

// Most of the events share one PERMANENT error: the consumer refused them for good, and will
// again unless it changed.
QString permanentWarning(const QMap<QString, qint64> &permanent, qint64 events)
{
    QString signature;
    qint64 most = 0;
    for (auto it = permanent.cbegin(); it != permanent.cend(); ++it) {
        if (it.value() > most) {
            signature = it.key();
            most = it.value();
        }
    }
    if (events == 0 || most * 2 <= events)
        return {};
    return QStringLiteral("likely to fail again: fix the consumer first (%1 of %2 share the "
                          "PERMANENT error %3)")
        .arg(most)
        .arg(events)
        .arg(signature);
}

QJsonObject countsObject(const QMap<QString, qint64> &counts)
{
    QJsonObject object;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

} // namespace

std::optional<ReplayPreview> ReplayPreview::compute(const QSqlDatabase &db,
    const OutboxProfile *profile, const ReplayRequest &request, QString *error)
{
    ReplayPreview preview;
    preview.now = request.now;
    preview.spreadMs = request.spreadMs;
    preview.resetBudget = request.resetBudget;
    SourceReader reader(db, profile);
    // clang-format off
    QSqlQuery *query = reader.prepare(
        u"SELECT status, event_type, last_error_category, SUBSTR(last_error, 1, :length)"
        " FROM "_qs + reader.source() + u" WHERE event_id = :id"_qs);
    // clang-format on
    if (!query) {
        *error = reader.errorText();
        return std::nullopt;
    }
    const QStringList ids = distinct(request.eventIds);
    QMap<QString, qint64> permanent;
    for (qsizetype i = 0; i < ids.size(); ++i) {
        query->bindValue(u":length"_qs, ErrorSignature::ReadLength);
        query->bindValue(u":id"_qs, ids.at(i));
        if (!query->exec()) {
            *error = QueryError::text(*query);
            return std::nullopt;
        }
        if (!query->next()) {
            preview.skipped.append({ids.at(i), u"not found"_qs});
            continue;
        }
        const QString status = query->value(0).toString();
        if (status != QLatin1String("DEAD")) {
            preview.skipped.append({ids.at(i), u"not DEAD: it is "_qs + status});
            continue;
        }
        ++preview.events;
        ++preview.byType[query->value(1).toString()];
        const QString signature
            = query->value(3).isNull() ? NoError : ErrorSignature::of(query->value(3).toString());
        ++preview.byErrorGroup[signature];
        if (query->value(2).toString() == QLatin1String("PERMANENT") && signature != NoError)
            ++permanent[signature];
    }
    // The replay takes only the DEAD ones (ActionPlanner::execution): spread over them alone.
    if (preview.events > 0) {
        preview.firstDue = Replayer::dueTime(request.now, request.spreadMs, 0, preview.events);
        preview.lastDue
            = Replayer::dueTime(request.now, request.spreadMs, preview.events - 1, preview.events);
    }
    preview.warning = permanentWarning(permanent, preview.events);
    return preview;
}

QJsonObject ReplayPreview::toJson() const
{
    QJsonArray skips;
    for (const ReplaySkip &skip : skipped)
        skips.append(QJsonObject {{u"event_id"_qs, skip.eventId}, {u"reason"_qs, skip.reason}});
    const auto time = [](std::optional<qint64> value) {
        return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
    };
    return {{u"dry_run"_qs, true}, {u"events"_qs, events}, {u"by_type"_qs, countsObject(byType)},
        {u"by_error_group"_qs, countsObject(byErrorGroup)}, {u"skipped"_qs, skips},
        {u"first_due"_qs, time(firstDue)}, {u"last_due"_qs, time(lastDue)},
        {u"spread_ms"_qs, spreadMs}, {u"reset_budget"_qs, resetBudget},
        {u"warning"_qs, warning.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(warning)}};
}
