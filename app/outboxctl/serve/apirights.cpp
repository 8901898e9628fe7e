#include "apirights.h"

#include "boundedfile.h"

#include <QSet>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

namespace {

using Right = ApiRights::Right;
constexpr Right AllRights[]
    = {Right::Read, Right::Replay, Right::Edit, Right::Resolve, Right::Note};

// A problem in the file, thrown while reading it and caught once in ApiRights::parse.
class RightsProblem : public std::runtime_error
{
public:
    RightsProblem(const YAML::Mark &mark, const QString &text)
        : std::runtime_error("rights file")
        , message(
              mark.line >= 0 ? QStringLiteral("line %1: %2").arg(mark.line + 1).arg(text) : text)
    { }
    QString message;
};

QString text(const YAML::Node &node)
{
    if (!node.IsScalar())
        throw RightsProblem(node.Mark(), u"expected a name, not a list or a mapping"_qs);
    return QString::fromStdString(node.as<std::string>());
}

int rightsOf(const YAML::Node &list, const QString &where)
{
    if (!list.IsSequence())
        throw RightsProblem(list.Mark(),
            QStringLiteral("%1 must be a list of rights (%2)")
                .arg(where, ApiRights::names().join(u", "_qs)));
    int bits = 0;
    for (const YAML::Node &item : list) {
        const QString word = text(item);
        const qsizetype index = ApiRights::names().indexOf(word);
        if (index < 0)
            throw RightsProblem(item.Mark(),
                QStringLiteral("unknown right '%1' in %2 (known: %3)")
                    .arg(word, where, ApiRights::names().join(u", "_qs)));
        bits |= int(AllRights[index]);
    }
    return bits;
}

QHash<QString, int> outboxesOf(const YAML::Node &map, const QString &user)
{
    if (!map.IsMap())
        throw RightsProblem(map.Mark(),
            QStringLiteral("%1 must map outbox names (or \"*\") to lists of rights").arg(user));
    QHash<QString, int> outboxes;
    for (const auto &entry : map) {
        const QString outbox = text(entry.first);
        if (outboxes.contains(outbox))
            throw RightsProblem(entry.first.Mark(),
                QStringLiteral("outbox %1 is given twice for %2").arg(outbox, user));
        outboxes.insert(outbox, rightsOf(entry.second, user + u" › "_qs + outbox));
    }
    return outboxes;
}

} // namespace

std::optional<ApiRights> ApiRights::parse(const QByteArray &yaml, QString *error)
{
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        ApiRights rights;
        if (!root.IsDefined() || root.IsNull())
            return rights; // nobody may do anything
        if (!root.IsMap())
            throw RightsProblem(root.Mark(), u"must map user names to their outboxes' rights"_qs);
        for (const auto &entry : root) {
            const QString user = text(entry.first);
            if (rights.m_rights.contains(user))
                throw RightsProblem(
                    entry.first.Mark(), QStringLiteral("%1 is given twice").arg(user));
            rights.m_rights.insert(user, outboxesOf(entry.second, user));
        }
        return rights;
    } catch (const RightsProblem &problem) {
        *error = problem.message;
    } catch (const YAML::Exception &exception) {
        *error = RightsProblem(exception.mark, QString::fromStdString(exception.msg)).message;
    }
    return std::nullopt;
}

std::optional<ApiRights> ApiRights::read(const QString &path, QString *error)
{
    const auto yaml = BoundedFile::read(path, MaxFileBytes, u"rights file"_qs, error);
    if (!yaml)
        return std::nullopt;
    auto rights = parse(*yaml, error);
    if (!rights)
        *error = QStringLiteral("rights file %1: %2").arg(path, *error);
    return rights;
}

bool ApiRights::allows(const QString &user, const QString &outbox, Right right) const
{
    const auto found = m_rights.constFind(user);
    if (found == m_rights.cend())
        return false;
    const int bits = found->value(u"*"_qs) | found->value(outbox);
    return (bits & int(right)) != 0;
}

QString ApiRights::name(Right right)
{
    switch (right) {
    case Right::Read:
        return u"read"_qs;
    case Right::Replay:
        return u"replay"_qs;
    case Right::Edit:
        return u"edit"_qs;
    case Right::Resolve:
        return u"resolve"_qs;
    case Right::Note:
        return u"note"_qs;
    }
    return {};
}

QStringList ApiRights::names()
{
    QStringList list;
    for (const Right right : AllRights)
        list << name(right);
    return list;
}
