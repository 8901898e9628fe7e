#include "auditpage.h"

#include "auditjobmodel.h"
#include "fulltextdelegate.h"
#include "notesaccess.h"
#include "replaylogmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

AuditPage::AuditPage(ReplayLogModel *log, const QString &profile, QWidget *parent)
    : QWidget(parent)
    , m_log(log)
{
    setObjectName(QStringLiteral("auditPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    if (!profile.isEmpty())
        layout->addWidget(profileAuditLabel(profile));
    m_jobs = new AuditJobModel(log, this);
    m_view = new QTreeView;
    m_view->setObjectName(QStringLiteral("replayLogView"));
    m_view->setModel(m_jobs);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAccessibleName(tr("Replay log"));
    m_view->setUniformRowHeights(true); // a thousand rows lay out at once
    m_view->header()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setItemDelegate(new FullTextDelegate(m_view));
    layout->addWidget(m_view);
    m_truncated
        = new QLabel(tr("The newest %L1 entries; File › Export replay log… writes them all.")
                         .arg(ReplayLogModel::AuditRows));
    m_truncated->setObjectName(QStringLiteral("replayLogTruncated"));
    m_truncated->hide();
    layout->addWidget(m_truncated);
    connect(m_jobs, &QAbstractItemModel::modelAboutToBeReset, this, &AuditPage::rememberExpanded);
    connect(m_jobs, &QAbstractItemModel::modelReset, this, &AuditPage::showJobs);
    showJobs();
}

// Through a profile: where its actions are audited (the team's audit store), or that none is
// configured and such actions are refused until one is.
QLabel *AuditPage::profileAuditLabel(const QString &profile)
{
    const QString where = NotesAccess::auditWhere();
    auto *label = new QLabel(where.isEmpty()
            ? tr("The %1 schema keeps no replay log. Actions through its profile are audited in "
                 "a database of Outbox Health's own, and none is configured: start the window "
                 "with --notes-db URL (`outboxctl init --db URL` makes one); until then they are "
                 "refused.")
                  .arg(profile)
            : tr("The %1 schema keeps no replay log. Actions through its profile are audited in "
                 "%2, shared by the team; they are listed here.")
                  .arg(profile, where));
    label->setObjectName(QStringLiteral("profileAuditWhere"));
    label->setTextFormat(Qt::PlainText); // a profile file's name, a file path
    label->setWordWrap(true);
    return label;
}

void AuditPage::rememberExpanded()
{
    m_expanded.clear();
    for (int row = 0; row < m_jobs->rowCount(); ++row) {
        const QModelIndex job = m_jobs->index(row, 0);
        if (m_view->isExpanded(job))
            m_expanded.insert(job.data(AuditJobModel::JobKeyRole).toString());
    }
}

// Each job's summary across its row; the jobs kept open, open again.
void AuditPage::showJobs()
{
    for (int row = 0; row < m_jobs->rowCount(); ++row) {
        const QModelIndex job = m_jobs->index(row, 0);
        m_view->setFirstColumnSpanned(row, {}, true);
        if (m_expanded.contains(job.data(AuditJobModel::JobKeyRole).toString()))
            m_view->expand(job);
    }
    if (!m_openedNewest && m_jobs->rowCount() > 0) {
        m_view->expand(m_jobs->index(0, 0));
        m_openedNewest = true;
    }
    fitColumns();
    updateTruncated();
}

// Every column as wide as its widest event row (the spanned summaries do not count; an event row
// sits two indentations in: the root's decoration and its job's), the last taking the rest.
void AuditPage::fitColumns()
{
    const QFontMetrics metrics(m_view->font());
    const int margin = 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 12;
    for (int column = 0; column + 1 < ReplayLogModel::ColumnCount; ++column) {
        int width = m_view->header()->sectionSizeHint(column);
        for (int row = 0; row < m_log->rowCount(); ++row)
            width = std::max(width,
                metrics.horizontalAdvance(m_log->index(row, column).data().toString()) + margin);
        m_view->setColumnWidth(column, width + (column == 0 ? 2 * m_view->indentation() : 0));
    }
}

// The read stops at AuditRows: as many rows means there are probably more.
void AuditPage::updateTruncated()
{
    m_truncated->setVisible(m_log->rowCount() >= ReplayLogModel::AuditRows);
}

QString AuditPage::truncatedText() const
{
    return m_truncated && !m_truncated->isHidden() ? m_truncated->text() : QString();
}

QWidget *AuditPage::focusTarget() const
{
    return m_view ? static_cast<QWidget *>(m_view) : const_cast<AuditPage *>(this);
}
