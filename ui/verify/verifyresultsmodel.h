#pragma once

#include "core/verify/report.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// One row per (GPU, test) of a gantry-verify report.
class VerifyResultsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyResultsModel)

public:
    enum Column
    {
        GpuColumn,
        TestColumn,
        MeasuredColumn,
        ExpectedColumn,
        RatioColumn,
        VerdictColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole, // raw numbers / severity, so sorting never parses text
        VerdictRole,             // int(verify::Verdict), the effective status
    };

    explicit VerifyResultsModel(QObject *parent = nullptr);

    void setReport(const verify::Report &report);
    void clear();
    const verify::Report &report() const { return m_report; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        int gpu = 0;
        QString gpuName;
        verify::TestResult test;
        verify::Verdict effective = verify::Verdict::Skip;
    };
    verify::Report m_report;
    QList<Row> m_rows;
};

} // namespace gantry::ui
