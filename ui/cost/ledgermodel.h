#pragma once

#include "core/cost/ledger.h"

#include <QAbstractTableModel>

namespace gantry::ui {

// The cost ledger as a table; reload() re-reads it (meters move on each reload).
class LedgerModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LedgerModel)

public:
    enum Column { NameColumn, ProviderColumn, TypeColumn, StateColumn, PriceColumn, LaunchedColumn, EndedColumn, CostColumn, StorageColumn, NoteColumn, ColumnCount };
    enum Role { RawValueRole = Qt::UserRole };

    explicit LedgerModel(cost::Ledger *ledger, QObject *parent = nullptr);

    void reload();
    const QList<cost::LedgerEntry> &entries() const { return m_entries; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    cost::Ledger *m_ledger;
    QList<cost::LedgerEntry> m_entries;
};

} // namespace gantry::ui
