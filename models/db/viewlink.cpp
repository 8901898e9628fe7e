#include "viewlink.h"

#include "databaseurl.h"

#include <QHash>
#include <QRegularExpression>
#include <QStringDecoder>
#include <QUrl>

namespace {

const QString Scheme = QStringLiteral("outbox-health");
const QString Verb = QStringLiteral("open");

// One key of a link: a text or a true/false flag of ViewLink, and the option it stands for.
struct Key
{
    QString name;
    QString ViewLink::*text = nullptr;
    bool ViewLink::*flag = nullptr;
    QString option;
};

const QList<Key> &keys()
{
    static const QList<Key> list = {
        {QStringLiteral("db"), &ViewLink::db, nullptr, QStringLiteral("--db")},
        {QStringLiteral("demo"), nullptr, &ViewLink::demo, QStringLiteral("--demo")},
        {QStringLiteral("profile"), &ViewLink::profile, nullptr, QStringLiteral("--profile")},
        {QStringLiteral("read-only"), nullptr, &ViewLink::readOnly, QStringLiteral("--read-only")},
        {QStringLiteral("search"), &ViewLink::search, nullptr, QStringLiteral("--search")},
        {QStringLiteral("search-mode"), &ViewLink::searchMode, nullptr,
            QStringLiteral("--search-mode")},
        {QStringLiteral("state"), &ViewLink::state, nullptr, QStringLiteral("--state")},
        {QStringLiteral("sort"), &ViewLink::sort, nullptr, QStringLiteral("--sort")},
        {QStringLiteral("tab"), &ViewLink::tab, nullptr, QStringLiteral("--tab")},
        {QStringLiteral("event"), &ViewLink::event, nullptr, QStringLiteral("--select")},
        {QStringLiteral("cdc-slot"), &ViewLink::cdcSlot, nullptr, QStringLiteral("--cdc-slot")}};
    return list;
}

const Key *keyNamed(const QString &name)
{
    const QString wanted = name == QLatin1String("select") ? QStringLiteral("event") : name;
    for (const Key &key : keys()) {
        if (key.name == wanted)
            return &key;
    }
    return nullptr;
}

QStringList keyNames()
{
    QStringList names;
    for (const Key &key : keys())
        names << key.name;
    return names;
}

// A key is named in a message only when it is short and plain: a link is text from anywhere.
QString shown(const std::optional<QString> &key)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_-]{1,32}$"));
    return key && plain.match(*key).hasMatch() ? QStringLiteral(" \"%1\"").arg(*key) : QString();
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// %XX and + (a space) decoded, strictly: a stray %, bytes that are not UTF-8 or a control
// character (a line break would forge a line of output) make it none.
std::optional<QString> decoded(const QString &part)
{
    const QByteArray in = part.toUtf8();
    QByteArray out;
    out.reserve(in.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        if (in.at(i) == '+') {
            out += ' ';
        } else if (in.at(i) != '%') {
            out += in.at(i);
        } else if (i + 2 < in.size() && hexDigit(in.at(i + 1)) >= 0
            && hexDigit(in.at(i + 2)) >= 0) {
            out += char(hexDigit(in.at(i + 1)) * 16 + hexDigit(in.at(i + 2)));
            i += 2;
        } else {
            return std::nullopt;
        }
    }
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = utf8(out);
    if (utf8.hasError())
        return std::nullopt;
    for (const QChar c : text) {
        if (c.category() == QChar::Other_Control)
            return std::nullopt;
    }
    return text;
}

bool holdsPassword(const Key &key, const QString &value)
{
    if (DatabaseUrl::maskPasswords(value) != value)
        return true;
    return key.text == &ViewLink::db && !DatabaseUrl::parse(value, nullptr).password().isEmpty();
}

// Sets `key` of `link` from the link's text; false with *error.
bool setKey(ViewLink &link, const QString &rawKey, const QString &rawValue, bool hasValue,
    QList<const Key *> &seen, QString *error)
{
    const std::optional<QString> name = decoded(rawKey);
    const Key *key = name ? keyNamed(*name) : nullptr;
    if (!key) {
        *error = QStringLiteral("unknown key%1 in the link (keys: %2)")
                     .arg(shown(name), keyNames().join(QStringLiteral(", ")));
        return false;
    }
    if (seen.contains(key)) {
        *error = QStringLiteral("\"%1\" is given twice in the link").arg(key->name);
        return false;
    }
    seen << key;
    const std::optional<QString> value = decoded(rawValue);
    if (!value) {
        *error = QStringLiteral("the link's \"%1\" is not percent-encoded UTF-8 text (a control "
                                "character, a stray %, bytes that are not UTF-8)")
                     .arg(key->name);
        return false;
    }
    if (!hasValue || value->trimmed().isEmpty()) {
        *error = QStringLiteral("the link's \"%1\" has no value").arg(key->name);
        return false;
    }
    if (holdsPassword(*key, *value)) {
        *error = QStringLiteral("the link's \"%1\" holds a password: a link never carries one "
                                "(use ~/.pgpass or PGPASSWORD)")
                     .arg(key->name);
        return false;
    }
    if (key->text) {
        link.*(key->text) = *value;
        return true;
    }
    if (*value != QLatin1String("true") && *value != QLatin1String("false")) {
        *error = QStringLiteral("the link's \"%1\" is true or false").arg(key->name);
        return false;
    }
    link.*(key->flag) = *value == QLatin1String("true");
    return true;
}

// `outbox-health:open?QUERY`: the query, or none with *error.
std::optional<QString> queryOf(const QString &text, QString *error)
{
    static const QRegularExpression scheme(QStringLiteral("^([A-Za-z][A-Za-z0-9+.-]{0,31}):"));
    const QRegularExpressionMatch match = scheme.match(text);
    if (!match.hasMatch()) {
        *error = QStringLiteral("not a link: outbox-dashboard takes options (see --help) or one "
                                "link, outbox-health:open?KEY=VALUE&…");
        return std::nullopt;
    }
    if (match.captured(1).compare(Scheme, Qt::CaseInsensitive) != 0) {
        *error = QStringLiteral("not an outbox-health: link (its scheme is %1:)")
                     .arg(match.captured(1));
        return std::nullopt;
    }
    const QString rest = text.mid(match.capturedEnd());
    if (rest.contains(QLatin1Char('#'))) {
        *error = QStringLiteral("the link holds a # (in a value, write it %23)");
        return std::nullopt;
    }
    // Some programs hand the link on as outbox-health://open?…
    const QString verb = rest.section(QLatin1Char('?'), 0, 0);
    if (verb != Verb && verb != QStringLiteral("//") + Verb) {
        *error = QStringLiteral("the link does not say open: outbox-health:open?KEY=VALUE&…");
        return std::nullopt;
    }
    return rest.section(QLatin1Char('?'), 1);
}

} // namespace

std::optional<ViewLink> ViewLink::fromUrl(const QString &text, QString *error)
{
    if (text.size() > MaxLength) {
        *error = QStringLiteral("the link is longer than %1 characters (%2)")
                     .arg(MaxLength)
                     .arg(text.size());
        return std::nullopt;
    }
    const std::optional<QString> query = queryOf(text, error);
    if (!query)
        return std::nullopt;
    ViewLink link;
    QList<const Key *> seen;
    for (const QString &part : query->split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const qsizetype equals = part.indexOf(QLatin1Char('='));
        if (!setKey(link, part.left(equals), equals < 0 ? QString() : part.mid(equals + 1),
                equals >= 0, seen, error))
            return std::nullopt;
    }
    return link;
}

QString ViewLink::toUrl() const
{
    QStringList parts;
    for (const Key &key : keys()) {
        QString value;
        if (key.text && key.text == &ViewLink::db && !db.isEmpty()) {
            // Never a password, even when handed one.
            const DatabaseUrl url = DatabaseUrl::parse(db, nullptr);
            value = url.isValid() ? url.toStorableString() : DatabaseUrl::maskPasswords(db);
        } else if (key.text) {
            value = this->*(key.text);
        } else if (this->*(key.flag)) {
            value = QStringLiteral("true");
        }
        if (!value.isEmpty())
            parts << key.name + QLatin1Char('=')
                    + QString::fromLatin1(QUrl::toPercentEncoding(value, ":/@"));
    }
    const QString link = Scheme + QLatin1Char(':') + Verb;
    return parts.isEmpty() ? link : link + QLatin1Char('?') + parts.join(QLatin1Char('&'));
}

QStringList ViewLink::toArguments() const
{
    QStringList arguments;
    for (const Key &key : keys()) {
        if (key.text && !(this->*(key.text)).isEmpty())
            arguments << key.option << this->*(key.text);
        else if (key.flag && this->*(key.flag))
            arguments << key.option;
    }
    return arguments;
}
