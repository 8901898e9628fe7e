// The operator API's answers: JSON bodies, and errors as {"error":"one line"} with the status
// that says what went wrong (400 bad input, 401, 403, 404, 409 refused by the outbox, 503).
#pragma once

#include "httpserver.h"

#include <QJsonObject>
#include <QString>

namespace ApiReply {

HttpResponse json(int status, const QJsonObject &body);
HttpResponse error(int status, const QString &line);
// 401 with WWW-Authenticate: Basic, as serve's other pages answer.
HttpResponse unauthorized(const QString &line);
// 405 naming the one method the path takes.
HttpResponse wrongMethod(const QByteArray &allowed);
// A JSON text that the CLI's OperatorCommand wrote (its --json), as an object.
QJsonObject parsed(const QString &jsonText);

} // namespace ApiReply
