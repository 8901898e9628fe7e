// The outbox lifecycle drawn as a state diagram: DUE, IN FLIGHT, SCHEDULED, DELIVERED, DEAD and
// RESOLVED with their live counts, and labelled arrows for claim, ack, failure, reclaim, replay
// and resolve.
// Positions follow the widget's size; the scene is laid out apart from painting it.
#pragma once

#include "page.h"

#include "healthsnapshot.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPolygonF>
#include <QRectF>
#include <QWidget>

class LifecyclePage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("lifecycle");

    explicit LifecyclePage(QWidget *parent = nullptr);

    void setCounts(const HealthCounts &counts);
    HealthCounts counts() const { return m_counts; }
    // Counts the schema cannot tell (HealthSnapshot::notAvailable keys): drawn as "n/a".
    void setNotAvailable(const QStringList &keys);
    // The diagram in words (its accessible description): each state's count and where events
    // go from it.
    QString summaryText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Where each piece of text is drawn at the current size (to check that none overlaps).
    QList<QRectF> textRects() const;

    // The page contract (page.h).
    QWidget *focusTarget() const override; // the diagram itself
    void outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged) override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    enum State { Due, InFlight, Scheduled, Delivered, Dead, Resolved, StateCount };

    struct Text
    {
        QRectF rect;
        QString text;
        QFont font;
        QColor colour;
        bool backed = false; // an arrow label, drawn on a light patch over the lines
    };
    struct Scene
    {
        QList<QRectF> boxes; // by State
        QList<QPolygonF> arrows;
        QList<Text> texts;
    };

    qreal scale() const;
    QPointF at(qreal fx, qreal fy) const;
    QFont font(qreal pixelSize, bool bold = false) const;
    QRectF boxRect(State state) const;
    Scene layoutScene() const;
    void addBoxTexts(Scene &scene, State state) const;
    void addArrows(Scene &scene) const;
    void addArrow(Scene &scene, const QPolygonF &path, const QString &label, QPointF anchor,
        Qt::Alignment side) const;

    void paintBox(QPainter &painter, const QRectF &rect, const QColor &colour) const;
    void paintArrow(QPainter &painter, const QPolygonF &path) const;
    void paintText(QPainter &painter, const Text &text) const;

    static QString title(State state);
    static QColor colour(State state);
    qint64 count(State state) const;
    QString countText(const char *key, qint64 value) const;
    void updateSummary();

    HealthCounts m_counts;
    QStringList m_notAvailable;
};
