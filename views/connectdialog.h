// Asks for a database URL (sqlite:PATH or postgresql://[USER@]HOST[:PORT]/DBNAME), offering
// recent connections from QSettings. Passwords are never stored: only URLs without them.
#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QCheckBox;

class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    QString url() const;
    bool readOnly() const;
    void showError(const QString &message);

    static QStringList recentConnections();
    static void remember(const QString &url); // stores the URL without its password

private:
    void browseSqlite();

    QComboBox *m_url = nullptr;
    QCheckBox *m_readOnly = nullptr;
    QLabel *m_error = nullptr;
};
