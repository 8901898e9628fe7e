// The options of `outboxctl relay`, parsed and checked before anything is opened.
#pragma once

#include "relayconfig.h"

#include <QCommandLineParser>

struct RelayOptions
{
    QString db;
    RelayConfig config;
    int produce = 0;
    double rate = 0; // events per second while --duration-ms lasts
    qint64 durationMs = 0;
    bool untilDrained = false;

    static void addTo(QCommandLineParser &parser);
    bool read(const QCommandLineParser &parser, QString *error);
};
