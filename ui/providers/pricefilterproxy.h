#pragma once

#include <QSortFilterProxyModel>

namespace gantry::ui {

// Filters the price table by GPU model text, minimum VRAM per GPU, maximum $/h and "available
// now"; sorts on raw values.
class PriceFilterProxy final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PriceFilterProxy)

public:
    explicit PriceFilterProxy(QObject *parent = nullptr);

    void setGpuText(const QString &text);
    void setMinVramGb(int gb);
    void setMaxPricePerHour(double usd); // 0: no limit
    void setAvailableOnly(bool on);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_gpuText;
    int m_minVram = 0;
    double m_maxPrice = 0;
    bool m_availableOnly = false;
};

} // namespace gantry::ui
