// Asks for a database URL (sqlite:PATH, postgresql://[USER@]HOST[:PORT]/DBNAME or
// mysql://…), offering recent connections from QSettings, or builds one from the engine, host,
// port, user, database and (where the engine takes them) TLS fields; and the outbox's profile as
// --profile takes it: detected, a built-in one, or a profile file. Passwords are never stored:
// only URLs without them; one typed in the password field is for this session only.
#pragma once

#include "connectionenvironment.h"

#include <QDialog>
#include <optional>

class QComboBox;
class QLabel;
class QCheckBox;
class QLineEdit;
class QSpinBox;

class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    // The URL to open: as typed, with the password field's password (if any) for this session.
    QString url() const;
    bool readOnly() const;
    // The profile chosen: none = detected (native whenever its tables exist), else a built-in
    // profile's name or a profile file's path, as outbox-dashboard --profile takes it.
    std::optional<QString> profile() const;
    void setProfile(const QString &nameOrPath);
    // The environment named for this connection (e.g. PRODUCTION, red); remembered with the
    // recent connections and filled in again when a recent URL is picked.
    ConnectionEnvironment environment() const;
    void setEnvironment(const ConnectionEnvironment &environment);
    void showError(const QString &message);
    // While the database is being opened (elsewhere, off the GUI thread): Open is disabled and
    // the dialog says so; Cancel still works.
    void setConnecting(bool connecting);
    void finish() { QDialog::accept(); } // opened: close with Accepted

    static QStringList recentConnections();
    static void remember(const QString &url); // stores the URL without its password
    // Also the environment given to it (none forgets it).
    static void remember(const QString &url, const ConnectionEnvironment &environment);

signals:
    // Open was pressed: the URL and read-only choice are to be opened; the dialog stays.
    void openRequested();

protected:
    void accept() override;

private:
    void browseSqlite();
    QWidget *createEnvironmentRow();
    QWidget *createProfileRow();
    QWidget *createServerFields();
    void engineChosen();
    void showEngine(const class SqlDialect &dialect);
    void fieldsEdited(); // the fields build the URL
    void urlEdited(const QString &text); // a URL typed or picked fills the fields
    void chooseCaFile();
    void chooseProfileFile();

    QComboBox *m_url = nullptr;
    QCheckBox *m_readOnly = nullptr;
    QComboBox *m_profile = nullptr;
    int m_profileIndex = 0; // the choice before "From file…", kept when no file is picked
    QComboBox *m_engine = nullptr;
    QWidget *m_serverFields = nullptr;
    QLineEdit *m_host = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_database = nullptr;
    QLineEdit *m_password = nullptr;
    QWidget *m_tlsRow = nullptr;
    QCheckBox *m_tls = nullptr;
    QLineEdit *m_caFile = nullptr;
    QComboBox *m_environment = nullptr;
    QComboBox *m_environmentColour = nullptr;
    QLabel *m_error = nullptr;
    class QPushButton *m_open = nullptr;
    bool m_connecting = false;
    bool m_syncing = false; // the fields or the URL being filled from the other
};
