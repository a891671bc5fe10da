// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

namespace gantry::storage {

// What a running copy has done so far, written by its worker and read on the GUI thread.
struct CopyProgress
{
    std::atomic<qint64> totalBytes{0}; // 0 until planned
    std::atomic<qint64> doneBytes{0};
    std::atomic<int> totalFiles{0};
    std::atomic<int> doneFiles{0};
    std::atomic<int> sizeOnlyFiles{0}; // checked by size alone: the storage kept no checksum for them
};

enum class CopyJobState
{
    Running,
    Done,
    Failed,
    Cancelled,
};

struct CopyJob
{
    quint64 id = 0;
    QString title;   // "s3://data/run → gpu-a:/data/"
    QStringList hosts; // the machines it reads or writes (none: between here and a bucket)
    CopyJobState state = CopyJobState::Running;
    QString message; // the summary once done, the reason once failed
    ErrorCode errorCode = ErrorCode::Generic;
    std::shared_ptr<CopyProgress> progress = std::make_shared<CopyProgress>();
    QDateTime started;
    double seconds = 0; // start to end, once ended
    CancelToken token;

    bool isRunning() const { return state == CopyJobState::Running; }
    // Planned: its files and bytes are known (a copy between machines may never know its bytes).
    bool isPlanned() const { return progress->totalFiles.load() > 0; }
};

// The copies that go through a bucket or straight between machines — the Storage panel's and
// the Transfers queue's rows of them, one list on the GUI thread. Each runs on background::run;
// its Cancel stops that one only. Progress is announced in one batched jobsChanged every 250 ms.
class CopyJobs final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CopyJobs)

public:
    // The worker's result: one line for the row when it ended.
    using Work = std::function<Result<QString>(const CancelToken &, CopyProgress &)>;

    explicit CopyJobs(QObject *parent = nullptr);

    // Starts `work` under `title`; `finished` runs on this thread after it ended well.
    quint64 start(const QString &title, const QStringList &hosts, Work work, std::function<void()> finished = {});
    void cancel(quint64 id);
    // Takes an ended copy off the list (a running one is cancelled first, and goes when it ends).
    void remove(quint64 id);
    void removeFinished();

    const QList<CopyJob> &jobs() const { return m_jobs; }
    const CopyJob *job(quint64 id) const;
    int rowOf(quint64 id) const;
    int runningCount() const;
    // A copy reading or writing this machine (any, when empty) still runs.
    bool hasRunning(const QString &host = {}) const;

signals:
    void jobAboutToBeAdded(int row);
    void jobAdded(int row);
    void jobAboutToBeRemoved(int row);
    void jobRemoved(int row);
    void jobsChanged(int firstRow, int lastRow);
    void jobFinished(quint64 id);
    void allFinished();

private:
    void ended(quint64 id, const Result<QString> &result, const std::function<void()> &finished);
    void takeAt(int row);
    void tick();

    QList<CopyJob> m_jobs;
    QList<quint64> m_removeWhenEnded;
    quint64 m_nextId = 1;
    QTimer m_ticker;
};

QString copyJobStateName(CopyJobState state);

} // namespace gantry::storage
