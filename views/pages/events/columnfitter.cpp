#include "columnfitter.h"

#include "eventlistmodel.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QHeaderView>
#include <QStyle>
#include <QTableView>
#include <algorithm>
#include <cmath>

namespace {

// What an operator reads first: shown whole, whatever the outbox's IDs or errors look like.
constexpr int KeyColumns[] = {EventListModel::EventIdColumn, EventListModel::StateColumn,
    EventListModel::FailuresColumn, EventListModel::LastErrorColumn};

bool isKeyColumn(int column)
{
    return std::find(std::begin(KeyColumns), std::end(KeyColumns), column) != std::end(KeyColumns);
}

} // namespace

ColumnFitter::ColumnFitter(QTableView *view, EventListModel *model, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_model(model)
{
    m_view->horizontalHeader()->setResizeContentsPrecision(200); // the rows on screen and more
    const auto all = [this] { markDirty(0, EventListModel::ColumnCount - 1); };
    connect(m_model, &QAbstractItemModel::modelReset, this, all);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, all);
    connect(m_model, &QAbstractItemModel::dataChanged, this,
        [this](const QModelIndex &from, const QModelIndex &to) {
            markDirty(from.column(), to.column());
        });
    connect(m_model, &EventListModel::loaded, this, [this] {
        if (!m_stopped && m_model->rowCount() > 0 && !m_dirty.isEmpty())
            fitChanged();
    });
    m_view->installEventFilter(this); // a theme or font change measures again
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!m_fitting && QGuiApplication::mouseButtons() != Qt::NoButton)
            m_stopped = true; // the operator dragged a column's edge: their widths from now on
    });
}

void ColumnFitter::markDirty(int first, int last)
{
    for (int column = first; column <= last; ++column)
        m_dirty.insert(column);
}

void ColumnFitter::fitNow()
{
    markDirty(0, EventListModel::ColumnCount - 1);
    fitChanged();
}

bool ColumnFitter::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if ((type == QEvent::StyleChange || type == QEvent::FontChange) && watched == m_view
        && !m_stopped && m_model->rowCount() > 0) {
        for (const int column : KeyColumns)
            m_dirty.insert(column);
        fitChanged();
    }
    return QObject::eventFilter(watched, event);
}

int ColumnFitter::keyColumnsWidth() const
{
    int width = 0;
    for (const int column : KeyColumns)
        width += m_view->isColumnHidden(column) ? 0 : m_view->columnWidth(column);
    return width;
}

void ColumnFitter::fitChanged()
{
    if (m_stopped)
        return;
    QHeaderView *header = m_view->horizontalHeader();
    m_fitting = true;
    const QSet<int> dirty = std::exchange(m_dirty, {});
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column) || !dirty.contains(column)
            || (m_restored && !isKeyColumn(column)))
            continue;
        if (column == EventListModel::LastErrorColumn) // wherever it stands
            fitColumn(column, LastMinWidth, LastMaxWidth);
        else
            fitColumn(column, MinWidth, MaxWidth);
    }
    m_fitting = false;
    emit fitted();
}

// Grows only: a column once wide enough for a long value keeps that width.
void ColumnFitter::fitColumn(int column, int floor, int ceiling)
{
    QHeaderView *header = m_view->horizontalHeader();
    const int before = header->sectionSize(column);
    m_view->resizeColumnToContents(column);
    const int content = qMax(header->sectionSize(column), textWidth(column));
    const int fitted = qBound(floor, content, ceiling);
    header->resizeSection(column, qMax(before, fitted));
}

// The widest text of a key column as the style draws it: its advance in fractions of a pixel
// rounded up, the style's text margins on both sides, the grid line and a pixel for rounding
// (resizeColumnToContents alone left demo IDs a few pixels short). 0 for other columns.
int ColumnFitter::textWidth(int column) const
{
    if (!isKeyColumn(column))
        return 0;
    const int margin
        = m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1;
    const QFontMetricsF metrics(m_view->font());
    qreal widest = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex index = m_model->index(row, column);
        const QVariant font = index.data(Qt::FontRole);
        const qreal advance = font.isValid()
            ? QFontMetricsF(font.value<QFont>()).horizontalAdvance(index.data().toString())
            : metrics.horizontalAdvance(index.data().toString());
        widest = qMax(widest, advance);
    }
    constexpr int Rounding = 1;
    return widest <= 0
        ? 0
        : int(std::ceil(widest)) + 2 * margin + (m_view->showGrid() ? 1 : 0) + Rounding;
}
