#include "lifecyclepage.h"

LifecyclePage::LifecyclePage(QWidget *parent)
    : LifecycleDiagram(parent)
{ }

QWidget *LifecyclePage::focusTarget() const
{
    return const_cast<LifecyclePage *>(this);
}

void LifecyclePage::outboxChanged(const HealthSnapshot &snapshot, bool)
{
    showSnapshot(snapshot);
}
