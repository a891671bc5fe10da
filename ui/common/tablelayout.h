#pragma once

#include <QString>

class QAbstractItemView;
class QHeaderView;

namespace gantry::ui {

// Column layout shared by the panels' tables and trees, so they fit a 1024×700 window without a horizontal
// scrollbar: every column as wide as its content (header text included, so headers are never
// elided), one column takes the rest, and widths the user drags are kept in window.ini.
class TableLayout final
{
public:
    // Columns sized to content, `stretchColumn` (or the last when -1) stretches; no fixed widths
    // that elide "H100 SXM" or an SSH address. Horizontal scrolling only when the content really
    // does not fit.
    static void fitToWidth(QAbstractItemView *view, int stretchColumn = -1);
    // Restores the header's saved section sizes (if any) and saves them whenever the user resizes a
    // column. A restored width never stays below what the header and the content need (checked
    // again when rows arrive). key: "prices", "instances", … in <configDir>/window.ini.
    static void persist(QHeaderView *header, const QString &configDir, const QString &key);
    // Sum of the column widths the content asks for (for tests: fits the viewport?).
    static int contentWidth(const QAbstractItemView *view);
    // The horizontal header of a QTableView or the header of a QTreeView.
    static QHeaderView *headerOf(const QAbstractItemView *view);
};

} // namespace gantry::ui
