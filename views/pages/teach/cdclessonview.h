// The Teach page's "Change data capture" pane: the CDC path (service transaction → WAL →
// replication slot → connector → broker) drawn with what the simulated relay shows of each step,
// what an operator reads from the slot, what the picked step is, where it breaks and what to
// look at, and the lesson's narration. Start, Play, Step and Speed drive the lesson as the
// polling pane's drive the simulator; Stall connector / Resume connector (Recreate slot once it
// is lost) is the learner's hand on the connector.
#pragma once

#include <QWidget>

class CdcLesson;
class CdcPathDiagram;
class CdcSlotPanel;
class NarrationView;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

class CdcLessonView : public QWidget
{
    Q_OBJECT
public:
    explicit CdcLessonView(QWidget *parent = nullptr);

    CdcLesson *lesson() const { return m_lesson; }
    CdcPathDiagram *diagram() const { return m_diagram; }
    CdcSlotPanel *slotPanel() const { return m_panel; }
    QString narrationText() const;
    QString explanationText() const;
    // The lesson as outbox-dashboard --scenario cdc-connector-stall shows it: started, five
    // seconds of a healthy slot, then the connector stalled, playing.
    void startStalled();

protected:
    void showEvent(QShowEvent *event) override; // the first showing starts the lesson

private:
    QWidget *createControls();
    QWidget *createStage();
    void connectLesson();
    void onConnectorClicked();
    void updateState();
    void explain();

    CdcLesson *m_lesson = nullptr;
    CdcPathDiagram *m_diagram = nullptr;
    CdcSlotPanel *m_panel = nullptr;
    QLabel *m_explanation = nullptr;
    NarrationView *m_narration = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_play = nullptr;
    QPushButton *m_step = nullptr;
    QPushButton *m_connector = nullptr;
    QDoubleSpinBox *m_speed = nullptr;
    QLabel *m_clock = nullptr;
};
