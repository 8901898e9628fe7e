// The read-only detail of an outbox the workstation has no database URL for: every series
// Prometheus holds for it ({outbox="NAME"}: the families `outboxctl serve` exports), read on the
// fleet model's worker, one row each (metric, its other labels, value). Nothing here can change
// the outbox; its own window needs a `NAME=URL` line in the fleet file.
#pragma once

#include <QDialog>
#include <QList>

#include "prometheusresponse.h"

class PrometheusFleetModel;
class QLabel;
class QTableWidget;

class PrometheusDetailDialog : public QDialog
{
    Q_OBJECT
public:
    PrometheusDetailDialog(
        PrometheusFleetModel *model, const QString &name, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    QString status() const; // "12 series" or why not

signals:
    void shown(); // the answer (series or an error) is on screen

private:
    void onRead(const QString &name, const QList<PrometheusResponse::Sample> &samples,
        const QString &error);

    QString m_name;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
};
