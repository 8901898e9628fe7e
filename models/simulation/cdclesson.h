// The Teach page's change-data-capture lesson: a service commits inserts into its outbox, a
// simulated connector (SimulatedCdcRelay) reads them from the WAL through a replication slot,
// and the learner stalls and resumes the connector. Driven as the teaching session drives the
// storm: a logical clock that one Step moves by one simulated second, a play timer of Speed
// steps a second; never a sleep. What happens is told in sentences (narrated), the slot's
// figures are read from relay() after changed. No database.
#pragma once

#include "clock.h"
#include "simulatedcdcrelay.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

class CdcLesson : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *Name = "cdc-connector-stall"; // outbox-dashboard --scenario
    static constexpr qint64 StepMs = 1000; // one Step: one simulated second
    static constexpr int InsertsPerStep = 50; // the service's commits in that second
    static constexpr qint64 ToldEveryMs = 5000; // how often a stalled slot's figures are told

    explicit CdcLesson(QObject *parent = nullptr); // the scaled-down server
    explicit CdcLesson(const SimulatedCdcRelay::Settings &settings, QObject *parent = nullptr);

    // From t=0 with a running connector, paused (play() then plays it); told from its start.
    void start();
    bool isStarted() const { return m_started; }
    bool isPlaying() const { return m_playing; }
    double speed() const { return m_speed; }
    qint64 now() const { return m_clock.now(); }
    const SimulatedCdcRelay &relay() const { return m_relay; }
    static QString bytesText(qint64 bytes); // "1.2 MiB", as the page shows sizes

public slots:
    void play();
    void pause();
    void step(); // one simulated second: the inserts, then the connector and any checkpoint
    void setSpeed(double speed); // steps per second while playing
    void stallConnector();
    void resumeConnector();
    void recreateSlot(); // after a loss: the operator drops the slot, the connector makes anew

signals:
    void narrated(const QStringList &lines);
    void changed(); // the figures, the connector, playing or the speed changed

private:
    void tell(const QString &sentence);
    void tellStep(const SimulatedCdcRelay &before);
    QString figures() const;
    QString lossCost() const;
    int playInterval() const;

    SimulatedCdcRelay::Settings m_settings;
    SimulatedCdcRelay m_relay;
    LogicalClock m_clock;
    QTimer m_playTimer;
    bool m_started = false;
    bool m_playing = false;
    double m_speed = 1.0;
};
