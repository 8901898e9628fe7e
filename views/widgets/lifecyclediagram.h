// The outbox lifecycle drawn as a state diagram: DUE, IN FLIGHT, SCHEDULED, DELIVERED, DEAD and
// RESOLVED with their live counts, and labelled arrows for claim, ack, failure, reclaim, replay
// and resolve; the transition just taken (the teaching page's Step) drawn bold in the accent
// colour. Positions follow the widget's size; the scene is laid out apart from painting it. The
// Lifecycle page shows it whole, the Teach page beside its narration.
#pragma once

#include "healthsnapshot.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPolygonF>
#include <QRectF>
#include <QWidget>

class LifecycleDiagram : public QWidget
{
    Q_OBJECT
public:
    // The arrows, in the order they are drawn, and the transport call (IN FLIGHT's box).
    enum class Transition { None, Claim, Reclaim, Ack, Retry, DueAgain, Park, Replay, Resolve, Call };

    explicit LifecycleDiagram(QWidget *parent = nullptr);

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

    // The transition just taken, highlighted until the next; None: none.
    void setTransition(Transition transition);
    Transition transition() const { return m_transition; }
    // The highlighted arrow's label ("claim (token + lease)"), or "transport call"; empty: none.
    QString transitionText() const;
    // The snapshot's counts, and "n/a" for what its schema cannot tell.
    void showSnapshot(const HealthSnapshot &snapshot);

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
        QList<QString> arrowLabels; // by arrow
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
    void paintArrow(QPainter &painter, const QPolygonF &path, bool highlighted) const;
    void paintText(QPainter &painter, const Text &text) const;

    static QString title(State state);
    static QColor colour(State state);
    qint64 count(State state) const;
    QString countText(const char *key, qint64 value) const;
    void updateSummary();

    HealthCounts m_counts;
    QStringList m_notAvailable;
    Transition m_transition = Transition::None;
};
