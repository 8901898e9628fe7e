#include "transport.h"

QString Delivery::outcomeName() const
{
    switch (outcome) {
    case Outcome::Applied:
        return QStringLiteral("APPLIED");
    case Outcome::Duplicate:
        return QStringLiteral("DUPLICATE");
    case Outcome::TransientFailure:
        return QStringLiteral("TRANSIENT_FAILURE");
    case Outcome::PermanentRejection:
        return QStringLiteral("PERMANENT_REJECTION");
    case Outcome::ResponseLost:
        return QStringLiteral("RESPONSE_LOST");
    }
    return {};
}

QString Delivery::consumerResult() const
{
    if (outcome == Outcome::Applied)
        return QStringLiteral("APPLIED");
    if (outcome == Outcome::Duplicate)
        return QStringLiteral("DUPLICATE");
    return {};
}
