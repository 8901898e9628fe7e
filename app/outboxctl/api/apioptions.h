// serve's options for the operator API (--api, --api.rights, --api.allow-plain-http-writes)
// and the OperatorApi they make: refused with one line when --api lacks a web config with
// users or a rights file, when the rights file is bad, or when the others come without --api.
#pragma once

#include "operatorapi.h"

#include <QCommandLineParser>
#include <memory>

class WebGate;

namespace ApiOptions {

void add(QCommandLineParser &parser);
// Nothing without --api, or with *error set when the options are wrong.
std::unique_ptr<OperatorApi> open(const QCommandLineParser &parser, const WebGate *gate,
    const QList<FleetEntry> &entries, std::function<QJsonArray(const QStringList &names)> health,
    QString *error);

} // namespace ApiOptions
