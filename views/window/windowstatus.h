// The window's status bar: the connection ("Connected: URL", or why not), the profile, when the
// figures were refreshed, an outdated schema's note, replay disabled by a profile, the diagnosis
// line, the environment badge, the jobs' progress (WindowActions), read-only or read-write and
// read-only by the grants. Each label short, its whole text in its tooltip.
#pragma once

#include "dbconnection.h"

#include <QObject>

struct ConnectionEnvironment;
class ElidingLabel;
class HealthMonitor;
class QLabel;
class QStatusBar;
class TableGrants;

class WindowStatus : public QObject
{
    Q_OBJECT
public:
    WindowStatus(QStatusBar *bar, HealthMonitor *monitor, const DatabaseUrl &url,
        QObject *parent);

    // The labels on the left, in order: connection, profile (its tooltip: `profileTip`),
    // refresh, schema note, and replay disabled (when `replayRefusal` says why).
    void addLabels(const QString &profileName, const QString &profileTip,
        const QString &replayRefusal);
    // READ-ONLY or read-write, then the badge of the grants, after the jobs' parts.
    void addMode(bool readOnly);
    void addEnvironment(const ConnectionEnvironment &environment); // first of the right
    void showGrants(const TableGrants &grants);
    // An older native schema says what to run, once.
    void showSchemaVersion(int version);
    void updateRefreshLabel();
    void updateConnectionLabel();

private:
    QStatusBar *m_bar = nullptr;
    HealthMonitor *m_monitor = nullptr;
    DatabaseUrl m_url;
    ElidingLabel *m_connection = nullptr;
    QLabel *m_refresh = nullptr;
    QLabel *m_schemaNote = nullptr;
    QLabel *m_grantsBadge = nullptr; // "read-only by the database's grants"
};
