// A database error in plain words for the window's banner: "the server refuses connections"
// rather than a paragraph of libpq. The driver's text stays available as the detail, with any
// password masked.
#pragma once

#include <QString>

struct FailureCause
{
    QString plain; // a short clause, e.g. "the server refuses connections (is it running?)"
    QString detail; // the driver's words, passwords masked
    bool unreachable = false; // the database could not be reached (vs. it answered with an error)

    static FailureCause of(const QString &error);
    static FailureCause noAnswer(int seconds);
};
