#include "prometheusdetaildialog.h"

#include "plaintext.h"
#include "prometheusclient.h"
#include "prometheusfleetmodel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

PrometheusDetailDialog::PrometheusDetailDialog(
    PrometheusFleetModel *model, const QString &name, QWidget *parent)
    : QDialog(parent)
    , m_name(name)
    , m_status(new QLabel(tr("Reading Prometheus…")))
    , m_table(new QTableWidget(0, 3))
{
    setObjectName(QStringLiteral("prometheusDetail"));
    setWindowTitle(tr("%1 — from Prometheus (read-only)").arg(name));
    m_status->setTextFormat(Qt::PlainText);
    m_table->setHorizontalHeaderLabels({tr("Metric"), tr("Labels"), tr("Value")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->setAccessibleName(tr("Series of %1").arg(name));
    auto *hint = new QLabel(tr("Read through Prometheus at %1. To open this outbox's own window, "
                               "add a line %2=URL to the fleet file.")
                                .arg(PrometheusClient::displayUrl(model->url()), name));
    hint->setTextFormat(Qt::PlainText);
    hint->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(hint);
    layout->addWidget(buttons);
    resize(760, 480);
    connect(model, &PrometheusFleetModel::detailRead, this, &PrometheusDetailDialog::onRead);
    model->readDetail(name);
}

QString PrometheusDetailDialog::status() const
{
    return m_status->text();
}

void PrometheusDetailDialog::onRead(
    const QString &name, const QList<PrometheusResponse::Sample> &samples, const QString &error)
{
    if (name != m_name)
        return; // another row's detail
    m_table->setRowCount(0);
    for (const PrometheusResponse::Sample &sample : samples) {
        QStringList labels;
        for (auto it = sample.labels.begin(); it != sample.labels.end(); ++it) {
            if (it.key() != QLatin1String("__name__") && it.key() != QLatin1String("outbox"))
                labels << it.key() + QStringLiteral("=\"") + it.value() + u'"';
        }
        labels.sort();
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0,
            new QTableWidgetItem(
                PlainText::escaped(sample.labels.value(QStringLiteral("__name__")))));
        m_table->setItem(row, 1, new QTableWidgetItem(PlainText::escaped(labels.join(u", "))));
        m_table->setItem(row, 2, new QTableWidgetItem(QLocale().toString(sample.value)));
    }
    m_table->sortItems(0);
    m_status->setText(error.isEmpty() ? tr("%n series", nullptr, int(samples.size()))
                                      : PlainText::escaped(error));
    emit shown();
}
