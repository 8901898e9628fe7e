#include "connectdialog.h"

#include "databaseurl.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace {

const char RecentKey[] = "connections/recent";
const int MaxRecent = 10;

} // namespace

ConnectDialog::ConnectDialog(QWidget *parent)
    : QDialog(parent)
    , m_url(new QComboBox)
    , m_readOnly(new QCheckBox(tr("Open read-only")))
    , m_error(new QLabel)
{
    setWindowTitle(tr("Connect to an outbox"));
    m_url->setEditable(true);
    m_url->addItems(recentConnections());
    m_url->lineEdit()->setPlaceholderText(
        QStringLiteral("postgresql://user@host:5432/dbname  or  sqlite:/path/to/file"));
    m_url->setMinimumWidth(460);
    m_readOnly->setChecked(QSettings().value(QStringLiteral("connection/readOnly")).toBool());
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b02030"));
    auto *hint
        = new QLabel(tr("The password comes from PGPASSWORD or ~/.pgpass; it is never stored."));
    hint->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    m_open = buttons->button(QDialogButtonBox::Open);
    QPushButton *browse = buttons->addButton(tr("SQLite file…"), QDialogButtonBox::ActionRole);
    connect(browse, &QPushButton::clicked, this, &ConnectDialog::browseSqlite);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Database URL")));
    layout->addWidget(m_url);
    layout->addWidget(hint);
    layout->addWidget(m_readOnly);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

QString ConnectDialog::url() const
{
    return m_url->currentText().trimmed();
}

bool ConnectDialog::readOnly() const
{
    return m_readOnly->isChecked();
}

void ConnectDialog::showError(const QString &message)
{
    m_error->setStyleSheet(QStringLiteral("color: #b02030"));
    m_error->setText(message);
}

void ConnectDialog::accept()
{
    if (m_connecting)
        return;
    if (url().isEmpty()) {
        showError(tr("Enter a database URL."));
        return;
    }
    emit openRequested();
}

void ConnectDialog::setConnecting(bool connecting)
{
    m_connecting = connecting;
    m_open->setEnabled(!connecting);
    m_url->setEnabled(!connecting);
    m_readOnly->setEnabled(!connecting);
    if (connecting) {
        m_error->setStyleSheet(QString());
        m_error->setText(tr("Connecting…"));
    }
}

void ConnectDialog::browseSqlite()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a SQLite outbox"), QString(),
        tr("SQLite databases (*.sqlite *.db *.sqlite3);;All files (*)"));
    if (!path.isEmpty())
        m_url->setEditText(QStringLiteral("sqlite:") + path);
}

QStringList ConnectDialog::recentConnections()
{
    return QSettings().value(QLatin1String(RecentKey)).toStringList();
}

void ConnectDialog::remember(const QString &urlText)
{
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(urlText, &error);
    if (!url.isValid())
        return;
    QStringList recent = recentConnections();
    const QString storable = url.toStorableString();
    recent.removeAll(storable);
    recent.prepend(storable);
    QSettings().setValue(QLatin1String(RecentKey), recent.mid(0, MaxRecent));
}
