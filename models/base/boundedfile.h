// Every file the programs read on a user's say-so (a profile, a fleet file, `serve --config`,
// `--web.config.file` and its certificates, a `--db-file`) goes through here: a regular file
// only, read at most its limit plus one byte, refused above it. A device (/dev/zero), a FIFO
// (which would block the reader forever) or a directory is refused by name before a byte is
// read, and the check is on the opened descriptor (fstat), so the file cannot be swapped
// between the check and the read; what that fstat saw is reported (Status), so that a later
// check (e.g. of the permissions) is about the same file.
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace BoundedFile {

// What a file is for, used in messages: "profile", "fleet file", "web config file".
// read() fails with e.g. "not a profile: /dev/zero is a character device, not a file",
// "profile /x/p.profile is larger than 1 MiB", "cannot read profile /x: No such file or
// directory".
// What fstat said of the descriptor that was read.
struct Status
{
    uint permissions = 0; // st_mode's permission bits (e.g. 0600)
};

std::optional<QByteArray> read(const QString &path, qint64 limitBytes, const QString &what,
    QString *error, Status *status = nullptr);

// The limit as people say it: "1 MiB", "64 KiB", "512 bytes".
QString limitText(qint64 limitBytes);

} // namespace BoundedFile
