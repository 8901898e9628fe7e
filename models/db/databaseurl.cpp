#include "databaseurl.h"

#include "sqldialect.h"

#include <QMutex>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <sys/stat.h>

namespace {

DatabaseUrl fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return {};
}

// What a URL may look like, file engines first: "sqlite:PATH or postgresql://HOST/DBNAME" as
// `forms`, "sqlite: or postgresql://" without.
QString expected(bool forms)
{
    QStringList files, servers;
    for (const SqlDialect *dialect : SqlDialect::all()) {
        const QString scheme = dialect->urlSchemes().constFirst();
        if (dialect->can().fileDatabase)
            files << scheme + (forms ? QStringLiteral(":PATH") : QStringLiteral(":"));
        else
            servers << scheme + (forms ? QStringLiteral("://HOST/DBNAME") : QStringLiteral("://"));
    }
    return (files + servers).join(QStringLiteral(" or "));
}

// ?KEY=VALUE&…: every key one the engine takes, once, with a value.
bool parseOptions(const SqlDialect &dialect, const QUrl &qurl,
    QList<std::pair<QString, QString>> *options, QString *error)
{
    const QString title = dialect.title();
    const QString known = dialect.urlOptions().join(QStringLiteral(", "));
    for (const QString &pair : qurl.query(QUrl::FullyDecoded).split(QLatin1Char('&'))) {
        const QString key = pair.section(QLatin1Char('='), 0, 0);
        const QString value = pair.section(QLatin1Char('='), 1);
        if (!dialect.urlOptions().contains(key)) {
            fail(error,
                QStringLiteral("%1 URL with unknown option '%2' (known: %3)")
                    .arg(title, key.left(40), known));
            return false;
        }
        if (value.isEmpty() || !pair.contains(QLatin1Char('='))) {
            fail(error, QStringLiteral("%1 URL option '%2' without a value").arg(title, key));
            return false;
        }
        for (const auto &[seen, unused] : std::as_const(*options)) {
            if (seen == key) {
                fail(error, QStringLiteral("%1 URL with option '%2' twice").arg(title, key));
                return false;
            }
        }
        options->append({key, value});
    }
    return true;
}

// The passwords of the URLs this process was given, each with its host and in each spelling a
// message may quote them (as typed, decoded, percent-encoded): maskPasswords() masks exactly
// these where a URL quotes one before its host, instead of guessing where a password ends.
// Bounded: a fleet file of many URLs, never more.
class KnownPasswords
{
public:
    static KnownPasswords &instance()
    {
        static KnownPasswords known;
        return known;
    }
    void remember(const QStringList &spellings, const QStringList &hosts)
    {
        const QMutexLocker lock(&m_mutex);
        for (const QString &spelling : spellings) {
            for (const QString &host : hosts) {
                const QString quoted = spelling + u'@' + host;
                if (spelling.isEmpty() || host.isEmpty()
                    || m_quoted.contains({quoted, spelling.size()}) || m_quoted.size() >= 4096)
                    continue;
                m_quoted.append({quoted, spelling.size()});
            }
        }
    }
    // The length of the known password that `text` quotes at `at` before its host; 0 if none.
    qsizetype lengthAt(const QString &text, qsizetype at) const
    {
        const QMutexLocker lock(&m_mutex);
        qsizetype longest = 0;
        for (const auto &[quoted, length] : m_quoted) {
            if (length > longest && QStringView(text).mid(at).startsWith(quoted))
                longest = length;
        }
        return longest;
    }

private:
    mutable QMutex m_mutex;
    QList<std::pair<QString, qsizetype>> m_quoted; // "PASSWORD@HOST", the password's length
};

// The password and the host as `text` (SCHEME://USER:PASSWORD@HOST…, valid) spells them.
std::pair<QString, QString> writtenPasswordAndHost(const QString &text)
{
    const qsizetype start = text.indexOf(QLatin1String("://")) + 3;
    qsizetype end = start;
    while (
        end < text.size() && text.at(end) != u'/' && text.at(end) != u'?' && text.at(end) != u'#')
        ++end;
    const qsizetype at = text.lastIndexOf(u'@', end - 1);
    if (at < start)
        return {};
    const QString userInfo = text.mid(start, at - start);
    const QString hostPort = text.mid(at + 1, end - at - 1);
    const qsizetype colon = userInfo.indexOf(u':');
    const QString host = hostPort.startsWith(u'[') ? hostPort.section(u']', 0, 0) + u']'
                                                   : hostPort.section(u':', 0, 0);
    return {colon < 0 ? QString() : userInfo.mid(colon + 1), host};
}

// Where a password with no known spelling ends: the last '@' before `end` that a host follows
// (a letter, a digit, or '[' of an IPv6 address), so that the password may hold '@' unencoded
// while a server's "user 'x'@'localhost'" later on the line is no host and stays whole.
qsizetype guessedPasswordEnd(const QString &text, qsizetype from, qsizetype end)
{
    for (qsizetype at = text.lastIndexOf(u'@', end - 1); at > from;
         at = text.lastIndexOf(u'@', at - 1)) {
        const QChar next = at + 1 < end ? text.at(at + 1) : QChar();
        if (next.isLetterOrNumber() || next == u'[')
            return at;
    }
    return -1;
}

} // namespace

void DatabaseUrl::setPassword(const QString &password)
{
    m_password = password;
    KnownPasswords::instance().remember(
        {password, QString::fromUtf8(QUrl::toPercentEncoding(password))}, {m_host});
}

QString DatabaseUrl::option(const QString &key) const
{
    for (const auto &[name, value] : m_options) {
        if (name == key)
            return value;
    }
    return {};
}

DatabaseUrl DatabaseUrl::parse(const QString &text, QString *error)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return fail(error, QStringLiteral("empty database URL (expected %1)").arg(expected(true)));
    const QString scheme = trimmed.section(QLatin1Char(':'), 0, 0);
    const SqlDialect *dialect = SqlDialect::ofUrlScheme(scheme);
    if (dialect && dialect->can().fileDatabase)
        return parseFile(*dialect, trimmed.mid(scheme.size() + 1), error);
    if (!dialect || !trimmed.mid(scheme.size()).startsWith(QLatin1String("://")))
        return fail(error,
            QStringLiteral("unsupported database URL scheme '%1' (expected %2)")
                .arg(scheme, expected(false)));
    return parseServer(*dialect, trimmed, error);
}

// SCHEME:PATH, or SCHEME:///PATH.
DatabaseUrl DatabaseUrl::parseFile(const SqlDialect &dialect, const QString &rest, QString *error)
{
    DatabaseUrl url;
    url.m_path = rest;
    if (url.m_path.startsWith(QLatin1String("//")))
        url.m_path = url.m_path.mid(2); // accept sqlite:///abs/path as well
    const QString scheme = dialect.urlSchemes().constFirst();
    if (url.m_path.isEmpty())
        return fail(
            error, QStringLiteral("%1 URL without a file path (expected %1:PATH)").arg(scheme));
    url.m_engine = dialect.engine();
    url.m_valid = true;
    return url;
}

// SCHEME://[USER[:PASSWORD]@]HOST[:PORT]/DBNAME
DatabaseUrl DatabaseUrl::parseServer(const SqlDialect &dialect, const QString &text, QString *error)
{
    const QString title = dialect.title();
    const QString scheme = dialect.urlSchemes().constFirst();
    const QUrl qurl(text, QUrl::StrictMode);
    if (!qurl.isValid())
        // QUrl's message goes on to quote the whole URL, password included: keep only its cause.
        return fail(error,
            QStringLiteral("malformed %1 URL: %2 (expected %3://[USER@]HOST[:PORT]/DBNAME)")
                .arg(title, qurl.errorString().section(QLatin1Char(';'), 0, 0), scheme));
    DatabaseUrl url;
    url.m_host = qurl.host();
    if (url.m_host.isEmpty())
        return fail(error,
            QStringLiteral("%1 URL without a host (expected %2://[USER@]HOST[:PORT]/DBNAME)")
                .arg(title, scheme));
    url.m_port = qurl.port(dialect.defaultPort());
    if (url.m_port <= 0 || url.m_port > 65535)
        return fail(error, QStringLiteral("%1 URL with an invalid port").arg(title));
    url.m_user = qurl.userName();
    url.m_password = qurl.password();
    if (!url.m_password.isEmpty()) {
        const auto [password, host] = writtenPasswordAndHost(text);
        KnownPasswords::instance().remember(
            {url.m_password, password, qurl.password(QUrl::FullyEncoded),
                QString::fromUtf8(QUrl::toPercentEncoding(url.m_password))},
            {host, qurl.host(), qurl.host(QUrl::FullyEncoded)});
    }
    url.m_database = qurl.path().mid(1);
    if (url.m_database.isEmpty() || url.m_database.contains(QLatin1Char('/')))
        return fail(error,
            QStringLiteral("%1 URL without a database name (expected %2://HOST[:PORT]/DBNAME)")
                .arg(title, scheme));
    if (qurl.hasFragment() || (qurl.hasQuery() && dialect.urlOptions().isEmpty()))
        return fail(error, QStringLiteral("%1 URL with unsupported query or fragment").arg(title));
    if (qurl.hasQuery() && !parseOptions(dialect, qurl, &url.m_options, error))
        return {};
    url.m_engine = dialect.engine();
    url.m_valid = true;
    return url;
}

QString DatabaseUrl::maskPasswords(const QString &text)
{
    // A password this process was given is masked exactly, in whichever spelling the URL
    // quotes it before its host. Any other runs to the last '@' before the next URL on the line
    // that a host follows: a careless one may hold '@', ':', '/', a quote or a space unencoded, and
    // showing its tail would be as bad as showing all of it. Only a HOST:PORT/DBNAME word without
    // any
    // '@' is known not to hold a password. A scan, not one regular expression: a backtracking
    // match over a long text (a 100 KB server notice) hits the engine's limits and silently
    // matches nothing, which would show the password.
    static const QRegularExpression scheme(QStringLiteral("[A-Za-z][A-Za-z0-9+.-]*://"));
    static const QRegularExpression portForm(QStringLiteral("\\d+/[^\\s@]*(?:\\s|\\z)"));
    static const QString mask = QStringLiteral("***");
    QList<QRegularExpressionMatch> urls;
    for (auto it = scheme.globalMatch(text); it.hasNext();)
        urls << it.next();
    QString masked;
    qsizetype copied = 0;
    for (qsizetype k = 0; k < urls.size(); ++k) {
        qsizetype at = urls.at(k).capturedEnd();
        if (at < copied)
            continue; // inside a password already masked
        while (at < text.size() && !text.at(at).isSpace() && text.at(at) != u'/'
            && text.at(at) != u':' && text.at(at) != u'@')
            ++at;
        if (at >= text.size() || text.at(at) != u':'
            || QStringView(text).mid(at + 1).startsWith(QLatin1String("***@"))
            || portForm
                   .match(text, at + 1, QRegularExpression::NormalMatch,
                       QRegularExpression::AnchorAtOffsetMatchOption)
                   .hasMatch())
            continue;
        qsizetype passwordEnd = at + 1 + KnownPasswords::instance().lengthAt(text, at + 1);
        if (passwordEnd == at + 1) {
            qsizetype end = k + 1 < urls.size() ? urls.at(k + 1).capturedStart() : text.size();
            const qsizetype newline = text.indexOf(u'\n', at);
            if (newline >= 0 && newline < end)
                end = newline;
            passwordEnd = guessedPasswordEnd(text, at, end);
            if (passwordEnd < 0)
                continue;
        }
        masked += QStringView(text).mid(copied, at + 1 - copied) + mask;
        copied = passwordEnd;
    }
    return copied == 0 ? text : masked + QStringView(text).mid(copied);
}

QString DatabaseUrl::exposedPasswordReason(const QString &path, const BoundedFile::Status &status,
    const QString &text, const QString &what)
{
    if ((status.permissions & (S_IRWXG | S_IRWXO)) == 0 || maskPasswords(text) == text)
        return {};
    return QStringLiteral("%1 %2 holds a password and has group or world access; permissions "
                          "should be u=rw (0600) or less (libpq refuses such a ~/.pgpass too)")
        .arg(what, path);
}

QString DatabaseUrl::toStorableString() const
{
    DatabaseUrl withoutPassword = *this;
    withoutPassword.m_password.clear();
    return withoutPassword.toDisplayString();
}

QString DatabaseUrl::toDisplayString() const
{
    if (!m_valid)
        return QStringLiteral("(invalid)");
    const QString scheme = SqlDialect::of(m_engine).urlSchemes().constFirst();
    if (isFile())
        return scheme + QLatin1Char(':') + m_path;
    QString auth;
    if (!m_user.isEmpty())
        auth = m_user + (m_password.isEmpty() ? QString() : QStringLiteral(":***"))
            + QLatin1Char('@');
    const QString port = m_port == SqlDialect::of(m_engine).defaultPort()
        ? QString()
        : QStringLiteral(":%1").arg(m_port);
    QStringList options;
    for (const auto &[key, value] : m_options) // percent-encoded, so that it parses again
        options << key + QLatin1Char('=')
                + QString::fromUtf8(QUrl::toPercentEncoding(value, QByteArrayLiteral("/:")));
    const QString query
        = options.isEmpty() ? QString() : QLatin1Char('?') + options.join(QLatin1Char('&'));
    return scheme + QStringLiteral("://") + auth + m_host + port + QLatin1Char('/') + m_database
        + query;
}
