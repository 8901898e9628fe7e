#include "windowmodels.h"

#include "agehistogrammodel.h"
#include "attemptshistogrammodel.h"
#include "detailreader.h"
#include "errorcategorymodel.h"
#include "eventlistmodel.h"
#include "healthmonitor.h"
#include "healthworker.h"
#include "historymodel.h"
#include "historymonitor.h"
#include "replaylogmodel.h"

#include <QDateTime>

namespace WindowModels {

PageContext make(
    const DatabaseUrl &url, const std::optional<OutboxProfile> &profile, QObject *parent)
{
    PageContext context;
    context.url = url;
    context.profile = profile;
    context.events = new EventListModel(parent);
    context.ages = new AgeHistogramModel(parent);
    context.failures = new AttemptsHistogramModel(parent);
    context.history = new HistoryModel(parent);
    context.categories = new ErrorCategoryModel(parent);
    context.replayLog = new ReplayLogModel(parent);
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = context.isNativeSchema(); // a profile validated its own schema
    context.monitor = new HealthMonitor(url, options, parent);
    context.reader = new DetailReader(url, parent);
    context.historyMonitor = new HistoryMonitor(context.monitor, url, options, parent);
    // Its reading, on its own thread, is not charged to the snapshot's interval (lastCostMs).
    QObject::connect(context.historyMonitor, &HistoryMonitor::historyChanged, context.history,
        &HistoryModel::setHistory);
    if (!context.isNativeSchema()) {
        context.monitor->setProfile(*profile);
        context.historyMonitor->setProfile(*profile);
        context.reader->setProfile(*profile);
        context.events->setProfile(*profile);
    }
    context.events->setNow(QDateTime::currentMSecsSinceEpoch());
    context.events->setSource(url); // its own connection, on its own thread
    return context;
}

} // namespace WindowModels
