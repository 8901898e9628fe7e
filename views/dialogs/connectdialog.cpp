#include "connectdialog.h"

#include "databaseurl.h"
#include "profileregistry.h"
#include "sqldialect.h"
#include "themecolours.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QUrl>
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
        QStringLiteral("postgresql://user@host:5432/dbname  or  mysql://user@host:3306/dbname  or  "
                       "sqlite:/path/to/file"));
    m_url->setMinimumWidth(460);
    m_readOnly->setChecked(QSettings().value(QStringLiteral("connection/readOnly")).toBool());
    m_error->setObjectName(QStringLiteral("connectError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText); // a server's words, never markup
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColours::errorText().name()));
    auto *hint = new QLabel(tr("The password comes from PGPASSWORD or ~/.pgpass (PostgreSQL), "
                               "MYSQL_PWD or ~/.my.cnf (MySQL, MariaDB), or the password field "
                               "for this session only; it is never stored."));
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
    layout->addWidget(createServerFields());
    layout->addWidget(hint);
    layout->addWidget(m_readOnly);
    layout->addWidget(createProfileRow());
    layout->addWidget(createEnvironmentRow());
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(m_url, &QComboBox::currentTextChanged, this, &ConnectDialog::urlEdited);
    urlEdited(url());
}

namespace {

const SqlDialect &dialectOf(const QComboBox *engine)
{
    return SqlDialect::of(Engine(engine->currentData().toInt()));
}

} // namespace

// The engine, then the server's host, port, user, database and password, and the TLS choice
// where the engine's URLs take ssl- options: editing them writes the URL above.
QWidget *ConnectDialog::createServerFields()
{
    m_engine = new QComboBox;
    m_engine->setObjectName(QStringLiteral("engineChoice"));
    m_engine->setAccessibleName(tr("Engine"));
    for (const SqlDialect *dialect : SqlDialect::all()) {
        QStringList schemes;
        for (const QString &scheme : dialect->urlSchemes())
            schemes << scheme
                    + (dialect->can().fileDatabase ? QStringLiteral(":") : QStringLiteral("://"));
        m_engine->addItem(tr("%1 (%2)").arg(dialect->title(), schemes.join(QStringLiteral(", "))),
            int(dialect->engine()));
    }
    m_host = new QLineEdit;
    m_host->setObjectName(QStringLiteral("serverHost"));
    m_port = new QSpinBox;
    m_port->setObjectName(QStringLiteral("serverPort"));
    m_port->setRange(1, 65535);
    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("serverUser"));
    m_database = new QLineEdit;
    m_database->setObjectName(QStringLiteral("serverDatabase"));
    m_password = new QLineEdit;
    m_password->setObjectName(QStringLiteral("serverPassword"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("from the environment (for this session only if typed)"));
    m_tls = new QCheckBox(tr("Require TLS (ssl-mode=REQUIRED)"));
    m_tls->setObjectName(QStringLiteral("serverTls"));
    m_caFile = new QLineEdit;
    m_caFile->setObjectName(QStringLiteral("serverCaFile"));
    m_caFile->setPlaceholderText(tr("CA file (none: the system's CA folder)"));
    auto *browseCa = new QPushButton(tr("CA file…"));
    connect(browseCa, &QPushButton::clicked, this, &ConnectDialog::chooseCaFile);
    m_tlsRow = new QWidget;
    auto *tlsLayout = new QHBoxLayout(m_tlsRow);
    tlsLayout->setContentsMargins(0, 0, 0, 0);
    tlsLayout->addWidget(m_tls);
    tlsLayout->addWidget(m_caFile, 1);
    tlsLayout->addWidget(browseCa);

    m_serverFields = new QWidget;
    auto *server = new QFormLayout(m_serverFields);
    server->setContentsMargins(0, 0, 0, 0);
    server->addRow(tr("Host"), m_host);
    server->addRow(tr("Port"), m_port);
    server->addRow(tr("User"), m_user);
    server->addRow(tr("Database"), m_database);
    server->addRow(tr("Password"), m_password);
    server->addRow(tr("TLS"), m_tlsRow);

    m_port->setValue(dialectOf(m_engine).defaultPort());
    showEngine(dialectOf(m_engine));
    connect(m_engine, &QComboBox::activated, this, &ConnectDialog::engineChosen);
    for (QLineEdit *edit : {m_host, m_user, m_database, m_caFile})
        connect(edit, &QLineEdit::textEdited, this, &ConnectDialog::fieldsEdited);
    connect(m_port, &QSpinBox::valueChanged, this, &ConnectDialog::fieldsEdited);
    connect(m_tls, &QCheckBox::toggled, this, &ConnectDialog::fieldsEdited);

    auto *fields = new QWidget;
    auto *layout = new QFormLayout(fields);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addRow(tr("Engine"), m_engine);
    layout->addRow(m_serverFields);
    return fields;
}

// A server engine shows its fields (TLS where its URLs take ssl- options) on its default port.
void ConnectDialog::engineChosen()
{
    const SqlDialect &dialect = dialectOf(m_engine);
    showEngine(dialect);
    if (dialect.can().fileDatabase)
        return;
    {
        const QSignalBlocker blocker(m_port);
        m_port->setValue(dialect.defaultPort());
    }
    fieldsEdited();
}

void ConnectDialog::fieldsEdited()
{
    const SqlDialect &dialect = dialectOf(m_engine);
    if (m_syncing || dialect.can().fileDatabase)
        return;
    QUrl built;
    built.setScheme(dialect.urlSchemes().constFirst());
    built.setHost(m_host->text().trimmed());
    built.setPort(m_port->value());
    if (!m_user->text().trimmed().isEmpty())
        built.setUserName(m_user->text().trimmed(), QUrl::DecodedMode);
    built.setPath(QStringLiteral("/") + m_database->text().trimmed(), QUrl::DecodedMode);
    if (m_tlsRow->isVisibleTo(this) && m_tls->isChecked()) {
        QString query = QStringLiteral("ssl-mode=REQUIRED");
        const QString ca = m_caFile->text().trimmed();
        if (!ca.isEmpty())
            query
                += QStringLiteral("&ssl-ca=") + QString::fromUtf8(QUrl::toPercentEncoding(ca, "/"));
        built.setQuery(query, QUrl::StrictMode);
    }
    m_syncing = true;
    m_url->setEditText(built.toString(QUrl::FullyEncoded));
    m_syncing = false;
}

// A URL that parses fills the fields (its password too, kept masked there).
void ConnectDialog::urlEdited(const QString &text)
{
    if (m_syncing)
        return;
    const DatabaseUrl parsed = DatabaseUrl::parse(text.trimmed(), nullptr);
    if (!parsed.isValid())
        return;
    m_syncing = true;
    m_engine->setCurrentIndex(m_engine->findData(int(parsed.engine())));
    if (!parsed.isFile()) {
        // A password typed for one server is never sent to another.
        if (parsed.host() != m_host->text() || parsed.port() != m_port->value()
            || parsed.user() != m_user->text() || parsed.databaseName() != m_database->text()
            || !parsed.password().isEmpty())
            m_password->setText(parsed.password());
        m_host->setText(parsed.host());
        m_port->setValue(parsed.port());
        m_user->setText(parsed.user());
        m_database->setText(parsed.databaseName());
        const QString mode = parsed.option(QStringLiteral("ssl-mode"));
        m_caFile->setText(parsed.option(QStringLiteral("ssl-ca")));
        m_tls->setChecked(mode.compare(QStringLiteral("REQUIRED"), Qt::CaseInsensitive) == 0
            || (mode.isEmpty() && !parsed.options().isEmpty()));
    }
    m_syncing = false;
    showEngine(SqlDialect::of(parsed.engine()));
}

void ConnectDialog::showEngine(const SqlDialect &dialect)
{
    m_serverFields->setEnabled(!dialect.can().fileDatabase);
    m_tlsRow->setVisible(dialect.urlOptions().contains(QStringLiteral("ssl-mode")));
}

void ConnectDialog::chooseCaFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("The server's CA certificate"),
        QString(), tr("Certificates (*.crt *.pem);;All files (*)"));
    if (path.isEmpty())
        return;
    m_caFile->setText(path);
    m_tls->setChecked(true);
    fieldsEdited();
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
    const QString text = m_url->currentText().trimmed();
    const QString password = m_password ? m_password->text() : QString();
    if (password.isEmpty())
        return text;
    const DatabaseUrl parsed = DatabaseUrl::parse(text, nullptr);
    if (!parsed.isValid() || parsed.isFile() || !parsed.password().isEmpty())
        return text;
    QUrl withPassword(text, QUrl::StrictMode);
    withPassword.setPassword(password, QUrl::DecodedMode);
    return withPassword.toString(QUrl::FullyEncoded);
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
    m_engine->setEnabled(!connecting);
    m_serverFields->setEnabled(!connecting && !dialectOf(m_engine).can().fileDatabase);
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
