#include "httpheadparser.h"

#include <QList>

namespace {

using Result = HttpHeadParser::Result;

Result bad(int status, const char *reason)
{
    return Result {status, QByteArray(reason)};
}

// RFC 9110 5.6.2: tchar.
bool isToken(const QByteArray &text)
{
    static const QByteArray punctuation("!#$%&'*+-.^_`|~");
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        const bool alnum
            = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alnum && !punctuation.contains(c))
            return false;
    }
    return true;
}

// No control characters (a tab is allowed in a header value, not in a target) and no DEL.
bool isPrintable(const QByteArray &text, bool tabAllowed)
{
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && !(tabAllowed && c == '\t')) || u == 0x7f)
            return false;
    }
    return true;
}

bool isDigits(const QByteArray &text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

} // namespace

qsizetype HttpHeadParser::headLength(const QByteArray &buffer)
{
    qsizetype lineStart = 0;
    for (qsizetype newline = buffer.indexOf('\n'); newline >= 0;
         newline = buffer.indexOf('\n', lineStart)) {
        const qsizetype length = newline - lineStart;
        const bool empty = length == 0 || (length == 1 && buffer.at(lineStart) == '\r');
        if (empty && lineStart > 0)
            return newline + 1;
        lineStart = newline + 1;
    }
    return -1;
}

void HttpHeadParser::skipBlankLines(QByteArray *buffer)
{
    qsizetype start = 0;
    while (start < buffer->size()) {
        if (buffer->at(start) == '\n')
            ++start;
        else if (buffer->at(start) == '\r' && start + 1 < buffer->size()
            && buffer->at(start + 1) == '\n')
            start += 2;
        else
            break;
    }
    buffer->remove(0, start);
}

Result HttpHeadParser::parse(const QByteArray &head, int maxHeaders, HttpRequest *request)
{
    QList<QByteArray> lines = head.split('\n');
    lines.removeLast(); // after the last newline
    lines.removeLast(); // the blank line
    for (QByteArray &line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
    }
    Result result = parseRequestLine(lines.constFirst(), request);
    if (lines.size() - 1 > maxHeaders)
        return bad(431, "too many request headers");
    for (qsizetype i = 1; result.status == 0 && i < lines.size(); ++i)
        result = parseHeaderLine(lines.at(i), request);
    return result.status == 0 ? checkFraming(*request) : result;
}

Result HttpHeadParser::parseRequestLine(const QByteArray &line, HttpRequest *request)
{
    const QList<QByteArray> parts = line.split(' ');
    if (parts.size() != 3 || !isToken(parts.at(0)) || !parts.at(1).startsWith('/')
        || !isPrintable(parts.at(1), false))
        return bad(400, "malformed request line");
    const QByteArray &version = parts.at(2);
    if (version.size() != 8 || !version.startsWith("HTTP/") || version.at(6) != '.'
        || !isDigits(version.mid(5, 1)) || !isDigits(version.mid(7, 1)))
        return bad(400, "malformed request line");
    if (version.at(5) != '1')
        return bad(505, "only HTTP/1.0 and HTTP/1.1 are served");
    request->method = parts.at(0);
    const QByteArray &target = parts.at(1);
    const qsizetype question = target.indexOf('?');
    request->path = question < 0 ? target : target.left(question);
    request->query = question < 0 ? QByteArray() : target.mid(question + 1);
    request->minorVersion = version.at(7) - '0';
    return {};
}

Result HttpHeadParser::parseHeaderLine(const QByteArray &line, HttpRequest *request)
{
    const qsizetype colon = line.indexOf(':');
    const QByteArray name = line.left(colon);
    if (colon <= 0 || !isToken(name)) // also a folded line, which starts with a space
        return bad(400, "malformed request header");
    const QByteArray value = line.mid(colon + 1).trimmed();
    if (!isPrintable(value, true))
        return bad(400, "malformed request header");
    request->headers.append({name.toLower(), value});
    return {};
}

// No request body is read: one announced is refused (and the connection closed, so its bytes
// are never taken for a request); lengths that disagree are refused as RFC 9112 6.3 says.
Result HttpHeadParser::checkFraming(const HttpRequest &request)
{
    QByteArray length;
    for (const auto &[name, value] : request.headers) {
        if (name == "transfer-encoding")
            return bad(413, "request bodies are not accepted");
        if (name != "content-length")
            continue;
        for (const QByteArray &item : value.split(',')) {
            const QByteArray trimmed = item.trimmed();
            if (!isDigits(trimmed) || (!length.isEmpty() && trimmed != length))
                return bad(400, "invalid or conflicting Content-Length");
            length = trimmed;
        }
    }
    const bool empty = length.isEmpty() || length.count('0') == length.size();
    return empty ? Result {} : bad(413, "request bodies are not accepted");
}
