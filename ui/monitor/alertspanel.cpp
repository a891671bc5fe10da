// SPDX-License-Identifier: Apache-2.0
#include "ui/monitor/alertspanel.h"

#include "core/monitor/alerts.h"

#include <QLabel>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace gantry::ui::monitor {

namespace {
QString severityText(gantry::monitor::AlertSeverity s)
{
    switch (s) {
    case gantry::monitor::AlertSeverity::Hint: return AlertsPanel::tr("Hint");
    case gantry::monitor::AlertSeverity::Warning: return AlertsPanel::tr("Warning");
    case gantry::monitor::AlertSeverity::Critical: return AlertsPanel::tr("Critical");
    }
    return {};
}

constexpr int kMaxAlerts = 200;
} // namespace

AlertsPanel::AlertsPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_empty(new QLabel(this))
    , m_clear(new QPushButton(tr("Clear"), this))
{
    auto *title = new QLabel(tr("Alerts"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    m_clear->setToolTip(tr("Remove the alerts shown; conditions that still hold are not reported again until they clear"));
    connect(m_clear, &QPushButton::clicked, this, &AlertsPanel::clear);
    auto *head = new QHBoxLayout; // a row like the process table's heading, with its button
    head->addWidget(title, 1);
    head->addWidget(m_clear);
    m_list->setWordWrap(true);
    m_empty->setText(tr("No alerts. Gantry warns here when the GPUs idle while billing or wait on their input, "
                        "memory runs full, a GPU throttles or reports errors."));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setContentsMargins(6, 6, 6, 6);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setAutoFillBackground(true);
    m_empty->setBackgroundRole(QPalette::Base);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(head);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_list, 1);
    updateEmpty();
}

void AlertsPanel::addAlert(const gantry::monitor::Alert &alert)
{
    const QString when = alert.since.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
    insert(QStringLiteral("%1 %2: %3").arg(when, severityText(alert.severity), alert.message));
}

void AlertsPanel::addNote(const QString &text)
{
    insert(text);
}

void AlertsPanel::insert(const QString &text)
{
    m_list->insertItem(0, text);
    while (m_list->count() > kMaxAlerts)
        delete m_list->takeItem(m_list->count() - 1);
    updateEmpty();
}

void AlertsPanel::clear()
{
    m_list->clear();
    updateEmpty();
}

int AlertsPanel::count() const
{
    return m_list->count();
}

QString AlertsPanel::text(int row) const
{
    const QListWidgetItem *item = m_list->item(row);
    return item ? item->text() : QString();
}

QString AlertsPanel::emptyText() const
{
    return m_list->count() == 0 ? m_empty->text() : QString();
}

void AlertsPanel::updateEmpty()
{
    const bool empty = m_list->count() == 0;
    m_empty->setVisible(empty);
    m_list->setVisible(!empty);
    m_clear->setEnabled(!empty);
}

} // namespace gantry::ui::monitor
