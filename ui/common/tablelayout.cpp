#include "ui/common/tablelayout.h"

#include <QAbstractItemModel>
#include <QDir>
#include <QEvent>
#include <QHeaderView>
#include <QSettings>
#include <QTableView>
#include <QTimer>
#include <QTreeView>

namespace gantry::ui {
namespace {

// Set once the user drags a column edge in this run: from then on the widths are theirs and
// content changes no longer resize columns.
constexpr const char *kUserSized = "gantryUserSized";
// Set when widths saved in an earlier run were restored: they are kept, but never below what the
// header and the content need (widths saved from an empty table elided every price as "$…0").
constexpr const char *kRestored = "gantryRestored";
// While a mouse button is down on the header: a resize then is the user's drag (or double-click),
// not a layout pass that happens to run during a click elsewhere.
constexpr const char *kHeaderPressed = "gantryHeaderPressed";
constexpr const char *kFitting = "gantryFitting";
constexpr const char *kRefit = "gantryRefit";

constexpr const char *kStretch = "gantryStretchColumn";

// The highest width cap at which the capped columns fit `room` (each keeps at least its floor):
// when the content is wider than the view, the widest cells give way first (they elide in the
// middle), and no column drops below its header text.
int capToFit(const QList<int> &wanted, const QList<int> &floors, int room)
{
    auto total = [&](int cap) {
        int sum = 0;
        for (qsizetype i = 0; i < wanted.size(); ++i)
            sum += std::max(floors[i], std::min(wanted[i], cap));
        return sum;
    };
    int low = 0, high = 1;
    for (const int w : wanted)
        high = std::max(high, w);
    if (total(high) <= room)
        return high;
    while (low < high) {
        const int mid = (low + high + 1) / 2;
        if (total(mid) <= room)
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}

void fitColumns(QAbstractItemView *view)
{
    if (view->property(kUserSized).toBool() || !view->model())
        return;
    QHeaderView *header = TableLayout::headerOf(view);
    const int stretch = view->property(kStretch).toInt();
    // The header's own text counts, so headers are never elided.
    // One long cell (an error message, a path) must not push the rest out of a 1024 px window:
    // content gets at most ~45 characters, the header text always fits.
    const int cap = view->fontMetrics().averageCharWidth() * 45;
    QList<int> columns, wanted, floors;
    int room = view->viewport()->width();
    for (int i = 0; i < header->count(); ++i) {
        if (header->isSectionHidden(i))
            continue;
        if (i == stretch || header->sectionResizeMode(i) != QHeaderView::Interactive) {
            room -= header->sectionSizeHint(i); // the stretching column keeps at least its header
            continue;
        }
        columns << i;
        floors << header->sectionSizeHint(i);
        wanted << std::max(header->sectionSizeHint(i), std::min(cap, view->sizeHintForColumn(i)));
    }
    const int fitCap = capToFit(wanted, floors, room);
    const bool restored = view->property(kRestored).toBool();
    view->setProperty(kFitting, true);
    for (qsizetype k = 0; k < columns.size(); ++k) {
        const int fit = std::max(floors[k], std::min(wanted[k], fitCap));
        if (!restored || header->sectionSize(columns[k]) < fit)
            header->resizeSection(columns[k], fit);
    }
    view->setProperty(kFitting, false);
}

// Tells a drag on the header from a resize that happens while the mouse is down elsewhere (a
// click on the section list shows the panel and stretches its last column).
class HeaderPress final : public QObject
{
public:
    HeaderPress(QAbstractItemView *view, QObject *parent) : QObject(parent), m_view(view) {}

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        const QEvent::Type type = event->type();
        if (type == QEvent::MouseButtonPress || type == QEvent::MouseButtonDblClick)
            m_view->setProperty(kHeaderPressed, true);
        else if (type == QEvent::MouseButtonRelease)
            m_view->setProperty(kHeaderPressed, false);
        return QObject::eventFilter(watched, event);
    }

private:
    QAbstractItemView *m_view;
};

// Refits when the view is resized (a narrower window shrinks the widest columns again).
class RefitOnResize final : public QObject
{
public:
    RefitOnResize(QTimer *timer, QObject *parent) : QObject(parent), m_timer(timer) {}

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            m_timer->start();
        return QObject::eventFilter(watched, event);
    }

private:
    QTimer *m_timer;
};

} // namespace

QHeaderView *TableLayout::headerOf(const QAbstractItemView *view)
{
    if (auto *table = qobject_cast<const QTableView *>(view))
        return table->horizontalHeader();
    if (auto *tree = qobject_cast<const QTreeView *>(view))
        return tree->header();
    return nullptr;
}

void TableLayout::fitToWidth(QAbstractItemView *view, int stretchColumn)
{
    QHeaderView *header = headerOf(view);
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(view->fontMetrics().averageCharWidth() * 4);
    header->setSectionResizeMode(QHeaderView::Interactive);
    const int columns = view->model() ? view->model()->columnCount() : 0;
    const int stretch = stretchColumn >= 0 ? stretchColumn : columns - 1;
    if (stretch >= 0 && stretch < columns)
        header->setSectionResizeMode(stretch, QHeaderView::Stretch);
    view->setProperty(kStretch, stretch);
    if (auto *table = qobject_cast<QTableView *>(view))
        table->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle); // if anything must give, keep both ends of a path or address
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);

    // Refit after the rows change, coalesced into one pass per event-loop turn.
    auto *timer = new QTimer(view);
    timer->setObjectName(QString::fromLatin1(kRefit));
    timer->setSingleShot(true);
    timer->setInterval(0);
    QObject::connect(timer, &QTimer::timeout, view, [view] { fitColumns(view); });
    view->viewport()->installEventFilter(new RefitOnResize(timer, view));
    if (QAbstractItemModel *model = view->model()) {
        QObject::connect(model, &QAbstractItemModel::modelReset, timer, qOverload<>(&QTimer::start));
        QObject::connect(model, &QAbstractItemModel::rowsInserted, timer, qOverload<>(&QTimer::start));
        QObject::connect(model, &QAbstractItemModel::layoutChanged, timer, qOverload<>(&QTimer::start));
    }
    header->viewport()->installEventFilter(new HeaderPress(view, view));
    QObject::connect(header, &QHeaderView::sectionResized, view, [view](int, int, int) {
        if (!view->property(kFitting).toBool() && view->property(kHeaderPressed).toBool())
            view->setProperty(kUserSized, true);
    });
    fitColumns(view);
}

void TableLayout::persist(QHeaderView *header, const QString &configDir, const QString &key)
{
    const QString file = QDir(configDir).filePath(QStringLiteral("window.ini"));
    const QString name = QStringLiteral("columns/") + key;
    const QByteArray saved = QSettings(file, QSettings::IniFormat).value(name).toByteArray();
    auto *view = qobject_cast<QAbstractItemView *>(header->parentWidget());
    if (!saved.isEmpty() && header->restoreState(saved) && view) {
        view->setProperty(kRestored, true);
        // Rows already there (a cached price list) are measured now, the rest when they arrive.
        if (auto *refit = view->findChild<QTimer *>(QString::fromLatin1(kRefit), Qt::FindDirectChildrenOnly))
            refit->start();
    }
    // Saved a moment after the last drag: one write per resize, not one per pixel.
    auto *timer = new QTimer(header);
    timer->setSingleShot(true);
    timer->setInterval(500);
    QObject::connect(timer, &QTimer::timeout, header, [header, file, name] {
        QSettings(file, QSettings::IniFormat).setValue(name, header->saveState());
    });
    QObject::connect(header, &QHeaderView::sectionResized, timer, [timer, view](int, int, int) {
        if (!view || view->property(kUserSized).toBool() || view->property(kRestored).toBool())
            timer->start();
    });
}

int TableLayout::contentWidth(const QAbstractItemView *view)
{
    int width = 0;
    const QHeaderView *header = headerOf(view);
    for (int i = 0; i < header->count(); ++i) {
        if (!header->isSectionHidden(i))
            width += std::max(header->sectionSizeHint(i), view->sizeHintForColumn(i));
    }
    return width;
}

} // namespace gantry::ui
