// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace gantry::monitor {
struct Alert;
}

namespace gantry::ui::monitor {

// The alerts of the machine shown, newest first, under a heading like the process table's beside
// it. Without any it says what would appear here, so the box is never an empty frame.
class AlertsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AlertsPanel)

public:
    explicit AlertsPanel(QWidget *parent = nullptr);

    void addAlert(const gantry::monitor::Alert &alert);
    // A line of the idle policy (countdown stopped, action blocked or requested).
    void addNote(const QString &text);
    void clear();
    int count() const;
    QString text(int row) const;
    // The empty state's text while there is no alert; empty otherwise.
    QString emptyText() const;

private:
    void insert(const QString &text);
    void updateEmpty();

    QListWidget *m_list;
    QLabel *m_empty;
    QPushButton *m_clear;
};

} // namespace gantry::ui::monitor
