#include "explainreport.h"

#include "notesaccess.h"

#include <QJsonArray>

QJsonObject ExplainReport::toJson() const
{
    QJsonObject json = explanation.toJson();
    if (notes.isEmpty())
        return json;
    QJsonArray array;
    for (const OperatorNote &note : notes)
        array.append(note.toJson());
    json.insert(u"notes"_qs, array);
    return json;
}

std::optional<ExplainReport> ExplainReport::read(const Cli::Outbox &outbox, const QString &eventId,
    qint64 now, const ExplainOptions &options, QString *error)
{
    auto explanation
        = EventExplainer::explain(outbox.database(), eventId, now, error, &outbox.profile, options);
    if (!explanation)
        return std::nullopt;
    ExplainReport report {std::move(*explanation), {}};
    // The event's current notes, where notes exist (the window's detail pane shows the same).
    OperatorNotes notes = NotesAccess::open(outbox.database(), &outbox.profile);
    if (!notes.unavailable().isEmpty())
        return report;
    const auto current = notes.list({eventId, {}}, false, error);
    if (!current) {
        *error = QStringLiteral("reading the notes: %1").arg(*error);
        return std::nullopt;
    }
    report.notes = *current;
    return report;
}
