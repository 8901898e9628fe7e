#include "auditpage.h"

#include "fulltextdelegate.h"
#include "replaylogmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

AuditPage::AuditPage(QAbstractItemModel *log, const QString &unavailableFor, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("auditPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    if (!unavailableFor.isEmpty()) {
        auto *none
            = new QLabel(tr("Replay log: not available for %1: the schema keeps no replay log.")
                             .arg(unavailableFor));
        none->setObjectName(QStringLiteral("replayLogNotAvailable"));
        none->setTextFormat(Qt::PlainText); // a profile file's name
        none->setAlignment(Qt::AlignCenter);
        none->setWordWrap(true);
        layout->addWidget(none);
        return;
    }
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("replayLogView"));
    m_view->setModel(log);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setTabKeyNavigation(false); // Tab leaves the table; arrows move in it
    m_view->setAccessibleName(tr("Replay log"));
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setItemDelegate(new FullTextDelegate(m_view));
    layout->addWidget(m_view);
    m_truncated
        = new QLabel(tr("The newest %L1 entries; File › Export replay log… writes them all.")
                         .arg(ReplayLogModel::AuditRows));
    m_truncated->setObjectName(QStringLiteral("replayLogTruncated"));
    m_truncated->hide();
    layout->addWidget(m_truncated);
    connect(log, &QAbstractItemModel::modelReset, this, &AuditPage::updateTruncated);
    connect(log, &QAbstractItemModel::rowsInserted, this, &AuditPage::updateTruncated);
    connect(log, &QAbstractItemModel::rowsRemoved, this, &AuditPage::updateTruncated);
    // Every column as wide as its widest row, each time rows arrive; the last takes the rest.
    connect(log, &QAbstractItemModel::modelReset, this, &AuditPage::fitColumns);
    connect(log, &QAbstractItemModel::rowsInserted, this, &AuditPage::fitColumns);
}

void AuditPage::fitColumns()
{
    const int columns = m_view->model()->columnCount();
    for (int column = 0; column + 1 < columns; ++column)
        m_view->resizeColumnToContents(column);
}

// The read stops at AuditRows: as many rows means there are probably more.
void AuditPage::updateTruncated()
{
    m_truncated->setVisible(m_view->model()->rowCount() >= ReplayLogModel::AuditRows);
}

QString AuditPage::truncatedText() const
{
    return m_truncated && !m_truncated->isHidden() ? m_truncated->text() : QString();
}
