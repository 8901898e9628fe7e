// outboxctl diagnose --db URL [--profile NAME|PATH] [--cdc-slot NAME] [--now MS] [--json]: the
// diagnosis engine's findings (DiagnosisQuery), read-only, with the replication slot's
// (CdcFinding, code cdc_slot) when --cdc-slot or the profile's cdc_slot names one. Plain output:
// one finding per paragraph, worst first, then the DEAD events an operator's note marker
// acknowledges (notes, schema version 3), then what was checked and what could not be; --json adds
// "acknowledged" where notes exist. Exit 0 with no finding or only info ones, 1 with any warning or
// critical finding, 2 on any error.
#include "cdcfinding.h"
#include "cdcreport.h"
#include "cli.h"
#include "diagnosisquery.h"
#include "numbertext.h"

#include <QJsonDocument>

namespace {

// The evidence and the action in the window's words (Finding), the action as a command.
QString paragraph(const Finding &finding, qint64 now)
{
    return QStringLiteral("%1 %2 (%3)\n  %4\n  evidence: %5\n  action: %6\n")
        .arg(Finding::severityName(finding.severity).toUpper(), finding.code,
            NumberText::count(finding.count), Cli::printable(finding.summary),
            Cli::printable(finding.evidenceLines(now).join(u"; "_qs)),
            Cli::printable(finding.actionFor(Advice::Surface::Cli)));
}

QString report(const DiagnosisResult &result, const QString &database, const OutboxProfile &profile)
{
    const QString through
        = profile.isNative() ? QString() : QStringLiteral(" (profile %1)").arg(profile.name());
    QString text
        = QStringLiteral("diagnosis of %1%2 at %3\n\n")
              .arg(Cli::printable(database), Cli::printable(through), Cli::timeText(result.now));
    for (const Finding &finding : result.findings)
        text += paragraph(finding, result.now) + u"\n"_qs;
    if (result.findings.isEmpty())
        text += u"no findings: healthy\n\n"_qs;
    if (result.acknowledged() > 0)
        text += QStringLiteral("acknowledged: %1 an operator's marker (%2 on "
                               "hold, %3 investigating; outboxctl note list)\n\n")
                    .arg(result.acknowledged() == 1
                            ? u"1 DEAD event carries"_qs
                            : QStringLiteral("%1 DEAD events carry")
                                  .arg(NumberText::count(result.acknowledged())),
                        NumberText::count(result.onHold), NumberText::count(result.investigating));
    text += u"checked: "_qs + result.checked.join(u", "_qs);
    if (!result.notChecked.isEmpty()) {
        QStringList parts;
        for (const QString &code : result.notChecked)
            parts << QStringLiteral("%1 (%2)").arg(code, result.notCheckedReasons.value(code));
        text += u"\nnot checked: "_qs + parts.join(u", "_qs);
    }
    return text;
}

} // namespace

int runDiagnose(const QStringList &arguments)
{
    QCommandLineParser parser;
    Cli::addReportOptions(
        parser, u"The time to diagnose at"_qs, u"Print the findings as one JSON object."_qs);
    Cli::addNotesDbOption(parser);
    CdcReport::addSlotOption(parser);
    qint64 now = 0;
    QString slot;
    int exitCode = Cli::Ok;
    const auto outbox = Cli::openReport(
        parser, u"diagnose"_qs, arguments,
        [&](QString *error) {
            return Cli::readNow(parser, &now, error) && Cli::applyNotesDb(parser, error)
                && CdcReport::readSlot(parser, nullptr, &slot, error);
        },
        &exitCode);
    if (!outbox)
        return exitCode;
    if (const int refused = Cli::refuseUnusableNotesDb(parser, *outbox, u"diagnose"_qs))
        return refused;

    QString error;
    std::optional<DiagnosisResult> result
        = DiagnosisQuery::run(outbox->database(), now, &error, &outbox->profile);
    if (!result)
        return Cli::fail(QStringLiteral("diagnose: reading %1: %2").arg(outbox->name(), error));
    slot = OutboxProfile::cdcSlotFor(slot, outbox->profile);
    if (!slot.isEmpty()
        && !CdcFinding::diagnoseSlot(outbox->database(), slot, now, {}, &*result, &error))
        return Cli::fail(QStringLiteral("diagnose: reading %1: %2").arg(outbox->name(), error));
    Cli::printLine(parser.isSet(u"json"_qs)
            ? QString::fromUtf8(QJsonDocument(result->toJson()).toJson(QJsonDocument::Compact))
            : report(*result, outbox->name(), outbox->profile));
    return result->hasProblem() ? Cli::CheckFailed : Cli::Ok;
}
