#include "connectionenvironment.h"

#include "databaseurl.h"

#include <QCoreApplication>
#include <QSettings>
#include <QVariantMap>

namespace {

const char EnvironmentsKey[] = "connections/environments";

QString keyOf(const QString &urlText)
{
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(urlText, &error);
    return url.isValid() ? url.toStorableString() : QString();
}

} // namespace

ConnectionEnvironment ConnectionEnvironment::forUrl(const QString &urlText)
{
    const QString key = keyOf(urlText);
    if (key.isEmpty())
        return {};
    const QVariantMap all = QSettings().value(QLatin1String(EnvironmentsKey)).toMap();
    const QVariantMap entry = all.value(key).toMap();
    return {entry.value(QStringLiteral("name")).toString(),
        QColor(entry.value(QStringLiteral("colour")).toString())};
}

void ConnectionEnvironment::remember(const QString &urlText, const ConnectionEnvironment &env)
{
    const QString key = keyOf(urlText);
    if (key.isEmpty())
        return;
    QSettings settings;
    QVariantMap all = settings.value(QLatin1String(EnvironmentsKey)).toMap();
    if (env.isEmpty())
        all.remove(key);
    else
        all.insert(key,
            QVariantMap {{QStringLiteral("name"), env.name.trimmed()},
                {QStringLiteral("colour"), env.colour.name()}});
    settings.setValue(QLatin1String(EnvironmentsKey), all);
}

QList<std::pair<QString, QColor>> ConnectionEnvironment::colours()
{
    const auto tr = [](const char *text) {
        return QCoreApplication::translate("ConnectionEnvironment", text);
    };
    return {{tr("Red"), QColor(0xcf, 0x22, 0x2e)}, {tr("Orange"), QColor(0xd1, 0x5b, 0x04)},
        {tr("Yellow"), QColor(0xd4, 0xa7, 0x2c)}, {tr("Green"), QColor(0x1a, 0x7f, 0x37)},
        {tr("Blue"), QColor(0x09, 0x69, 0xda)}, {tr("Purple"), QColor(0x82, 0x50, 0xdf)},
        {tr("Grey"), QColor(0x6e, 0x77, 0x81)}};
}

QList<ConnectionEnvironment> ConnectionEnvironment::presets()
{
    const QList<std::pair<QString, QColor>> c = colours();
    return {{QStringLiteral("PRODUCTION"), c.at(0).second},
        {QStringLiteral("STAGING"), c.at(1).second}, {QStringLiteral("TEST"), c.at(3).second},
        {QStringLiteral("DEVELOPMENT"), c.at(4).second}};
}
