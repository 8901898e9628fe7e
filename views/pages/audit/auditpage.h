// The Audit page: the replay and resolve log, newest first, at the window's full width (time,
// event ID, who and why are never cut at a laptop's width), the newest
// ReplayLogModel::AuditRows of it (a line says so when there are more). On a schema that keeps
// no log, a sentence that says so. The rows come from DetailReader's worker through ReplayLogModel.
#pragma once

#include <QWidget>

class QAbstractItemModel;
class QLabel;
class QTableView;

class AuditPage : public QWidget
{
    Q_OBJECT
public:
    // `unavailableFor`: the profile's name when the schema keeps no replay log (another library's
    // table).
    explicit AuditPage(
        QAbstractItemModel *log, const QString &unavailableFor = {}, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; } // none when the schema keeps no log
    // "The newest 1,000 entries; …", or empty while the whole log is shown.
    QString truncatedText() const;

private:
    void fitColumns();
    void updateTruncated();

    QTableView *m_view = nullptr;
    QLabel *m_truncated = nullptr;
};
