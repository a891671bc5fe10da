// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/copyjobs.h"

#include <QHash>
#include <QWidget>

class QTimer;
class QVBoxLayout;

namespace gantry::ui {

using storage::CopyProgress;

// The Storage panel's copies, one row each: what it copies, a progress bar, files and bytes so far,
// and Cancel while it runs (Dismiss once it ended). The copies themselves are the application's
// storage::CopyJobs, which the Transfers queue shows too; a panel made without it keeps its own.
class CopyOperations final : public QWidget
{
    Q_OBJECT

public:
    using Work = storage::CopyJobs::Work;

    explicit CopyOperations(storage::CopyJobs *jobs = nullptr, QWidget *parent = nullptr);

    // Starts `work` under a row titled `title`; `finished` runs on this thread after it ended well.
    // `hosts`: the machines it reads or writes (the Transfers queue and closing the app ask about them).
    void start(const QString &title, Work work, std::function<void()> finished = {}, const QStringList &hosts = {});
    int runningCount() const { return m_jobs->runningCount(); }
    storage::CopyJobs *jobs() const { return m_jobs; }
    // The rows' texts (tests).
    QStringList rowTexts() const;

signals:
    void allFinished();

private:
    struct Row;
    void addRow(int jobRow);
    void removeRow(int jobRow);
    void refresh(const storage::CopyJob &job);

    storage::CopyJobs *m_jobs;
    QVBoxLayout *m_rows = nullptr;
    QHash<quint64, std::shared_ptr<Row>> m_live;
};

} // namespace gantry::ui
