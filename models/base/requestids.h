// Numbers the requests of one kind that an owner sends to its worker thread, so that an answer
// to a request superseded meanwhile is dropped and a slow answer never overwrites a fresher one
// (hotspot's jobtracker.h). Lives with the owner, on the owner's thread.
#pragma once

#include <QtGlobal>

class RequestIds
{
public:
    // The id of a new request: one more than the newest issued.
    quint64 next() { return ++m_issued; }
    quint64 newest() const { return m_issued; }
    bool isNewest(quint64 id) const { return id == m_issued; }
    // The newest request has had no answer yet.
    bool isBusy() const { return m_answered < m_issued; }

    // Takes the answer to request `id` when it is the newest one issued; an older answer is
    // dropped, but still counts as answered. An id never issued is dropped.
    bool acceptNewest(quint64 id)
    {
        if (id == 0 || id > m_issued)
            return false;
        m_answered = qMax(m_answered, id);
        return id == m_issued;
    }
    // Takes the answer to request `id` when no newer one was taken before (an answer to an older
    // request than the newest still shows until the newest answers). An id never issued is
    // dropped.
    bool acceptNewer(quint64 id)
    {
        if (id == 0 || id > m_issued || id <= m_answered)
            return false;
        m_answered = id;
        return true;
    }

private:
    quint64 m_issued = 0;
    quint64 m_answered = 0; // the newest id answered, taken or dropped
};
