#include "mainmenus.h"

#include "alertdecider.h"

#include <QActionGroup>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QSpinBox>

namespace {

void addIntervalMenu(QMenu *view, QSpinBox *interval)
{
    QMenu *menu = view->addMenu(QObject::tr("Refresh &interval"));
    menu->setObjectName(QStringLiteral("intervalMenu"));
    auto *group = new QActionGroup(menu);
    for (int seconds : MainMenus::intervalChoices()) {
        QAction *choice = menu->addAction(QObject::tr("Every %n s", nullptr, seconds));
        choice->setCheckable(true);
        choice->setData(seconds);
        group->addAction(choice);
        QObject::connect(choice, &QAction::triggered, interval,
            [interval, seconds] { interval->setValue(seconds); });
    }
    const auto follow = [group](int seconds) {
        for (QAction *choice : group->actions())
            choice->setChecked(choice->data().toInt() == seconds);
    };
    QObject::connect(interval, &QSpinBox::valueChanged, group, follow);
    follow(interval->value());
}

void addIfAny(QMenu *menu, QAction *action)
{
    if (action)
        menu->addAction(action);
}

} // namespace

namespace MainMenus {

const QList<int> &intervalChoices()
{
    static const QList<int> choices = {1, 2, 5, 10, 30, 60};
    return choices;
}

void build(QMenuBar *bar, const MenuActions &actions, QSpinBox *interval)
{
    QMenu *file = bar->addMenu(QObject::tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    file->addAction(actions.connect);
    addIfAny(file, actions.openFleet);
    file->addSeparator();
    file->addAction(actions.exportEvents);
    file->addAction(actions.exportAudit);
    file->addSeparator();
    file->addAction(actions.quit);

    QMenu *view = bar->addMenu(QObject::tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    view->addActions(actions.pages);
    view->addSeparator();
    addIfAny(view, actions.diagnosis);
    addIfAny(view, actions.search);
    view->addAction(actions.find);
    view->addAction(actions.clearSearch);
    addIfAny(view, actions.copyLink);
    view->addSeparator();
    addIntervalMenu(view, interval);
    view->addAction(actions.pauseRefresh);
    view->addAction(actions.thresholds);
    if (QAction *mute = actions.muteAlerts) {
        view->addAction(mute);
        QObject::connect(view, &QMenu::aboutToShow, mute, [mute] {
            const QSignalBlocker quiet(mute); // only shows the setting, changes nothing
            mute->setChecked(AlertDecider::isMuted(mute->data().toString()));
        });
    }

    QMenu *act = bar->addMenu(QObject::tr("&Actions"));
    act->setObjectName(QStringLiteral("actionsMenu"));
    act->addAction(actions.refresh);
    act->addSeparator();
    act->addAction(actions.copyIds);
    act->addAction(actions.replaySelected);
    act->addAction(actions.replayMatching);
    if (actions.resolveSelected)
        act->addAction(actions.resolveSelected);
    if (actions.reopenSelected)
        act->addAction(actions.reopenSelected);
    if (actions.editSelected)
        act->addAction(actions.editSelected);
    addIfAny(act, actions.addNote);
    addIfAny(act, actions.clearNotes);

    QMenu *help = bar->addMenu(QObject::tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(actions.about);
}

} // namespace MainMenus
