#include "httpheadparser.h"

#include <QHostAddress>
#include <QList>
#include <algorithm>

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

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// RFC 3986 3.2.2 reg-name, not empty: unreserved, sub-delims and percent-encoded octets. An
// IPv4 address is one too.
bool isRegName(const QByteArray &text)
{
    static const QByteArray allowed("-._~!$&'()*+,;=");
    if (text.isEmpty())
        return false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        const bool alnum
            = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (c == '%') {
            if (i + 2 >= text.size() || !isHexDigit(text.at(i + 1)) || !isHexDigit(text.at(i + 2)))
                return false;
            i += 2;
        } else if (!alnum && !allowed.contains(c)) {
            return false;
        }
    }
    return true;
}

// A port after the colon: 1 to 5 digits, at most 65535.
bool isPort(const QByteArray &text)
{
    return isDigits(text) && text.size() <= 5 && text.toInt() <= 65535;
}

// An IPv6 address, perhaps with a zone (RFC 6874: "fe80::1%25eth0"; Go clients send the
// zone unescaped).
bool isIpv6Literal(const QByteArray &text)
{
    const qsizetype percent = text.indexOf('%');
    const QByteArray address = percent < 0 ? text : text.left(percent);
    const QByteArray zone = percent < 0 ? QByteArray() : text.mid(percent + 1);
    static const QByteArray addressChars("0123456789abcdefABCDEF:.");
    const auto onlyAddressChars = std::all_of(
        address.begin(), address.end(), [](char c) { return addressChars.contains(c); });
    QHostAddress parsed;
    return onlyAddressChars && parsed.setAddress(QString::fromLatin1(address))
        && parsed.protocol() == QAbstractSocket::IPv6Protocol
        && (percent < 0 || (isRegName(zone) && !zone.contains('%')));
}

// RFC 9110 7.2: uri-host [ ":" port ], the host a name, an IPv4 address or an IPv6 one in
// brackets. Userinfo ('@'), spaces, control characters and an empty host are not one.
bool isHostValue(const QByteArray &value)
{
    QByteArray host = value;
    QByteArray port;
    bool hasPort = false;
    if (value.startsWith('[')) {
        const qsizetype close = value.indexOf(']');
        if (close < 0)
            return false;
        host = value.mid(1, close - 1);
        const QByteArray rest = value.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(':'))
            return false;
        hasPort = !rest.isEmpty();
        port = rest.mid(1);
        if (!isIpv6Literal(host))
            return false;
    } else {
        const qsizetype colon = value.indexOf(':');
        hasPort = colon >= 0;
        host = hasPort ? value.left(colon) : value;
        port = hasPort ? value.mid(colon + 1) : QByteArray();
        if (!isRegName(host))
            return false;
    }
    return !hasPort || isPort(port);
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

Result HttpHeadParser::parse(
    const QByteArray &head, int maxHeaders, HttpRequest *request, qsizetype maxBodyBytes)
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
    if (result.status == 0)
        result = checkFraming(*request, maxBodyBytes);
    if (result.status != 0)
        return result;
    const qsizetype bodyLength = result.bodyLength;
    result = checkHost(*request);
    result.bodyLength = result.status == 0 ? bodyLength : 0;
    return result;
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

// A body is read only with a Content-Length of at most maxBodyBytes: one over it, or chunked,
// is refused (and the connection closed, so its bytes are never taken for a request); lengths
// that disagree are refused as RFC 9112 6.3 says.
Result HttpHeadParser::checkFraming(const HttpRequest &request, qsizetype maxBodyBytes)
{
    QByteArray length;
    for (const auto &[name, value] : request.headers) {
        if (name == "transfer-encoding")
            return maxBodyBytes > 0 ? bad(411, "send the request body with a Content-Length")
                                    : bad(413, "request bodies are not accepted");
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
    if (empty)
        return {};
    if (maxBodyBytes <= 0)
        return bad(413, "request bodies are not accepted");
    bool ok = false;
    const qlonglong bytes = length.size() <= 18 ? length.toLongLong(&ok) : 0;
    if (!ok || bytes > maxBodyBytes)
        return bad(413, "request body too large");
    Result result;
    result.bodyLength = qsizetype(bytes);
    return result;
}

// RFC 9112 3.2: a server must answer 400 to an HTTP/1.1 request without a Host header, with
// more than one, or with one whose value is not a host. Which names are accepted is not
// checked (serve does not know the names it is reached by, like node_exporter).
Result HttpHeadParser::checkHost(const HttpRequest &request)
{
    qsizetype count = 0;
    QByteArray host;
    for (const auto &[name, value] : request.headers) {
        if (name == "host") {
            ++count;
            host = value;
        }
    }
    if (count == 0)
        return request.minorVersion == 0 ? Result {} : bad(400, "missing Host header");
    if (count > 1)
        return bad(400, "more than one Host header");
    return isHostValue(host) ? Result {} : bad(400, "malformed Host header");
}
