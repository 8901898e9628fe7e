#include "stormlesson.h"

#include "sumof.h"

#include <QSqlError>
#include <QSqlQuery>

namespace {

// "all fail, the transport is still down", "all are delivered", "150 fail, 50 are delivered".
QString outcome(int retried, int delivered, int dead)
{
    const int total = retried + delivered + dead;
    if (retried == total)
        return QStringLiteral("all fail, the transport is still down");
    if (delivered == total)
        return QStringLiteral("all are delivered");
    QStringList parts;
    if (retried > 0)
        parts << QStringLiteral("%1 fail").arg(retried);
    if (delivered > 0)
        parts << QStringLiteral("%1 are delivered").arg(delivered);
    if (dead > 0)
        parts << QStringLiteral("%1 are parked DEAD").arg(dead);
    return parts.join(QStringLiteral(", "));
}

} // namespace

bool StormLesson::read(const QSqlDatabase &db, StormLesson *lesson, QString *error)
{
    QSqlQuery query(db);
    // clang-format off
    query.prepare(QStringLiteral(
        "SELECT claimed_at, attempt_no,"
        "       SUM(CASE WHEN outcome = 'RETRY' THEN 1 ELSE 0 END),"
        "       SUM(CASE WHEN outcome = 'DELIVERED' THEN 1 ELSE 0 END),"
        "       SUM(CASE WHEN outcome = 'DEAD' THEN 1 ELSE 0 END)"
        "  FROM delivery_attempt"
        " GROUP BY claimed_at, attempt_no"
        " ORDER BY claimed_at, attempt_no"));
    // clang-format on
    if (!query.exec()) {
        *error = query.lastError().text();
        return false;
    }
    lesson->attempts.clear();
    while (query.next())
        lesson->attempts << StormInstant {query.value(0).toLongLong(), query.value(1).toInt(),
            query.value(2).toInt(), query.value(3).toInt(), query.value(4).toInt()};
    return true;
}

int StormLesson::events() const
{
    int first = 0;
    for (const StormInstant &instant : attempts)
        first += instant.attemptNo == 1 ? instant.count() : 0;
    return first;
}

QMap<qint64, int> StormLesson::retriesPerInstant() const
{
    return retriesPerInstant(attempts);
}

QMap<qint64, int> StormLesson::retriesPerInstant(const QList<StormInstant> &attempts)
{
    QMap<qint64, int> perInstant;
    for (const StormInstant &instant : attempts) {
        if (instant.attemptNo > 1)
            perInstant[instant.at] += instant.count();
    }
    return perInstant;
}

QMap<qint64, int> StormLesson::retriesPerBucket(qint64 width) const
{
    QMap<qint64, int> perBucket;
    const QMap<qint64, int> perInstant = retriesPerInstant();
    for (auto it = perInstant.cbegin(); it != perInstant.cend(); ++it)
        perBucket[it.key() / width * width] += it.value();
    return perBucket;
}

int StormLesson::peakRetriesSameInstant() const
{
    int peak = 0;
    for (int retries : retriesPerInstant())
        peak = std::max(peak, retries);
    return peak;
}

StormCounts StormLesson::countsAt(qint64 now) const
{
    StormCounts counts;
    qint64 attempted = 0, retried = 0, retriedAgain = 0;
    for (const StormInstant &instant : attempts) {
        if (instant.at > now)
            break; // by instant
        (instant.attemptNo == 1 ? attempted : retriedAgain) += instant.count();
        retried += instant.retried;
        counts.delivered += instant.delivered;
        counts.dead += instant.dead;
    }
    counts.due = events() - attempted;
    counts.scheduled = retried - retriedAgain;
    return counts;
}

int StormLesson::delivered() const
{
    return sumOf(attempts, &StormInstant::delivered);
}

int StormLesson::dead() const
{
    return sumOf(attempts, &StormInstant::dead);
}

qint64 StormLesson::finishedAt() const
{
    return attempts.isEmpty() ? 0 : attempts.constLast().at;
}

qint64 StormLesson::endsAt() const
{
    return std::max(
        finishedAt(), comparisonAttempts.isEmpty() ? 0 : comparisonAttempts.constLast().at);
}

// One sentence for a round of retries (every event's attempt number `attemptNo`), told when
// its last retry has happened.
QString StormLesson::round(int attemptNo) const
{
    QMap<qint64, int> perInstant;
    int retried = 0, delivered = 0, dead = 0;
    for (const StormInstant &instant : attempts) {
        if (instant.attemptNo != attemptNo)
            continue;
        perInstant[instant.at] += instant.count();
        retried += instant.retried;
        delivered += instant.delivered;
        dead += instant.dead;
    }
    const int events = retried + delivered + dead;
    if (perInstant.size() == 1)
        return QStringLiteral("t=%1  Attempt %2: %3 events retry in one and the same instant, a "
                              "thundering herd; %4.")
            .arg(perInstant.firstKey())
            .arg(attemptNo)
            .arg(events)
            .arg(outcome(retried, delivered, dead));
    int most = 0;
    for (int count : perInstant)
        most = std::max(most, count);
    return QStringLiteral("t=%1..%2  Attempt %3: %4 events retry spread over %5 instants, at most "
                          "%6 at once; %7.")
        .arg(perInstant.firstKey())
        .arg(perInstant.lastKey())
        .arg(attemptNo)
        .arg(events)
        .arg(perInstant.size())
        .arg(most)
        .arg(outcome(retried, delivered, dead));
}

QList<std::pair<qint64, QString>> StormLesson::moments() const
{
    QList<std::pair<qint64, QString>> moments;
    if (attempts.isEmpty())
        return moments;
    moments.append({0,
        QStringLiteral("t=0  The transport goes down until t=%1. All %2 events are attempted at "
                       "once and all fail; each is given a due time for its retry.")
            .arg(outageUntil)
            .arg(events())});
    moments.append({outageUntil,
        QStringLiteral("t=%1  The outage is over: the transport answers again.").arg(outageUntil)});
    QMap<int, qint64> roundEnds; // attempt number -> its last instant
    for (const StormInstant &instant : attempts)
        roundEnds[instant.attemptNo] = std::max(roundEnds.value(instant.attemptNo), instant.at);
    for (auto it = roundEnds.cbegin(); it != roundEnds.cend(); ++it) {
        if (it.key() > 1)
            moments.append({it.value(), round(it.key())});
    }
    std::stable_sort(moments.begin(), moments.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    moments.append({finishedAt(), conclusion()});
    return moments;
}

QStringList StormLesson::narrationBetween(qint64 after, qint64 upTo) const
{
    QStringList lines;
    for (const auto &[at, line] : moments()) {
        if (at > after && at <= upTo)
            lines << line;
    }
    return lines;
}

QString StormLesson::conclusion() const
{
    return QStringLiteral("Peak: %1 retries in one instant under %2, against %3 under %4. %5 of "
                          "%6 events delivered by t=%7, %8 DEAD.")
        .arg(peakRetriesSameInstant())
        .arg(policy)
        .arg(comparisonPeak)
        .arg(comparisonPolicy)
        .arg(delivered())
        .arg(events())
        .arg(finishedAt())
        .arg(dead());
}
