#include "pageregistry.h"

#include "auditpage.h"
#include "detailreader.h"
#include "diagnosispage.h"
#include "errorspage.h"
#include "eventspage.h"
#include "healthmonitor.h"
#include "historymonitor.h"
#include "lifecyclepage.h"
#include "overviewpage.h"
#include "policylabpage.h"
#include "replaylogmodel.h"
#include "teachpage.h"

#include <QCoreApplication>
#include <QHash>
#include <QScrollArea>

namespace {

QString registryTr(const char *text)
{
    return QCoreApplication::translate("PageRegistry", text);
}

// The history is read only while the Overview page, which charts it, shows: an hour of latency
// percentiles is a few hundred milliseconds of database time on a big outbox.
QWidget *overview(const PageContext &context)
{
    auto *page = new OverviewPage(context.ages, context.failures, context.history,
        context.categories);
    HistoryMonitor *history = context.historyMonitor;
    QObject::connect(page, &OverviewPage::rangeChanged, history, &HistoryMonitor::setRange);
    if (!context.isNativeSchema())
        page->setProfileName(context.profileName());
    return page;
}

QWidget *events(const PageContext &context)
{
    return new EventsPage(context.events, context.reader, context.profile, context.clock);
}

QWidget *errors(const PageContext &context)
{
    auto *page = new ErrorsPage(context.url, context.profile, context.clock);
    page->setObjectName(QStringLiteral("errorsPage"));
    return page;
}

// The log (through a profile: its audit store's rows) is read again after each snapshot that
// changed the figures; a failed read keeps the rows shown.
QWidget *audit(const PageContext &context)
{
    auto *page
        = new AuditPage(context.replayLog, context.isNativeSchema() ? QString() : context.profileName());
    DetailReader *reader = context.reader;
    HealthMonitor *monitor = context.monitor;
    ReplayLogModel *log = context.replayLog;
    QObject::connect(monitor, &HealthMonitor::snapshotChanged, reader, [monitor, reader] {
        if (monitor->figuresChanged())
            reader->requestReplayLog();
    });
    QObject::connect(reader, &DetailReader::replayLogLoaded, log,
        [log](const SqlRows &rows) { log->setRows({}, rows); });
    return page;
}

// The simulator, on a simulation database the window may write only.
QWidget *teach(const PageContext &context)
{
    if (!context.session)
        return nullptr;
    auto *page = new TeachPage(context.session);
    page->follow(context.monitor);
    return page;
}

} // namespace

namespace PageRegistry {

const QList<PageEntry> &pages()
{
    static const QList<PageEntry> entries = {
        {OverviewPage::Key, registryTr("Overview"), overview, true},
        {EventsPage::Key, registryTr("Events"), events, false},
        {ErrorsPage::Key, registryTr("Errors"), errors, false},
        {DiagnosisPage::Key, registryTr("Diagnosis"),
            [](const PageContext &) { return new DiagnosisPage; }, true},
        {AuditPage::Key, registryTr("Audit"), audit, false},
        {LifecyclePage::Key, registryTr("Lifecycle"),
            [](const PageContext &) { return new LifecyclePage; }, true},
        // The lab compares retry policies on its own thread and scratch database: any database.
        {PolicyLabPage::Key, registryTr("Policy lab"),
            [](const PageContext &) { return new PolicyLabPage; }, true},
        {TeachPage::Key, registryTr("Teach"), teach, false},
    };
    return entries;
}

// A page taller than a laptop scrolls rather than holding the window above the screen.
QWidget *make(const PageEntry &entry, const PageContext &context)
{
    QWidget *page = entry.create(context);
    if (!page || !entry.scrolled)
        return page;
    auto *scroll = new QScrollArea;
    scroll->setObjectName(entry.key + QStringLiteral("Page"));
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

Page *pageOf(QWidget *made)
{
    if (auto *scroll = qobject_cast<QScrollArea *>(made))
        made = scroll->widget();
    return dynamic_cast<Page *>(made);
}

QString keyForName(const QString &name)
{
    static const QHash<QString, QString> oldTabs = {{QStringLiteral("detail"), EventsPage::Key},
        {QStringLiteral("charts"), OverviewPage::Key},
        {QStringLiteral("history"), OverviewPage::Key}};
    const QString key = oldTabs.value(name, name);
    for (const PageEntry &entry : pages())
        if (entry.key == key)
            return key;
    return {};
}

} // namespace PageRegistry
