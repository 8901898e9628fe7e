// What a relay delivers through. The relay learns only what the transport tells it: a lost
// response looks like a transient failure even though the consumer committed.
#pragma once

#include "outboxtypes.h"

struct Delivery
{
    enum class Outcome { Applied, Duplicate, TransientFailure, PermanentRejection, ResponseLost };

    Outcome outcome = Outcome::TransientFailure;
    QString error; // safe message: never the payload or credentials

    bool succeeded() const { return outcome == Outcome::Applied || outcome == Outcome::Duplicate; }
    QString outcomeName() const;
    // APPLIED or DUPLICATE when the relay learned it, empty otherwise.
    QString consumerResult() const;
    ErrorCategory category() const
    {
        return outcome == Outcome::PermanentRejection ? ErrorCategory::Permanent
                                                      : ErrorCategory::Transient;
    }
};

class Transport
{
public:
    virtual ~Transport() = default;
    virtual Delivery deliver(const Claim &claim, qint64 now) = 0;
};
