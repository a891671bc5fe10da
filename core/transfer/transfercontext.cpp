#include "core/transfer/transfercontext.h"

#include <QRandomGenerator>

namespace gantry::transfer {

TransferContext::TransferContext(SessionFactory factory, const std::atomic_bool *cancel, JournalStore *journals,
                                 QString host, TransferOptions options, ProgressSink sink, ConflictResolver resolver)
    : m_factory(std::move(factory))
    , m_cancel(cancel)
    , m_journals(journals)
    , m_host(std::move(host))
    , m_options(options)
    , m_sink(std::move(sink))
    , m_resolver(std::move(resolver))
    , m_attemptToken(QString::number(QRandomGenerator::global()->generate64(), 36))
{
}

void TransferContext::addTotals(quint64 bytes, int files)
{
    std::unique_lock lock(m_mutex);
    m_progress.bytesTotal += bytes;
    m_progress.filesTotal += files;
    maybeReport(lock);
}

void TransferContext::addDone(quint64 payload, quint64 wire)
{
    std::unique_lock lock(m_mutex);
    m_progress.bytesDone += payload;
    m_progress.wireBytes += wire;
    maybeReport(lock);
}

void TransferContext::addResumed(quint64 bytes)
{
    std::unique_lock lock(m_mutex);
    m_progress.resumedBytes += bytes;
    m_progress.bytesDone += bytes;
    maybeReport(lock);
}

void TransferContext::addFilesDone(int files)
{
    std::unique_lock lock(m_mutex);
    m_progress.filesDone += files;
    maybeReport(lock);
}

void TransferContext::restartProgress()
{
    std::unique_lock lock(m_mutex);
    const quint64 wire = m_progress.wireBytes;
    const QString destination = m_progress.destination;
    m_progress = TransferProgress{};
    m_progress.wireBytes = wire;
    m_progress.destination = destination;
    m_swept.clear(); // a new attempt sweeps again: the last one's sweeping batch may never have run
}

void TransferContext::setCurrentFile(const QString &name)
{
    std::unique_lock lock(m_mutex);
    m_progress.currentFile = name;
}

void TransferContext::setDestination(const QString &path)
{
    std::unique_lock lock(m_mutex);
    m_progress.destination = path;
}

TransferProgress TransferContext::snapshot() const
{
    std::lock_guard lock(m_mutex);
    return m_progress;
}

void TransferContext::flush()
{
    if (!m_sink) return;
    const TransferProgress p = snapshot();
    m_sink(p);
}

void TransferContext::maybeReport(std::unique_lock<std::mutex> &lock)
{
    if (!m_sink) return;
    if (m_lastReport.isValid() && m_lastReport.elapsed() < 100) return;
    m_lastReport.start();
    const TransferProgress p = m_progress;
    lock.unlock();
    m_sink(p);
}

} // namespace gantry::transfer
