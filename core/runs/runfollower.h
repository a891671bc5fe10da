// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/runs/runservice.h"

#include <QObject>
#include <QTimer>

namespace gantry::runs {

// Follows one run from its files, whichever process drives it: every interval it reads, on a
// worker (background::run), the run's record and the lines its log gained, and reports them. When
// the run has ended (or nobody drives it any more) it reads the log once more and reports
// ended(). `gantry-cli run logs --follow` and the Runs panel both follow through it.
class RunFollower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunFollower)

public:
    RunFollower(RunBook book, QString name, int intervalMs = 500, QObject *parent = nullptr);

    // Reads from `offset` in run.log (0: its start) at once, then every interval.
    void start(qint64 offset = 0);
    void stop();
    QString name() const { return m_name; }

signals:
    void lines(const QList<gantry::runs::RunLogLine> &lines);
    void record(const gantry::runs::RunRecord &record);
    // The run has ended or lost its driver (`state` is its last); its last lines came before.
    void ended(const gantry::runs::RunRecord &record);
    // The run is gone (its folder removed) or cannot be read.
    void failed(const QString &message);

private:
    void poll();

    RunBook m_book;
    QString m_name;
    QTimer m_timer;
    qint64 m_offset = 0;
    bool m_reading = false;
    bool m_settledSeen = false; // one more read of the log, then ended()
};

} // namespace gantry::runs
