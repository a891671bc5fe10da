#pragma once

#include "core/monitor/samples.h"

#include <QList>
#include <QStringList>
#include <QWidget>

namespace gantry::ui::monitor {

// The current value of every GPU as numbers and bars, like nvitop's top half: utilization,
// memory used/total, temperature, power/limit. One custom-painted widget (no child per cell):
// at 1 Hz with 8 GPUs it costs one paint, and only when a value changed.
class GpuNowPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GpuNowPanel)

public:
    explicit GpuNowPanel(QWidget *parent = nullptr);

    void setGpus(const QList<gantry::monitor::GpuSample> &gpus);
    int rowCount() const { return int(m_gpus.size()); }
    // The texts of one row as painted (label, name, utilization, memory, temperature, power).
    QStringList rowTexts(int row) const;
    // Texts that did not fit their cell at the current width (tests assert there are none).
    QStringList elidedTexts() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    struct Columns
    {
        QRect label, name, util, gpm, memory, temperature, power; // gpm: empty where no GPU reports GPM
    };
    Columns columnsFor(const QRect &row) const;
    int rowHeight() const;
    bool showsGpm() const;
    void paintBar(QPainter &painter, const QRect &rect, std::optional<double> fraction, const QString &text) const;

    QList<gantry::monitor::GpuSample> m_gpus;
};

} // namespace gantry::ui::monitor
