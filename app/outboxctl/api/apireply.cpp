#include "apireply.h"

#include "databaseurl.h"

#include <QJsonDocument>

namespace ApiReply {

HttpResponse json(int status, const QJsonObject &body)
{
    HttpResponse response;
    response.status = status;
    response.contentType = "application/json";
    response.body = QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n';
    return response;
}

// One line, its passwords masked (a database error may quote a URL).
HttpResponse error(int status, const QString &line)
{
    QString text = DatabaseUrl::maskPasswords(line);
    text.replace(u'\n', u' ');
    return json(status, QJsonObject {{u"error"_qs, text}});
}

HttpResponse unauthorized(const QString &line)
{
    HttpResponse response = error(401, line);
    response.headers.append(std::pair<QByteArray, QByteArray>("WWW-Authenticate", "Basic"));
    return response;
}

HttpResponse wrongMethod(const QByteArray &allowed)
{
    HttpResponse response
        = error(405, QStringLiteral("this path takes %1 only").arg(QString::fromLatin1(allowed)));
    response.headers.append(std::pair<QByteArray, QByteArray>(
        "Allow", allowed == "GET" ? QByteArray("GET, HEAD") : allowed));
    return response;
}

QJsonObject parsed(const QString &jsonText)
{
    return QJsonDocument::fromJson(jsonText.toUtf8()).object();
}

} // namespace ApiReply
