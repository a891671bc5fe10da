// SPDX-License-Identifier: Apache-2.0
#include "core/storage/copyjobs.h"

#include "core/storage/storagetext.h"
#include "core/util/background.h"

namespace gantry::storage {

CopyJobs::CopyJobs(QObject *parent) : QObject(parent)
{
    m_ticker.setInterval(250);
    connect(&m_ticker, &QTimer::timeout, this, &CopyJobs::tick);
}

quint64 CopyJobs::start(const QString &title, const QStringList &hosts, Work work, std::function<void()> finished)
{
    CopyJob job;
    job.id = m_nextId++;
    job.title = title;
    job.hosts = hosts;
    job.started = QDateTime::currentDateTimeUtc();
    const quint64 id = job.id;
    // Its end is posted to this thread, so the job is in the list before it can arrive.
    job.token = background::run<Result<QString>>(
        this, [work = std::move(work), progress = job.progress](const CancelToken &token) { return work(token, *progress); },
        [this, id, finished = std::move(finished)](Result<QString> result) { ended(id, result, finished); });
    const int row = int(m_jobs.size());
    emit jobAboutToBeAdded(row);
    m_jobs.append(job);
    emit jobAdded(row);
    m_ticker.start();
    return id;
}

void CopyJobs::ended(quint64 id, const Result<QString> &result, const std::function<void()> &finished)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    CopyJob &job = m_jobs[row];
    job.seconds = double(job.started.msecsTo(QDateTime::currentDateTimeUtc())) / 1000.0;
    if (result) {
        job.state = CopyJobState::Done;
        job.message = *result;
    } else {
        job.state = result.error().code == ErrorCode::Cancelled ? CopyJobState::Cancelled : CopyJobState::Failed;
        job.errorCode = result.error().code;
        job.message = result.error().message;
    }
    emit jobsChanged(row, row);
    emit jobFinished(id);
    if (result && finished)
        finished();
    if (m_removeWhenEnded.removeAll(id) > 0 && rowOf(id) >= 0)
        takeAt(rowOf(id));
    if (runningCount() == 0) {
        m_ticker.stop();
        emit allFinished();
    }
}

void CopyJobs::cancel(quint64 id)
{
    const int row = rowOf(id);
    if (row >= 0 && m_jobs[row].isRunning())
        m_jobs[row].token.cancel();
}

void CopyJobs::remove(quint64 id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    if (m_jobs[row].isRunning()) {
        m_jobs[row].token.cancel();
        m_removeWhenEnded.append(id);
        return;
    }
    takeAt(row);
}

void CopyJobs::removeFinished()
{
    for (int row = int(m_jobs.size()) - 1; row >= 0; --row) {
        if (!m_jobs[row].isRunning())
            takeAt(row);
    }
}

void CopyJobs::takeAt(int row)
{
    emit jobAboutToBeRemoved(row);
    m_jobs.removeAt(row);
    emit jobRemoved(row);
}

const CopyJob *CopyJobs::job(quint64 id) const
{
    const int row = rowOf(id);
    return row >= 0 ? &m_jobs[row] : nullptr;
}

int CopyJobs::rowOf(quint64 id) const
{
    for (int row = 0; row < m_jobs.size(); ++row) {
        if (m_jobs[row].id == id)
            return row;
    }
    return -1;
}

int CopyJobs::runningCount() const
{
    return int(std::count_if(m_jobs.cbegin(), m_jobs.cend(), [](const CopyJob &j) { return j.isRunning(); }));
}

bool CopyJobs::hasRunning(const QString &host) const
{
    return std::any_of(m_jobs.cbegin(), m_jobs.cend(),
                       [&](const CopyJob &j) { return j.isRunning() && (host.isEmpty() || j.hosts.contains(host)); });
}

void CopyJobs::tick()
{
    int first = -1;
    int last = -1;
    for (int row = 0; row < m_jobs.size(); ++row) {
        if (!m_jobs[row].isRunning())
            continue;
        if (first < 0)
            first = row;
        last = row;
    }
    if (first >= 0)
        emit jobsChanged(first, last);
}

QString copyJobStateName(CopyJobState state)
{
    switch (state) {
    case CopyJobState::Running:
        return StorageText::tr("Copying");
    case CopyJobState::Done:
        return StorageText::tr("Done");
    case CopyJobState::Failed:
        return StorageText::tr("Failed");
    case CopyJobState::Cancelled:
        return StorageText::tr("Cancelled");
    }
    return {};
}

} // namespace gantry::storage
