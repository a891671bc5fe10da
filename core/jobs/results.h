#pragma once

#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace gantry::ssh { class Session; }

namespace gantry::jobs {

// What to bring home before an instance goes away: per saved host, paths and globs on the
// instance ("outputs/", "*.pth", "runs/"), relative to the login directory unless absolute.
// Kept in <configDir>/results.json.
class ResultPathStore final
{
public:
    explicit ResultPathStore(QString configDir);

    QStringList patterns(const QString &hostName) const;
    Result<void> setPatterns(const QString &hostName, const QStringList &patterns);
    Result<void> removeHost(const QString &hostName);
    QString filePath() const;

private:
    QHash<QString, QStringList> load() const;
    Result<void> save(const QHash<QString, QStringList> &all) const;

    QString m_configDir;
};

// One item for the transfer engine to download (a directory is downloaded recursively).
struct ResultDownload
{
    QString remotePath;     // absolute on the instance
    QString localRelative;  // where it goes under the local results folder ("outputs", "model.pth")
    bool isDirectory = false;
    qint64 sizeBytes = -1;  // files only

    bool operator==(const ResultDownload &other) const = default;
};

namespace scripts {
// Expands the patterns on the instance (bash globbing, ** included; no match → nothing).
QString expandResults(const QStringList &patterns, const QString &baseDir);
} // namespace scripts
QList<ResultDownload> parseResultExpansion(const QByteArray &output);
// Runs the expansion; baseDir empty: the login directory.
Result<QList<ResultDownload>> expandResults(ssh::Session &session, const QStringList &patterns, const QString &baseDir = {});

enum class ResultsDownloadState
{
    None,     // nothing started (or the user chose to go on without)
    Running,
    Failed,
    Done,
};

// The "results home before terminate" rule. The transfer side reports progress with setState();
// Terminate (manual or the idle policy's) asks canTerminate() first. GUI-thread owned.
class TerminateGuard final
{
public:
    void setState(const QString &hostName, ResultsDownloadState state, const QString &detail = {});
    ResultsDownloadState state(const QString &hostName) const;
    // Refuses while a download runs or after it failed (with what to do next).
    Result<void> canTerminate(const QString &hostName) const;
    // True when the host has result paths and they are not home yet: offer the download first.
    bool shouldOfferDownload(const QString &hostName, const QStringList &patterns) const;
    // The user saw the failure and chose to terminate anyway.
    void acknowledgeFailure(const QString &hostName) { setState(hostName, ResultsDownloadState::None); }

private:
    struct Entry
    {
        ResultsDownloadState state = ResultsDownloadState::None;
        QString detail;
    };
    QHash<QString, Entry> m_entries;
};

} // namespace gantry::jobs
