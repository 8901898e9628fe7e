// The dashboard window: the outbox events and the attempt history of the selected event.
#pragma once

#include <QMainWindow>

class DbConnection;
class QSqlTableModel;
class QTableView;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(DbConnection *connection, QWidget *parent = nullptr);

private:
    void setupModels();
    void setupViews();
    void showAttemptsOfRow(int row);

    DbConnection *m_connection = nullptr;
    QSqlTableModel *m_events = nullptr;
    QSqlTableModel *m_attempts = nullptr;
    QTableView *m_eventView = nullptr;
    QTableView *m_attemptView = nullptr;
};
