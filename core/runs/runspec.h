// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace gantry::runs {

// The run spec format this build writes and reads; a spec with a higher `version` is refused.
inline constexpr int kRunSpecVersion = 1;

// What a run may rent: the providers to compare, the GPU (a canonical model from
// core/providers/gpumodels or "any"), how many, the most it pays per hour, spot or on demand.
struct RunResources
{
    QStringList providers;           // empty: every configured provider
    QString gpu = QStringLiteral("any");
    int count = 1;
    double maxPricePerHour = 0;      // 0: no limit
    bool spot = false;
    int nodes = 1;                   // more than one: every node runs `run` with torchrun's environment
    int masterPort = 29500;          // where rank 0 serves the rendezvous (nodes > 1)
};

enum class RetryPolicy
{
    OnFailure, // a non-zero exit is retried up to max_attempts
    Never,
};

// A managed run as the user wrote it (YAML, `gantry-cli run start SPEC.yaml`). Paths stay as
// written; `specDir` is the folder the spec came from, which a relative workdir is taken from.
struct RunSpec
{
    int version = kRunSpecVersion;
    QString name;
    RunResources resources;
    QString workdir = QStringLiteral(".");
    QString setup;
    QString run;
    QString checkpointPath;          // relative to the workdir; empty: no checkpoints
    int checkpointEverySeconds = 300;
    QString checkpointStore;         // s3://NAME/PREFIX: checkpoints kept in that bucket, not at home ("" home)
    QStringList results;             // relative to the workdir, brought home after success
    QList<QPair<QString, QString>> env;
    QStringList secrets;             // names; values from the keychain or the environment
    int maxAttempts = 3;             // failed attempts (non-zero exit); lost machines do not count
    int maxPreemptions = 0;          // 0: no bound on lost machines
    double maxCost = 0;              // 0: no bound
    RetryPolicy retry = RetryPolicy::OnFailure;
    QString specDir;

    // The workdir as an absolute local path.
    QString localWorkdir() const;
};

// "30s", "5m", "1h", "90" (seconds); an error names what is wrong.
Result<int> parseDuration(const QString &text);
// Reads a spec; `source` names it in errors ("train.yaml"). Every error names the field, its line
// and what to write instead.
Result<RunSpec> parseRunSpec(const QByteArray &yaml, const QString &source, const QString &specDir = {});
Result<RunSpec> loadRunSpec(const QString &path);
// Run names become folder, job and instance names: [A-Za-z0-9][A-Za-z0-9._-]{0,47}.
Result<void> validateRunName(const QString &name);

} // namespace gantry::runs
