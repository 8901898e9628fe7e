#include "connectdialog.h"

#include "databaseurl.h"
#include "profileregistry.h"
#include "themecolours.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
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
    m_error->setObjectName(QStringLiteral("connectError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText); // a server's words, never markup
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColours::errorText().name()));
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
    layout->addWidget(createProfileRow());
    layout->addWidget(createEnvironmentRow());
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

namespace {

const char FromFile[] = "\x01file"; // the data of the "From file…" entry

} // namespace

// Detected (the default), each built-in profile, the files picked, and "From file…".
QWidget *ConnectDialog::createProfileRow()
{
    m_profile = new QComboBox;
    m_profile->setObjectName(QStringLiteral("profileChoice"));
    m_profile->setAccessibleName(tr("Profile"));
    m_profile->addItem(tr("Detected (native when its tables exist)"), QString());
    for (const QString &name : ProfileRegistry::builtInNames())
        m_profile->addItem(name, name);
    m_profile->addItem(tr("From file…"), QLatin1String(FromFile));
    m_profile->setToolTip(tr("The outbox's schema: another library's table needs its profile"));
    connect(m_profile, &QComboBox::activated, this, [this](int index) {
        if (m_profile->itemData(index).toString() == QLatin1String(FromFile))
            chooseProfileFile();
        else
            m_profileIndex = index;
    });
    auto *row = new QWidget;
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(tr("Profile"));
    label->setBuddy(m_profile);
    layout->addWidget(label);
    layout->addWidget(m_profile, 1);
    return row;
}

void ConnectDialog::chooseProfileFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a profile file"), QString(), tr("Profiles (*.profile);;All files (*)"));
    if (path.isEmpty())
        m_profile->setCurrentIndex(m_profileIndex);
    else
        setProfile(path);
}

std::optional<QString> ConnectDialog::profile() const
{
    const QString choice = m_profile->currentData().toString();
    if (choice.isEmpty() || choice == QLatin1String(FromFile))
        return std::nullopt;
    return choice;
}

void ConnectDialog::setProfile(const QString &nameOrPath)
{
    int index = nameOrPath.isEmpty() ? 0 : m_profile->findData(nameOrPath);
    if (index < 0) { // a file: listed before "From file…"
        index = m_profile->count() - 1;
        m_profile->insertItem(index, nameOrPath, nameOrPath);
    }
    m_profile->setCurrentIndex(index);
    m_profileIndex = index;
}

QWidget *ConnectDialog::createEnvironmentRow()
{
    m_environment = new QComboBox;
    m_environment->setObjectName(QStringLiteral("environmentName"));
    m_environment->setEditable(true);
    m_environment->addItem(QString());
    for (const ConnectionEnvironment &preset : ConnectionEnvironment::presets())
        m_environment->addItem(preset.name);
    m_environment->lineEdit()->setPlaceholderText(tr("none (e.g. PRODUCTION)"));
    m_environment->setToolTip(tr("Shown in the window title, the status bar and a badge by the "
                                 "tiles, so that this database is never mistaken for another"));
    m_environmentColour = new QComboBox;
    m_environmentColour->setObjectName(QStringLiteral("environmentColour"));
    for (const auto &[name, colour] : ConnectionEnvironment::colours()) {
        QPixmap swatch(12, 12);
        swatch.fill(colour);
        m_environmentColour->addItem(QIcon(swatch), name, colour);
    }
    // A preset name brings its usual colour; a recent URL brings what it was given.
    connect(m_environment, &QComboBox::textActivated, this, [this](const QString &name) {
        for (const ConnectionEnvironment &preset : ConnectionEnvironment::presets()) {
            if (preset.name == name)
                setEnvironment(preset);
        }
    });
    connect(m_url, &QComboBox::currentTextChanged, this, [this](const QString &text) {
        const ConnectionEnvironment remembered = ConnectionEnvironment::forUrl(text.trimmed());
        if (!remembered.isEmpty())
            setEnvironment(remembered);
    });
    auto *row = new QWidget;
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Environment")));
    layout->addWidget(m_environment, 1);
    layout->addWidget(m_environmentColour);
    setEnvironment(ConnectionEnvironment::forUrl(url()));
    return row;
}

ConnectionEnvironment ConnectDialog::environment() const
{
    const QString name = m_environment->currentText().trimmed();
    if (name.isEmpty())
        return {};
    return {name, m_environmentColour->currentData().value<QColor>()};
}

void ConnectDialog::setEnvironment(const ConnectionEnvironment &environment)
{
    m_environment->setEditText(environment.name);
    const int index = m_environmentColour->findData(environment.colour);
    if (index >= 0) {
        m_environmentColour->setCurrentIndex(index);
    } else if (environment.colour.isValid()) {
        QPixmap swatch(12, 12);
        swatch.fill(environment.colour);
        m_environmentColour->addItem(QIcon(swatch), environment.colour.name(), environment.colour);
        m_environmentColour->setCurrentIndex(m_environmentColour->count() - 1);
    }
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
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColours::errorText().name()));
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
    m_profile->setEnabled(!connecting);
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

void ConnectDialog::remember(const QString &urlText, const ConnectionEnvironment &environment)
{
    remember(urlText);
    ConnectionEnvironment::remember(urlText, environment);
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
