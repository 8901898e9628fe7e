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
    // While the database is being opened (elsewhere, off the GUI thread): Open is disabled and
    // the dialog says so; Cancel still works.
    void setConnecting(bool connecting);
    void finish() { QDialog::accept(); } // opened: close with Accepted

    static QStringList recentConnections();
    static void remember(const QString &url); // stores the URL without its password

signals:
    // Open was pressed: the URL and read-only choice are to be opened; the dialog stays.
    void openRequested();

protected:
    void accept() override;

private:
    void browseSqlite();

    QComboBox *m_url = nullptr;
    QCheckBox *m_readOnly = nullptr;
    QLabel *m_error = nullptr;
    class QPushButton *m_open = nullptr;
    bool m_connecting = false;
};
