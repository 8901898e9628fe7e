// The Audit page: the replay, resolve and reopen log, newest first, at the window's full width
// (time, event ID, who and why are never cut at a laptop's width), one row per operator job
// ("Replayed 215 events — alice: fix deployed — …", AuditJobModel) that expands to its events;
// the newest ReplayLogModel::AuditRows entries of it (a line says so when there are more). A
// job kept open stays open when the log is read again; the newest job is open when the page
// first lists any (what the operator most likely came to check). Through a profile (a schema that
// keeps no log) a sentence says where its actions are audited, and the rows are that audit
// store's. The rows come from DetailReader's worker through ReplayLogModel.
#pragma once

#include "page.h"

#include <QSet>
#include <QWidget>

class AuditJobModel;
class QLabel;
class QTreeView;
class ReplayLogModel;

class AuditPage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("audit");

    // `profile`: the profile's name when the schema keeps no replay log (another library's
    // table): its audit store's rows are shown.
    explicit AuditPage(ReplayLogModel *log, const QString &profile = {}, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    AuditJobModel *jobs() const { return m_jobs; }
    // "The newest 1,000 entries; …", or empty while the whole log is shown.
    QString truncatedText() const;

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the log's tree, else the page

private:
    static QLabel *profileAuditLabel(const QString &profile);
    void rememberExpanded();
    void showJobs();
    void fitColumns();
    void updateTruncated();

    ReplayLogModel *m_log = nullptr;
    AuditJobModel *m_jobs = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_truncated = nullptr;
    QSet<QString> m_expanded; // the keys of the jobs kept open across a read
    bool m_openedNewest = false; // the newest job is open when the page first lists jobs
};
