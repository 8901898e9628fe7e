// The Lifecycle page: the outbox's lifecycle diagram (LifecycleDiagram) on the whole page, its
// counts from each health snapshot.
#pragma once

#include "lifecyclediagram.h"
#include "page.h"

class LifecyclePage : public LifecycleDiagram, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("lifecycle");

    explicit LifecyclePage(QWidget *parent = nullptr);

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the diagram itself
    void outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged) override;
};
