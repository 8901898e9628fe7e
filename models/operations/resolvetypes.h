// What an operator asks for when resolving parked (DEAD) events without delivering them, and
// what happened: the values passed between outboxctl resolve (and later the window) and the
// Resolver.
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

struct ResolveRequest
{
    QStringList eventIds; // resolved in this order; a repeated ID counts once
    QString operatorName; // who closes the events (required, recorded in resolve_log)
    QString reason; // why they need no delivery (required, recorded in resolve_log)
    qint64 now = 0;
};

struct ResolveResult
{
    QStringList resolved; // DEAD → RESOLVED, each with its resolve_log row
    QStringList skipped; // not DEAD (any more) or not found: nothing written for them
    QString error; // set when the request was refused or the database failed
};
Q_DECLARE_METATYPE(ResolveResult)
