#include "auditpage.h"

#include "fulltextdelegate.h"

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
