// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/verify/acceptance.h"

#include <QAbstractTableModel>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace gantry::ui {

// The acceptance test's checks: GPU (or "Machine"), check, status, detail.
class AcceptanceModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AcceptanceModel)

public:
    enum Column
    {
        GpuColumn,
        CheckColumn,
        StatusColumn,
        DetailColumn,
        ColumnCount
    };

    explicit AcceptanceModel(QObject *parent = nullptr);
    void setChecks(const QList<verify::AcceptCheck> &checks);
    const QList<verify::AcceptCheck> &checks() const { return m_checks; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<verify::AcceptCheck> m_checks;
};

// The Verify tab's acceptance result: the verdict with its next step, the reasons, every check,
// and Save report… (the printable HTML a refund request needs, written off the GUI thread).
class AcceptancePanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AcceptancePanel)

public:
    explicit AcceptancePanel(QWidget *parent = nullptr);

    void setAcceptance(const verify::Acceptance &acceptance);
    void clear();
    AcceptanceModel *model() const { return m_model; }
    QString verdictText() const;
    // Writes the report to path (the Save button asks for one); done on the GUI thread.
    void saveReport(const QString &path);

signals:
    void reportSaved(const QString &path, const QString &error);

private:
    std::optional<verify::Acceptance> m_acceptance;
    QLabel *m_verdict = nullptr;
    QLabel *m_reasons = nullptr;
    QPushButton *m_save = nullptr;
    QTableView *m_view = nullptr;
    AcceptanceModel *m_model = nullptr;
};

} // namespace gantry::ui
