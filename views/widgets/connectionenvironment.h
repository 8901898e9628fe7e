// The environment a connection belongs to, e.g. PRODUCTION in red: a name and a colour the
// operator gives a database in the Connect dialog, shown in the window title, the status bar
// and a badge by the tiles so that a production outbox is never mistaken for a test one.
// Kept in QSettings with the recent connections, keyed by the URL without its password.
#pragma once

#include <QColor>
#include <QList>
#include <QString>

struct ConnectionEnvironment
{
    QString name; // empty: none
    QColor colour;

    bool isEmpty() const { return name.trimmed().isEmpty(); }
    bool operator==(const ConnectionEnvironment &other) const = default;

    // The environment remembered for a database URL (password or not), none if unknown.
    static ConnectionEnvironment forUrl(const QString &urlText);
    // Remembers (or, empty, forgets) the environment of a database URL; the key is the URL
    // without its password, and nothing else of the URL is stored.
    static void remember(const QString &urlText, const ConnectionEnvironment &environment);
    // The names offered, each with its usual colour (PRODUCTION red, ...).
    static QList<ConnectionEnvironment> presets();
    // The colours offered, named.
    static QList<std::pair<QString, QColor>> colours();
};
