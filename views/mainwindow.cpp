#include "mainwindow.h"

#include "dbconnection.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSplitter>
#include <QSqlDriver>
#include <QSqlField>
#include <QSqlRecord>
#include <QSqlTableModel>
#include <QStatusBar>
#include <QTableView>

MainWindow::MainWindow(DbConnection *connection, QWidget *parent)
    : QMainWindow(parent)
    , m_connection(connection)
{
    setWindowTitle(QStringLiteral("Outbox Health — ") + connection->url().toDisplayString());
    setupModels();
    setupViews();
    statusBar()->showMessage(connection->url().toDisplayString());
    resize(1100, 700);
}

void MainWindow::setupModels()
{
    m_events = new QSqlTableModel(this, m_connection->database());
    m_events->setTable(QStringLiteral("delivery_outbox"));
    m_events->setEditStrategy(QSqlTableModel::OnManualSubmit);
    m_events->setSort(m_events->fieldIndex(QStringLiteral("created_at")), Qt::AscendingOrder);
    m_events->select();

    m_attempts = new QSqlTableModel(this, m_connection->database());
    m_attempts->setTable(QStringLiteral("delivery_attempt"));
    m_attempts->setEditStrategy(QSqlTableModel::OnManualSubmit);
    m_attempts->setSort(m_attempts->fieldIndex(QStringLiteral("attempt_no")), Qt::AscendingOrder);
    m_attempts->setFilter(QStringLiteral("1 = 0"));
    m_attempts->select();
}

void MainWindow::setupViews()
{
    m_eventView = new QTableView;
    m_eventView->setModel(m_events);
    m_eventView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_eventView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_eventView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_eventView->hideColumn(m_events->fieldIndex(QStringLiteral("payload")));
    m_eventView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_attemptView = new QTableView;
    m_attemptView->setModel(m_attempts);
    m_attemptView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attemptView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_eventView);
    splitter->addWidget(m_attemptView);
    setCentralWidget(splitter);

    connect(m_eventView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showAttemptsOfRow(current.row()); });
}

void MainWindow::showAttemptsOfRow(int row)
{
    const QString eventId = m_events->record(row).value(QStringLiteral("event_id")).toString();
    // The event ID is escaped by the driver, never pasted in raw.
    QSqlField field(QStringLiteral("event_id"), QMetaType(QMetaType::QString));
    field.setValue(eventId);
    const QString literal = m_connection->database().driver()->formatValue(field);
    m_attempts->setFilter(QStringLiteral("event_id = ") + literal);
    m_attempts->select();
}
