// The page contract: every page of the window is a QWidget that also implements Page, and is made
// by one line of the page registry (views/window/pageregistry.cpp) from a PageContext. The
// registry gives its key (--tab, the settings, the View menu), its title in the rail and its
// place (Ctrl+1…N, in the registry's order); the page says where the keyboard lands in it, its
// search field, how it takes a new health snapshot and its actions. A page includes only this
// folder, views/widgets/, views/dialogs/ and models/: never another page, the actions or the
// window (cmake/CheckLayers.cmake).
#pragma once

#include "dbconnection.h"
#include "outboxprofile.h"

#include <QList>
#include <QString>
#include <functional>
#include <optional>

class AgeHistogramModel;
class AttemptsHistogramModel;
class DetailReader;
class ErrorCategoryModel;
class EventListModel;
class HealthMonitor;
class HistoryModel;
class HistoryMonitor;
class QAction;
class QWidget;
class ReplayLogModel;
class TeachingSession;
struct HealthSnapshot;

// What a page may read. The window makes the models and workers once (their threads are shared)
// and hands every page the same context; a page keeps only what it uses.
struct PageContext
{
    DatabaseUrl url;
    std::optional<OutboxProfile> profile; // none or native: delivery_outbox
    std::function<qint64()> clock; // the simulation's clock on a simulation database
    HealthMonitor *monitor = nullptr;
    EventListModel *events = nullptr;
    DetailReader *reader = nullptr;
    ReplayLogModel *replayLog = nullptr;
    AgeHistogramModel *ages = nullptr;
    AttemptsHistogramModel *failures = nullptr;
    HistoryModel *history = nullptr;
    HistoryMonitor *historyMonitor = nullptr;
    ErrorCategoryModel *categories = nullptr;
    TeachingSession *session = nullptr; // a simulation database the window may write; else none

    bool isNativeSchema() const { return !profile || profile->isNative(); }
    QString profileName() const { return profile ? profile->name() : QStringLiteral("native"); }
};

class Page
{
public:
    virtual ~Page() = default;
    // Where the keyboard lands when the page is shown by Ctrl+1…N or opens the window: its main
    // control (a table, the first field), never the toolbar.
    virtual QWidget *focusTarget() const = 0;
    // What `/` focuses on this page; none: the Events page's search.
    virtual QWidget *searchField() const { return nullptr; }
    // A new health snapshot; `figuresChanged`: the outbox changed since the last one
    // (HealthMonitor::figuresChanged()), so rows shown are read again.
    virtual void outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged)
    {
        (void)snapshot;
        (void)figuresChanged;
    }
    // The page's own actions, each with its shortcut; the window adds them to itself.
    virtual QList<QAction *> pageActions() const { return {}; }
};

// One line of the registry.
struct PageEntry
{
    QString key; // --tab NAME, the settings, the View menu's action names (KEYPageAction)
    QString title; // in the rail and the View menu
    // A QWidget that is a Page; none: the page has nothing to show on this database (Teach
    // without a simulation), and the rail leaves it out.
    std::function<QWidget *(const PageContext &)> create;
    bool scrolled = false; // taller than a laptop: in a scroll area
};
