// Reads one HTTP/1.x request head (request line and headers, up to the blank line) into an
// HttpRequest, strictly: what serve does not need (a body where none is allowed, a chunked
// one, obsolete line folding, a target
// that is not a path) is refused rather than guessed at, so two readers of the same bytes
// cannot disagree about where a request ends. An HTTP/1.1 request must carry one Host header
// of the form host[:port] (RFC 9112 3.2); any well-formed host name is accepted.
#pragma once

#include "httpserver.h"

#include <QByteArray>

class HttpHeadParser
{
public:
    // The outcome of parse(): status 0 when the head is good, else the status to answer with
    // (400, 413, 431, 505) and a one-line reason for the body.
    struct Result
    {
        int status = 0;
        QByteArray reason;
        qsizetype bodyLength = 0; // the Content-Length of a good head
    };

    // The length of the head at the start of buffer, blank line included; -1 while incomplete.
    // Leading blank lines are to be dropped first (skipBlankLines).
    static qsizetype headLength(const QByteArray &buffer);
    // Drops the empty lines a client may send before a request line (RFC 9112 2.2).
    static void skipBlankLines(QByteArray *buffer);
    // maxBodyBytes: the largest Content-Length accepted (0: none; over it 413).
    static Result parse(
        const QByteArray &head, int maxHeaders, HttpRequest *request, qsizetype maxBodyBytes = 0);

private:
    static Result parseRequestLine(const QByteArray &line, HttpRequest *request);
    static Result parseHeaderLine(const QByteArray &line, HttpRequest *request);
    static Result checkFraming(const HttpRequest &request, qsizetype maxBodyBytes);
    static Result checkHost(const HttpRequest &request);
};
