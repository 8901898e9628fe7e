// Every page of the window, rendered offscreen at a laptop's size with the teaching panel open
// (light and dark) and at 1920×1080, on a seeded outbox with a replay in its log, demo-like event
// IDs and a long last error: what an operator reads there is shown whole. The page names in the
// rail; the event table's ID, state, failures and last error; the error groups' signature, counts
// and event types; the selected event's attempt outcome and consumer result; the replay log's time
// and event ID; every one-line label; every chart's axis labels (Qt Charts cuts them with "...");
// and no part of a page lies outside the window. The Errors page leads with the signature (the
// widest column, wrapped whole), its columns keep their widths whatever a read holds and the
// selected group's bar stands out; the detail pane shows an attempt's message, worker and times
// wrapped, without a horizontal scroll; the status bar's health lines are never cut, a job's
// outcome beside them or not; an alert bar covers nothing of any page. Every dialog, at both
// sizes, fits on the screen and shows its labels whole.
#include "alertbar.h"
#include "attemptmodel.h"
#include "connectdialog.h"
#include "detailpane.h"
#include "diagnosisstatusline.h"
#include "elidinglabel.h"
#include "errorgroupmodel.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "notedialog.h"
#include "operatoractions.h"
#include "outboxstore.h"
#include "pagenavigator.h"
#include "parkedevents.h"
#include "payloadeditdialog.h"
#include "policylabpage.h"
#include "reopendialog.h"
#include "replaydialog.h"
#include "replaylogmodel.h"
#include "resolvedialog.h"
#include "startwindow.h"
#include "testdatabase.h"
#include "teachingsession.h"
#include "teachpage.h"
#include "testmain.h"
#include "themecolours.h"
#include "thresholdsdialog.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QDateTime>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTableView>
#include <QTreeView>
#include <functional>
#include <memory>

namespace {

// A maximised window on a 1366×768 screen, less a title bar and a taskbar.
constexpr QSize Laptop(1366, 700);
constexpr QSize FullHd(1920, 1080);

// What the demo's relay writes: its IDs (a random tag with wide glyphs) and a long permanent
// rejection, newer than parkEvents' rows so they head the table (newest first).
const QString LongError
    = u"consumer rejected the event permanently (schema version 3 not supported)"_qs;

bool addDemoLikeEvents(const QSqlDatabase &db)
{
    OutboxStore store(db);
    const qint64 now = QDateTime::currentMSecsSinceEpoch() - 30000;
    const QStringList ids = {u"EV-pepo9-00012"_qs, u"EV-mwm0w-00088"_qs};
    for (const QString &id : ids) {
        if (!store.insertEvent({id, u"Order"_qs, u"ORDER-pepo9-12"_qs, u"StockReserved"_qs,
                u"{\"sku\":\"SKU-1\",\"quantity\":1}"_qs, now}))
            return false;
        const ClaimResult claim = store.claim(id, u"w"_qs, now);
        if (!store.fail(claim.claim, now, ErrorCategory::Permanent, LongError).ok)
            return false;
    }
    return true;
}

// The style and palette of `theme` while it lives; the platform's again after.
class ThemeScope
{
public:
    explicit ThemeScope(const QString &theme)
        : m_style(QApplication::style()->name())
        , m_palette(QApplication::palette())
    {
        QString error;
        if (theme != u"system"_qs)
            ThemeColours::applyTheme(theme, &error);
    }
    ~ThemeScope()
    {
        QApplication::setStyle(QStyleFactory::create(m_style));
        QApplication::setPalette(m_palette);
    }

private:
    QString m_style;
    QPalette m_palette;
};

QRect globalRect(const QWidget *widget)
{
    return QRect(widget->mapToGlobal(QPoint(0, 0)), widget->size());
}

// Inside a scroll area's viewport a widget may lie beyond the window: it scrolls into view.
bool scrolls(const QWidget *widget, const QWidget *page)
{
    for (const QWidget *w = widget->parentWidget(); w && w != page->parentWidget();
         w = w->parentWidget()) {
        const auto *area = qobject_cast<const QAbstractScrollArea *>(w->parentWidget());
        if (area && area->viewport() == w)
            return true;
    }
    return false;
}

int textMargin(const QWidget *widget)
{
    return widget->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
}

// The cells of `columns` in the rows shown, each narrower than its text or past the viewport.
QStringList cutCells(const QTableView *view, const QList<int> &columns)
{
    QStringList cut;
    const QAbstractItemModel *model = view->model();
    for (int row = 0; row < model->rowCount() && view->rowViewportPosition(row) >= 0
         && view->rowViewportPosition(row) < view->viewport()->height();
         ++row) {
        for (const int column : columns) {
            const QModelIndex index = model->index(row, column);
            const QString text = index.data().toString();
            const QVariant font = index.data(Qt::FontRole);
            const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : view->font());
            const int needed = metrics.horizontalAdvance(text) + 2 * textMargin(view);
            const QRect cell = view->visualRect(index);
            // A hidden column cuts what it would show; an empty one hides nothing.
            const bool hidden = view->isColumnHidden(column);
            if ((hidden && !text.isEmpty())
                || (!hidden
                    && (cell.width() < needed || cell.right() >= view->viewport()->width())))
                cut << u"%1 column %2 \"%3\": %4 px of %5"_qs.arg(view->objectName())
                           .arg(column)
                           .arg(text)
                           .arg(cell.width())
                           .arg(needed);
        }
    }
    return cut;
}

// A tree of jobs (the Audit page): each job's summary across the row, and, expanded, the
// cells of `columns` of its rows shown, as cutCells() checks them.
QStringList cutTreeCells(QTreeView *view, const QList<int> &columns)
{
    view->expandAll();
    QStringList cut;
    const QAbstractItemModel *model = view->model();
    const QFontMetrics metrics(view->font());
    const auto shown = [view](const QRect &cell) {
        return cell.isValid() && cell.top() >= 0 && cell.bottom() < view->viewport()->height();
    };
    for (int job = 0; job < model->rowCount(); ++job) {
        const QModelIndex parent = model->index(job, 0);
        const QString summary = parent.data().toString();
        const int needed
            = metrics.horizontalAdvance(summary) + 2 * textMargin(view) + view->indentation();
        if (shown(view->visualRect(parent)) && needed > view->viewport()->width())
            cut << u"%1 job \"%2\": %3 px of %4"_qs.arg(view->objectName(), summary)
                       .arg(view->viewport()->width())
                       .arg(needed);
        for (int row = 0; row < model->rowCount(parent); ++row) {
            for (const int column : columns) {
                const QModelIndex index = model->index(row, column, parent);
                const QString text = index.data().toString();
                const int width = metrics.horizontalAdvance(text) + 2 * textMargin(view);
                const QRect cell = view->visualRect(index);
                if (shown(cell)
                    && (cell.width() < width || cell.right() >= view->viewport()->width()))
                    cut << u"%1 column %2 \"%3\": %4 px of %5"_qs.arg(view->objectName())
                               .arg(column)
                               .arg(text)
                               .arg(cell.width())
                               .arg(width);
            }
        }
    }
    return cut;
}

bool isPlainOneLine(const QLabel *label)
{
    if (label->wordWrap() || label->text().isEmpty() || label->text().contains(u'\n'))
        return false;
    return label->textFormat() == Qt::PlainText
        || (label->textFormat() == Qt::AutoText && !Qt::mightBeRichText(label->text()));
}

// One-line labels narrower than their text, or cut by the code that set them (a "…" the
// tooltip does not have), and widgets outside the window.
QStringList cutWidgets(const QWidget *window, const QWidget *root)
{
    QStringList cut;
    const QRect inside = globalRect(window);
    for (const QWidget *widget : root->findChildren<QWidget *>()) {
        if (!widget->isVisible())
            continue;
        if (!scrolls(widget, root) && !inside.contains(globalRect(widget)))
            cut << u"%1 (%2) lies outside the window"_qs.arg(
                widget->objectName(), QString::fromLatin1(widget->metaObject()->className()));
        const auto *label = qobject_cast<const QLabel *>(widget);
        // The connection line and a job's outcome give way first (cut, whole in the tooltip).
        if (!label || !isPlainOneLine(label) || qobject_cast<const ElidingLabel *>(label))
            continue;
        const int needed = label->fontMetrics().horizontalAdvance(label->text());
        if (needed > label->contentsRect().width())
            cut << u"label %1 \"%2\": %3 px of %4"_qs.arg(label->objectName(), label->text())
                       .arg(label->contentsRect().width())
                       .arg(needed);
        if (label->text().endsWith(QChar(0x2026)) && !label->toolTip().isEmpty()
            && !label->toolTip().endsWith(QChar(0x2026)))
            cut << u"label %1 cut to \"%2\""_qs.arg(label->objectName(), label->text());
    }
    return cut;
}

// Qt Charts shortens an axis label that does not fit to "...".
QStringList cutAxisLabels(const QWidget *root)
{
    QStringList cut;
    for (const QChartView *view : root->findChildren<QChartView *>()) {
        if (!view->isVisible())
            continue;
        for (const QGraphicsItem *item : view->scene()->items()) {
            const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
            if (text && text->isVisible() && text->toPlainText().contains(u"..."_qs))
                cut << u"%1 (%3×%4 px): \"%2\""_qs.arg(view->objectName(), text->toPlainText())
                           .arg(view->width())
                           .arg(view->height());
        }
    }
    return cut;
}

// The axis labels the chart views drew: none before they are laid out.
int axisLabels(const QWidget *root)
{
    int labels = 0;
    for (const QChartView *view : root->findChildren<QChartView *>()) {
        for (const QGraphicsItem *item : view->scene()->items()) {
            const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
            labels += text && text->isVisible() && !text->toPlainText().isEmpty() ? 1 : 0;
        }
    }
    return labels;
}

QStringList cutRailNames(const QListWidget *rail)
{
    QStringList cut;
    for (int row = 0; row < rail->count(); ++row) {
        const QListWidgetItem *item = rail->item(row);
        const QRect rect = rail->visualItemRect(item);
        const int needed
            = rail->fontMetrics().horizontalAdvance(item->text()) + 2 * textMargin(rail);
        if (rect.width() < needed || !rail->viewport()->rect().contains(rect))
            cut << u"page name \"%1\": %2 px of %3"_qs.arg(item->text())
                       .arg(rect.width())
                       .arg(needed);
    }
    return cut;
}

// The cells of `column` that wrap (an attempt's message, an error signature): each row shown
// holds its whole text, wrapped at the cell's width.
QStringList cutWrappedCells(const QTableView *view, int column)
{
    QStringList cut;
    const QAbstractItemModel *model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, column);
        const QRect cell = view->visualRect(index);
        if (cell.top() < 0 || cell.top() >= view->viewport()->height())
            continue;
        const QString text = index.data().toString();
        const int width = cell.width() - 2 * textMargin(view);
        const QRect needed = view->fontMetrics().boundingRect(
            QRect(0, 0, std::max(width, 1), 100000), Qt::TextWordWrap, text);
        if (view->isColumnHidden(column) || needed.width() > width
            || needed.height() > cell.height() || cell.right() >= view->viewport()->width())
            cut << u"%1 column %2 \"%3\": %4×%5 px of %6×%7"_qs.arg(view->objectName())
                       .arg(column)
                       .arg(text)
                       .arg(cell.width())
                       .arg(cell.height())
                       .arg(needed.width())
                       .arg(needed.height());
    }
    return cut;
}

// Horizontal scroll bars shown in `widget` or around it (up to `page`).
QStringList horizontalScrolls(const QWidget *widget, const QWidget *page)
{
    QStringList shown;
    QList<const QAbstractScrollArea *> areas;
    for (const QAbstractScrollArea *area : widget->findChildren<QAbstractScrollArea *>())
        areas << area;
    for (const QWidget *w = widget; w && w != page->parentWidget(); w = w->parentWidget()) {
        if (const auto *area = qobject_cast<const QAbstractScrollArea *>(w))
            areas << area;
    }
    for (const QAbstractScrollArea *area : areas) {
        if (area->isVisible() && area->horizontalScrollBar()->isVisible())
            shown << u"%1 (%2) scrolls sideways"_qs.arg(
                area->objectName(), QString::fromLatin1(area->metaObject()->className()));
    }
    return shown;
}

// The status bar's health lines (the refresh, the diagnosis) whole.
QStringList cutStatusLines(const MainWindow &window)
{
    QStringList cut = cutWidgets(&window, window.statusBar());
    const DiagnosisStatusLine *line = window.diagnosisStatus();
    if (line->text().contains(QChar(0x2026)) || line->width() < line->sizeHint().width())
        cut << u"diagnosis line \"%1\" shown as \"%2\" in %3 px of %4"_qs
                   .arg(line->fullText(), line->text())
                   .arg(line->width())
                   .arg(line->sizeHint().width());
    return cut;
}

// Widgets of `page` that the alert bar lies over.
QStringList coveredBy(const QWidget *bar, const QWidget *page)
{
    QStringList covered;
    const QRect over = globalRect(bar);
    for (const QWidget *widget : page->findChildren<QWidget *>()) {
        if (widget->isVisible() && !scrolls(widget, page) && over.intersects(globalRect(widget)))
            covered << u"%1 (%2)"_qs.arg(
                widget->objectName(), QString::fromLatin1(widget->metaObject()->className()));
    }
    return covered;
}

// One of each dialog the window opens, with the longest texts it shows.
struct DialogMaker
{
    QString name;
    std::function<QWidget *()> make;
};

QList<DialogMaker> dialogs()
{
    const QStringList ids = {u"EV-pepo9-00012"_qs, u"EV-mwm0w-00088"_qs};
    const QString payload = u"{\n  \"sku\": \"SKU-1\",\n  \"quantity\": 1\n}"_qs;
    QList<DialogMaker> makers;
    makers << DialogMaker {u"connect"_qs, [] { return new ConnectDialog; }}
           << DialogMaker {u"start"_qs, [] { return new StartWindow; }}
           << DialogMaker {u"replay"_qs, [ids] { return new ReplayDialog(ids, 1762); }}
           << DialogMaker {u"resolve"_qs, [ids] { return new ResolveDialog(ids, 2); }}
           << DialogMaker {u"reopen"_qs, [ids] { return new ReopenDialog(ids, 2); }}
           << DialogMaker {u"note"_qs,
                  [] {
                      return new NoteDialog(NoteDialog::Mode::Add, NoteTarget {{}, LongError});
                  }}
           << DialogMaker {u"edit"_qs,
                  [payload] {
                      return new PayloadEditDialog(u"EV-pepo9-00012"_qs, payload, payload);
                  }}
           << DialogMaker {
                  u"thresholds"_qs, [] { return new ThresholdsDialog(TileThresholds {}); }};
    return makers;
}

} // namespace

class TestPageLayout : public QObject
{
    Q_OBJECT

private slots:
    void everyPageShowsItsTextWhole_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("teaching");
        QTest::addColumn<QString>("theme");
        QTest::addRow("1366x768, the teaching panel open") << Laptop << true << u"system"_qs;
        QTest::addRow("1366x768, dark, the teaching panel open") << Laptop << true << u"dark"_qs;
        QTest::addRow("1920x1080") << FullHd << false << u"system"_qs;
        QTest::addRow("1920x1080, dark") << FullHd << false << u"dark"_qs;
    }

    void everyPageShowsItsTextWhole()
    {
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        const ThemeScope themeScope(theme);
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise(); // marked for simulation: the panel exists
        QVERIFY(parkEvents(setup->database(), 40));
        QVERIFY(addDemoLikeEvents(setup->database()));
        MainWindow window(database->connect(), WindowOptions {}); // Teach in the rail
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.size(), size);
        QTRY_VERIFY(window.eventModel()->rowCount() >= 40);
        // The replayed event: its detail shows its attempts and its replay.
        const QString replayed = deadEvent(window);
        QVERIFY(!replayed.isEmpty());
        replayOneEvent(window, replayed);
        QVERIFY(window.selectEvent(replayed));
        QTRY_VERIFY(window.detailPane()->attemptModel()->rowCount() > 0);
        const auto *replays = window.detailPane()->findChild<QTableView *>(u"eventReplayView"_qs);
        QVERIFY(replays);
        QTRY_VERIFY(replays->isVisible());

        QCOMPARE(cutRailNames(window.pages()->rail()), QStringList());
        const QList<QAction *> pageActions = window.pages()->pageActions();
        QCOMPARE(pageActions.size(), window.pages()->pageKeys().size());
        for (int i = 0; i < pageActions.size(); ++i) {
            pageActions.at(i)->trigger(); // Ctrl+1…
            const QString key = window.pages()->pageKeys().at(i);
            QCOMPARE(window.currentPage(), key);
            QWidget *page = window.pages()->page(key);
            QTRY_VERIFY(page->isVisible());
            waitForContent(window, key, page);
            if (QTest::currentTestFailed())
                return;
            checkPage(window, key, page);
            if (QTest::currentTestFailed())
                return;
        }
        checkAlertBarCoversNothing(window);
    }

    void everyDialogShowsItsTextWhole_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("theme");
        QTest::addRow("1366x768") << Laptop << u"system"_qs;
        QTest::addRow("1366x768, dark") << Laptop << u"dark"_qs;
        QTest::addRow("1920x1080") << FullHd << u"system"_qs;
        QTest::addRow("1920x1080, dark") << FullHd << u"dark"_qs;
    }

    // Each dialog as it opens over a window of `size`: within it, its labels whole.
    void everyDialogShowsItsTextWhole()
    {
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        const ThemeScope themeScope(theme);
        QWidget screen; // the window the dialog opens over
        screen.resize(size);
        screen.show();
        QVERIFY(QTest::qWaitForWindowExposed(&screen));
        for (const auto &[name, make] : dialogs()) {
            std::unique_ptr<QWidget> dialog(make());
            dialog->setParent(&screen, dialog->windowFlags());
            dialog->show();
            QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
            QVERIFY2(dialog->width() <= size.width() && dialog->height() <= size.height(),
                qPrintable(u"%1: %2×%3"_qs.arg(name).arg(dialog->width()).arg(dialog->height())));
            dialog->move(screen.mapToGlobal(QPoint(0, 0)));
            const QStringList cut = cutWidgets(dialog.get(), dialog.get());
            QVERIFY2(cut.isEmpty(), qPrintable(name + u": "_qs + cut.join(u"; "_qs)));
        }
    }

    // The Teach page after the outage storm (the simulator's controls, the diagram, both storm
    // charts, the narration), at a laptop's size and full HD: its text whole, nothing outside.
    void theTeachPageShowsItsTextWhole_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addRow("1366x768") << Laptop;
        QTest::addRow("1920x1080") << FullHd;
    }
    void theTeachPageShowsItsTextWhole()
    {
        QFETCH(QSize, size);
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), WindowOptions {});
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.size(), size);
        window.showPage(TeachPage::Key);
        TeachPage *page = window.teachPage();
        QVERIFY(page);
        page->setRowCount(0, false);
        window.session()->setSpeed(50);
        QVERIFY(page->startByName(u"outage-storm"_qs));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasEnded(), 60000);
        QTRY_VERIFY(axisLabels(page) > 0);
        const QStringList cut = cutWidgets(&window, page) + cutWidgets(&window, window.tiles())
            + cutAxisLabels(page);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(u"; "_qs)));
    }

private:
    // What the page shows once its reads answered: the groups, the lab's simulation, the
    // charts' axes.
    static void waitForContent(const MainWindow &window, const QString &key, QWidget *page)
    {
        if (key == u"errors"_qs)
            QTRY_VERIFY(qobject_cast<ErrorsPage *>(page)->model()->rowCount() > 0);
        if (key == u"policy"_qs)
            QTRY_VERIFY_WITH_TIMEOUT(
                window.policyLab()->peakText().startsWith(u"A: peak"_qs), 30000);
        if (key == u"overview"_qs || key == u"errors"_qs || key == u"policy"_qs)
            QTRY_VERIFY(axisLabels(page) > 0);
    }

    // The signature leads, whole; the others are as wide as their widest value, whatever the
    // read holds; the selected group's bar stands out.
    static QStringList checkErrors(const ErrorsPage *page)
    {
        QTableView *view = page->view();
        QStringList cut = cutCells(view,
            {ErrorGroupModel::EventsColumn, ErrorGroupModel::DeadColumn,
                ErrorGroupModel::TypesColumn});
        cut << cutWrappedCells(view, ErrorGroupModel::SignatureColumn);
        const QHeaderView *header = view->horizontalHeader();
        QList<int> widths;
        for (int column = 0; column < header->count(); ++column) {
            widths << header->sectionSize(column);
            if (column != ErrorGroupModel::SignatureColumn
                && header->sectionSize(column)
                    > header->sectionSize(ErrorGroupModel::SignatureColumn))
                cut << u"column %1 is wider than the signature"_qs.arg(column);
        }
        QList<ErrorGroup> groups = page->model()->groups();
        groups.first().count *= 1000;
        groups.first().eventTypes.insert(u"OrderConfirmationRequested"_qs, 3);
        page->model()->setGroups(groups, QDateTime::currentMSecsSinceEpoch() + 3600 * 1000);
        for (int column = 0; column < header->count(); ++column) {
            if (header->sectionSize(column) != widths.at(column))
                cut << u"column %1 moved from %2 to %3 px with the data"_qs.arg(column)
                           .arg(widths.at(column))
                           .arg(header->sectionSize(column));
        }
        view->setCurrentIndex(page->model()->index(0, 0));
        if (page->selectedBar() < 0)
            cut << u"the selected group's bar is not highlighted"_qs;
        return cut;
    }

    // An alert shown: no page's widget lies under the bar.
    static void checkAlertBarCoversNothing(const MainWindow &window)
    {
        window.alertBar()->addAlert(u"orders"_qs, u"DEAD 2 (limit 0)"_qs);
        QTRY_VERIFY(window.alertBar()->isVisible());
        for (const QString &key : window.pages()->pageKeys()) {
            window.pages()->showPage(key);
            QWidget *page = window.pages()->page(key);
            QTRY_VERIFY(page->isVisible());
            QCoreApplication::sendPostedEvents(); // the layout with the bar in it
            const QStringList covered = coveredBy(window.alertBar(), page);
            QVERIFY2(covered.isEmpty(), qPrintable(key + u": "_qs + covered.join(u", "_qs)));
        }
        window.alertBar()->removeAlerts(u"orders"_qs);
    }

    void replayOneEvent(MainWindow &window, const QString &eventId)
    {
        QSignalSpy replayed(window.operatorActions(), &OperatorActions::replayFinished);
        ReplayRequest request;
        request.eventIds = {eventId};
        request.operatorName = u"dana"_qs;
        request.reason = u"page layout test"_qs;
        window.operatorActions()->startReplay(request);
        QVERIFY(replayed.wait(20000));
        QTRY_COMPARE(window.replayLog()->rowCount(), 1);
    }

    static QString deadEvent(const MainWindow &window)
    {
        const EventListModel *events = window.eventModel();
        for (int row = 0; row < events->rowCount(); ++row) {
            if (events->index(row, 0).data(EventListModel::StatusRole).toString() == u"DEAD"_qs)
                return events->eventIdAt(row);
        }
        return {};
    }

    void checkPage(const MainWindow &window, const QString &key, const QWidget *page)
    {
        QStringList cut = cutWidgets(&window, page) + cutWidgets(&window, window.tiles())
            + cutAxisLabels(page) + cutStatusLines(window);
        if (key == u"events"_qs) {
            cut << cutCells(window.eventView(),
                {EventListModel::EventIdColumn, EventListModel::StateColumn,
                    EventListModel::FailuresColumn, EventListModel::LastErrorColumn});
            const auto *attempts = page->findChild<QTableView *>(u"attemptView"_qs);
            QVERIFY(attempts);
            QTRY_VERIFY(attempts->model()->rowCount() > 0);
            cut << cutCells(
                attempts, {AttemptModel::OutcomeColumn, AttemptModel::ConsumerResultColumn});
            cut << cutWrappedCells(attempts, AttemptModel::ErrorColumn);
            const auto *replays = page->findChild<QTableView *>(u"eventReplayView"_qs);
            QVERIFY(replays && replays->isVisible());
            cut << cutWrappedCells(replays, ReplayLogModel::ReasonColumn); // the room left
            cut << horizontalScrolls(window.detailPane(), page);
        }
        if (key == u"errors"_qs)
            cut << checkErrors(qobject_cast<const ErrorsPage *>(page));
        if (key == u"audit"_qs) {
            auto *log = page->findChild<QTreeView *>(u"replayLogView"_qs);
            QVERIFY(log);
            QTRY_COMPARE(log->model()->rowCount(), 1); // one job
            cut << cutTreeCells(log, {ReplayLogModel::WhenColumn, ReplayLogModel::EventColumn});
        }
        QVERIFY2(cut.isEmpty(), qPrintable(key + u": "_qs + cut.join(u"; "_qs)));
    }
};

OUTBOX_TEST_MAIN(TestPageLayout, QApplication)
#include "tst_pagelayout.moc"
