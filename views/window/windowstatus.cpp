#include "windowstatus.h"

#include "connectionenvironment.h"
#include "elidinglabel.h"
#include "grantsmonitor.h"
#include "healthmonitor.h"
#include "intervalbox.h"
#include "schema.h"
#include "themecolours.h"

#include <QDateTime>
#include <QLabel>
#include <QStatusBar>

namespace {

constexpr int MaxStatusTextWidth = 480; // px: the refresh line leaves room for the others
constexpr int MinConnectionWidth = 140; // px: "Connected: postgres://…" at the least

QLabel *plainLabel(const QString &text, const char *name)
{
    auto *label = new QLabel(text);
    label->setObjectName(QLatin1String(name));
    label->setTextFormat(Qt::PlainText); // a server's, a file's or the operator's words
    return label;
}

QString boldWarning()
{
    return QStringLiteral("font-weight: bold; color: %1").arg(ThemeColours::warningText().name());
}

} // namespace

WindowStatus::WindowStatus(
    QStatusBar *bar, HealthMonitor *monitor, const DatabaseUrl &url, QObject *parent)
    : QObject(parent)
    , m_bar(bar)
    , m_monitor(monitor)
    , m_url(url)
{
    connect(monitor, &HealthMonitor::staleChanged, this, &WindowStatus::updateRefreshLabel);
    connect(monitor, &HealthMonitor::intervalChanged, this, &WindowStatus::updateRefreshLabel);
    connect(monitor, &HealthMonitor::healthStateChanged, this,
        &WindowStatus::updateConnectionLabel);
}

void WindowStatus::addLabels(
    const QString &profileName, const QString &profileTip, const QString &replayRefusal)
{
    // The connection line gives way first on a short status bar (cut, its whole text in the
    // tooltip); the refresh and diagnosis lines, the health, are never cut.
    m_connection = new ElidingLabel(MinConnectionWidth);
    m_connection->setObjectName(QStringLiteral("connectionLabel"));
    m_connection->setMaximumWidth(MaxStatusTextWidth);
    updateConnectionLabel();
    m_bar->addWidget(m_connection);
    QLabel *profile = plainLabel(tr("Profile: %1").arg(profileName), "profileLabel");
    profile->setToolTip(profileTip);
    m_bar->addWidget(profile);
    m_refresh = new QLabel(tr("Waiting for the first snapshot…"));
    m_refresh->setObjectName(QStringLiteral("refreshLabel"));
    m_bar->addWidget(m_refresh);
    m_schemaNote = new QLabel;
    m_schemaNote->setObjectName(QStringLiteral("schemaNoteLabel"));
    m_schemaNote->setVisible(false);
    m_bar->addWidget(m_schemaNote);
    if (replayRefusal.isEmpty())
        return;
    QLabel *note = plainLabel(
        tr("Replay disabled (%1 is read-only for replay)").arg(profileName), "replayNoteLabel");
    note->setToolTip(replayRefusal);
    m_bar->addWidget(note);
}

void WindowStatus::addMode(bool readOnly)
{
    auto *mode = new QLabel(readOnly ? tr("READ-ONLY") : tr("read-write"));
    mode->setObjectName(QStringLiteral("readOnlyLabel"));
    if (readOnly)
        mode->setStyleSheet(boldWarning());
    m_bar->addPermanentWidget(mode);
    m_grantsBadge = plainLabel(tr("read-only by the database's grants"), "grantsReadOnlyLabel");
    m_grantsBadge->setStyleSheet(boldWarning());
    m_grantsBadge->setVisible(false);
    m_bar->addPermanentWidget(m_grantsBadge);
}

// PRODUCTION (or whatever the operator named it), in its colour.
void WindowStatus::addEnvironment(const ConnectionEnvironment &environment)
{
    QLabel *label = plainLabel(environment.name, "environmentLabel");
    label->setStyleSheet(
        QStringLiteral("font-weight: bold; color: %1; background: %2;"
                       " padding: 0 6px; border-radius: 3px")
            .arg(ThemeColours::textOn(environment.colour).name(), environment.colour.name()));
    m_bar->insertPermanentWidget(0, label);
}

void WindowStatus::showGrants(const TableGrants &grants)
{
    m_grantsBadge->setVisible(grants.isReadOnly());
    m_grantsBadge->setToolTip(grants.refusal(TableGrants::Operation::Replay));
}

void WindowStatus::showSchemaVersion(int version)
{
    const QString outdated = Schema::outdatedMessage(version);
    m_schemaNote->setVisible(version > 0 && !outdated.isEmpty());
    m_schemaNote->setText(tr("Schema v%1: Resolve needs outboxctl migrate").arg(version));
    m_schemaNote->setToolTip(outdated);
}

// "Connected: URL" only while the figures are current: "Connecting to URL…" until the first
// snapshot; while stale the banner's cause, "Not connected: the server refuses connections (is
// it running?)" or "Cannot read the outbox: …". The whole line, the URL and the driver's words
// in the tooltip.
void WindowStatus::updateConnectionLabel()
{
    if (!m_connection)
        return;
    const QString url = m_url.toDisplayString();
    QString text;
    if (m_monitor->isStale() && m_monitor->isConnectionFailure())
        text = tr("Not connected: %1").arg(m_monitor->lastFailure());
    else if (m_monitor->isStale())
        text = m_monitor->failureHeadline();
    else if (m_monitor->hasSnapshot())
        text = tr("Connected: %1").arg(url);
    else
        text = tr("Connecting to %1…").arg(url);
    QString tip = text + QLatin1Char('\n') + url;
    if (m_monitor->isStale() && !m_monitor->lastFailureDetail().isEmpty())
        tip += QLatin1Char('\n') + tr("Details: %1").arg(m_monitor->lastFailureDetail());
    m_connection->setToolTip(tip);
    m_connection->setText(text);
}

// One short line: its full text in the tooltip, never cut mid-word at the status bar's edge.
void WindowStatus::updateRefreshLabel()
{
    updateConnectionLabel();
    QString text;
    if (m_monitor->isStale() && !m_monitor->lastGoodAt().isValid()) {
        text = tr("No figures yet"); // the cause is the connection label's, beside it
    } else if (m_monitor->isStale()) {
        text = tr("Stale since %1")
                   .arg(m_monitor->staleSince().toString(QStringLiteral("HH:mm:ss")));
    } else if (m_monitor->hasSnapshot()) {
        text = tr("Refreshed %1 in %2 ms, every %3 s")
                   .arg(m_monitor->lastGoodAt().toString(QStringLiteral("HH:mm:ss")))
                   .arg(m_monitor->snapshot().queryMs)
                   .arg(IntervalBox::shownSeconds(*m_monitor)); // the toolbar's number too
        if (IntervalBox::isStretched(*m_monitor))
            text += tr(" (adaptive)");
    } else {
        return; // still "Waiting for the first snapshot…"
    }
    const QString why = m_monitor->isStale() ? QString() : IntervalBox::reason(*m_monitor);
    m_refresh->setToolTip(why.isEmpty() ? text : text + QLatin1Char('\n') + why);
    m_refresh->setText(
        m_refresh->fontMetrics().elidedText(text, Qt::ElideRight, MaxStatusTextWidth));
}
