// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>

class QTimer;
class QVBoxLayout;

namespace gantry::ui {

// What a running copy has done so far, written by its worker and read by the panel's timer.
struct CopyProgress
{
    std::atomic<qint64> totalBytes{0}; // 0 until planned
    std::atomic<qint64> doneBytes{0};
    std::atomic<int> totalFiles{0};
    std::atomic<int> doneFiles{0};
};

// The Storage panel's copies, one row each: what it copies, a progress bar, files and bytes so far,
// and Cancel while it runs (Dismiss once it ended). Each copy runs on background::run; its Cancel
// stops that one only. Copies that go through a bucket are not in the Transfers queue (its items
// are SFTP transfers to one machine), so they are shown here.
class CopyOperations final : public QWidget
{
    Q_OBJECT

public:
    // The worker's result: one line for the row when it ended.
    using Work = std::function<Result<QString>(const CancelToken &, CopyProgress &)>;

    explicit CopyOperations(QWidget *parent = nullptr);

    // Starts `work` under a row titled `title`; `finished` runs on this thread after it ended well.
    void start(const QString &title, Work work, std::function<void()> finished = {});
    int runningCount() const { return m_running; }
    // The rows' texts (tests).
    QStringList rowTexts() const;

signals:
    void allFinished();

private:
    struct Row;
    void refresh();

    QVBoxLayout *m_rows = nullptr;
    QTimer *m_timer = nullptr;
    std::vector<std::shared_ptr<Row>> m_live;
    int m_running = 0;
};

} // namespace gantry::ui
