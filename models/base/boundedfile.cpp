#include "boundedfile.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace BoundedFile {

namespace {

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

// Closes the descriptor on every path out of read().
class Descriptor
{
public:
    explicit Descriptor(int fd)
        : m_fd(fd)
    { }
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    int fd() const { return m_fd; }

private:
    int m_fd;
};

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

} // namespace

QString limitText(qint64 limitBytes)
{
    if (limitBytes >= 1024 * 1024 && limitBytes % (1024 * 1024) == 0)
        return QStringLiteral("%1 MiB").arg(limitBytes / (1024 * 1024));
    if (limitBytes >= 1024 && limitBytes % 1024 == 0)
        return QStringLiteral("%1 KiB").arg(limitBytes / 1024);
    return QStringLiteral("%1 bytes").arg(limitBytes);
}

std::optional<QByteArray> read(
    const QString &path, qint64 limitBytes, const QString &what, QString *error, Status *seen)
{
    // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
    const Descriptor file(
        ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (file.fd() < 0) {
        *error = QStringLiteral("cannot read %1 %2: %3").arg(what, path, systemError());
        return std::nullopt;
    }
    struct stat status
    {
    };
    if (::fstat(file.fd(), &status) != 0) {
        *error = QStringLiteral("cannot read %1 %2: %3").arg(what, path, systemError());
        return std::nullopt;
    }
    if (!S_ISREG(status.st_mode)) {
        *error = QStringLiteral("not a %1: %2 is %3, not a file")
                     .arg(what, path, kindOf(status.st_mode));
        return std::nullopt;
    }
    QByteArray bytes;
    bytes.resize(qsizetype(qMin<qint64>(limitBytes + 1, qMax<qint64>(status.st_size + 1, 4096))));
    qint64 total = 0;
    while (total <= limitBytes) {
        if (total == bytes.size())
            bytes.resize(qsizetype(qMin<qint64>(limitBytes + 1, bytes.size() * 2)));
        const ssize_t got = ::read(file.fd(), bytes.data() + total, size_t(bytes.size() - total));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            *error = QStringLiteral("cannot read %1 %2: %3").arg(what, path, systemError());
            return std::nullopt;
        }
        if (got == 0)
            break;
        total += got;
    }
    if (total > limitBytes) {
        *error = QStringLiteral("%1 %2 is larger than %3").arg(what, path, limitText(limitBytes));
        return std::nullopt;
    }
    bytes.resize(qsizetype(total));
    if (seen)
        seen->permissions = uint(status.st_mode & 07777);
    return bytes;
}

} // namespace BoundedFile
