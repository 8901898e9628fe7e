// `outboxctl serve --api.rights FILE`: who may do what through the operator API. YAML, one
// mapping per user of the web config's basic_auth_users, each an outbox name (or "*", every
// outbox) with the list of its rights:
//   alice:
//     "*": [read]
//     orders: [read, replay, resolve]
// A user's rights on an outbox are those of "*" and those of its name together; a user or an
// outbox not named has none. Read strictly (an unknown right, a key given twice, a list that is
// not one is an error naming its line) through BoundedFile (a regular file of at most
// MaxFileBytes: no FIFO, no device). No database here.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <optional>

class ApiRights
{
public:
    enum class Right { Read = 1, Replay = 2, Edit = 4, Resolve = 8, Note = 16 };
    static constexpr qint64 MaxFileBytes = 256 * 1024;

    static std::optional<ApiRights> read(const QString &path, QString *error);
    static std::optional<ApiRights> parse(const QByteArray &yaml, QString *error);

    bool allows(const QString &user, const QString &outbox, Right right) const;
    // "read", "replay", ...: the file's words.
    static QString name(Right right);
    static QStringList names();
    QStringList users() const { return m_rights.keys(); }

private:
    // user -> outbox (or "*") -> the rights' bits
    QHash<QString, QHash<QString, int>> m_rights;
};
