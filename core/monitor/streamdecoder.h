#pragma once

#include "core/monitor/gpmreader.h"
#include "core/monitor/procparser.h"
#include "core/monitor/samples.h"
#include "core/util/clock.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>

#include <functional>

namespace gantry::monitor {

// Turns the tagged line stream of streamCommand() into MachineSamples. Pure (no I/O), so the whole
// decoding path is tested without SSH. A sample is emitted when a GPU group is complete (all
// `count` rows of one -lms tick), or per host block when the machine has no usable driver.
class StreamDecoder final
{
public:
    StreamDecoder(QString host, QStringList gpuFields, int intervalMs, const Clock &clock);

    void feed(const QByteArray &data);   // raw bytes, any chunking
    void feedLine(const QString &line);  // one line without its newline

    std::function<void(const MachineSample &)> onSample;
    // nvidia-smi rejected the query: the stream must restart without this field.
    std::function<void(const QString &field)> onInvalidField;

    DriverState driverState() const { return m_driver; }
    QString driverMessage() const { return m_driverMessage; }
    qint64 lastSampleMs() const { return m_lastSampleMs; } // clock.monotonicMs(); -1 before any
    int samplesEmitted() const { return m_samples; }

private:
    void hostLine(char tag, const QString &rest);
    void appsLine(char tag, const QString &rest);
    void gpuLine(const QString &text);
    void flushGpus();
    void hostEnd();
    void emitSample(bool withGpus);
    void setDriver(DriverState state, const QString &message);

    QString m_host;
    QStringList m_fields; // canonical
    int m_intervalMs;
    const Clock &m_clock;
    QByteArray m_pending;
    ProcParser m_proc;
    GpmReader m_gpm;
    bool m_inHostBlock = false;
    std::optional<HostMetrics> m_hostMetrics;
    QList<GpuSample> m_group;
    QList<GpuSample> m_lastGpus;
    qint64 m_lastGpuMs = -1;
    int m_expectedCount = 0;
    QList<GpuProcess> m_processes;
    QList<GpuProcess> m_appsBuffer;
    QHash<qint64, QString> m_cmdlines;
    QHash<qint64, QString> m_users;
    DriverState m_driver = DriverState::Unknown;
    QString m_driverMessage;
    qint64 m_lastSampleMs = -1;
    qint64 m_firstHostMs = -1;
    int m_samples = 0;
};

} // namespace gantry::monitor
