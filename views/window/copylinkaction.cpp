#include "copylinkaction.h"

#include "detailpane.h"
#include "eventfilter.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "mainwindow.h"
#include "profileregistry.h"
#include "viewlink.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QStatusBar>
#include <QTableView>

namespace {

// As --sort takes it ("failures:desc"); empty for the default, newest first.
QString sortText(const QHeaderView *header)
{
    const int column = header->sortIndicatorSection();
    const Qt::SortOrder order = header->sortIndicatorOrder();
    if (column == EventListModel::AgeColumn && order == Qt::AscendingOrder)
        return {};
    const QString text
        = EventListModel::columnTitle(column).toLower().replace(QLatin1Char(' '), QLatin1Char('-'))
        + (order == Qt::DescendingOrder ? QStringLiteral(":desc") : QString());
    QString error; // a column the table cannot sort in SQL has no name for --sort
    const auto parsed = EventListModel::sortFromText(text, &error);
    return parsed && parsed->first == column ? text : QString();
}

// As --profile takes it: a built-in's name, else the file it was read from; none for native.
QString profileArgument(const MainWindow &window)
{
    if (window.isNativeSchema())
        return {};
    const OutboxProfile &profile = *window.options().profile;
    return ProfileRegistry::builtInNames().contains(profile.name()) ? profile.name()
                                                                    : profile.origin();
}

} // namespace

CopyLinkAction::CopyLinkAction(MainWindow *window)
    : QAction(tr("Copy &link to this view"), window)
    , m_window(window)
{
    setObjectName(QStringLiteral("copyLinkAction"));
    setToolTip(tr("Copy an outbox-health: link that opens this database on this page, filter "
                  "and event (without a password)"));
    connect(this, &QAction::triggered, this, &CopyLinkAction::copy);
}

QString CopyLinkAction::linkTo(const MainWindow &window)
{
    ViewLink link;
    link.demo = window.options().startLiveRelay;
    if (!link.demo)
        link.db = window.url().toStorableString();
    link.profile = profileArgument(window);
    link.readOnly = window.options().readOnly;
    const EventFilter filter = window.filterBar()->filter();
    if (filter.state != EventFilter::State::Any)
        link.state = EventFilter::stateName(filter.state);
    link.search = filter.search;
    if (!filter.search.isEmpty() && filter.searchMode == EventFilter::SearchMode::Contains)
        link.searchMode = QStringLiteral("text");
    if (filter.search.isEmpty() && !filter.payloadContains.isEmpty()) { // one search per link
        link.search = filter.payloadContains;
        link.searchMode = QStringLiteral("payload");
    }
    link.sort = sortText(window.eventView()->horizontalHeader());
    link.tab = window.currentPage();
    link.event = window.detailPane()->eventId();
    link.cdcSlot = window.options().cdcSlot;
    return link.toUrl();
}

bool CopyLinkAction::filterIsPartial(const MainWindow &window)
{
    const EventFilter filter = window.filterBar()->filter();
    EventFilter carried;
    carried.state = filter.state;
    carried.search = filter.search;
    carried.searchMode = filter.searchMode;
    carried.idsInCCollation = filter.idsInCCollation;
    if (filter.search.isEmpty())
        carried.payloadContains = filter.payloadContains;
    return carried != filter;
}

void CopyLinkAction::copy()
{
    QGuiApplication::clipboard()->setText(linkTo(*m_window));
    m_window->statusBar()->showMessage(filterIsPartial(*m_window)
            ? tr("Copied a link to this view; it keeps the state and search but not the rest of "
                 "the filter")
            : tr("Copied a link to this view"),
        8000);
}
