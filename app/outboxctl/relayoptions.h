// The options of `outboxctl relay`, parsed and checked before anything is opened.
#pragma once

#include "relayconfig.h"

#include <QCommandLineParser>

struct RelayOptions
{
    QString db;
    RelayConfig config;
    int produce = 0;
    double rate = 0; // events per second while --duration lasts
    qint64 durationMs = 0;
    bool untilDrained = false;
    // A run whose database stays unreachable this long ends with exit 2; 0 = never give up.
    qint64 giveUpAfterMs = 60000;

    static void addTo(QCommandLineParser &parser);
    bool read(const QCommandLineParser &parser, QString *error);
};
