// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/ssh/session.h"
#include "core/transfer/tarbatchpool.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// A folder download's first batches started before their names are known (#33). A batch's
// remote command waits for its names on stdin, so its login shell — a second or more where a
// conda or pyenv init runs in ~/.bashrc, as on most GPU images — starts while the folder is still
// being listed: on each helper session as soon as it connects (here), and on the primary session
// together with the listing (downloadTree). Without it every session paid one more shell start-up
// after the listing, on the download's critical path. A folder upload does the same with each
// helper's batch runner, started while the primary session's probe runs.
namespace gantry::transfer {

// A helper session and the batch commands already started on it.
struct WarmSession
{
    std::unique_ptr<ssh::Session> session;
    std::vector<std::unique_ptr<ssh::Channel>> channels; // closed before the session
};

class BatchWarmup
{
public:
    // Starts `helpers` threads; each takes its session from the pool (k = 0…helpers-1) and starts
    // `channels` `command`s on it (a download's kDownloadBatchesAhead batch commands, an upload's
    // one batch runner), then waits for work.
    // `meanwhile`, when set, starts a helper's commands instead (it is given the session, the
    // command, how many to start, and where they go) and may then use the session until it
    // returns, before the helper waits for work (a sync stages batches then: tarstage.h).
    using Meanwhile = std::function<void(ssh::Session &, const QString &, int, std::vector<std::unique_ptr<ssh::Channel>> &)>;
    BatchWarmup(SessionPool &pool, QString command, int helpers, int channels, Meanwhile meanwhile = {});
    // Starts `command` on session until `channels` holds `count` (those that could not start are
    // left out): what a helper does, or its Meanwhile for what its own round trips did not start.
    static void topUp(ssh::Session &session, const QString &command, int count, std::vector<std::unique_ptr<ssh::Channel>> &channels);
    // Helpers that got no work close their channels and sessions on their own threads; joined here.
    ~BatchWarmup();
    BatchWarmup(const BatchWarmup &) = delete;
    BatchWarmup &operator=(const BatchWarmup &) = delete;

    // Hands every helper `work`, run on its thread with its warm session (once). Returns how many
    // helpers there are (the pool indices they took: 0…count-1).
    int start(std::function<void(WarmSession &)> work);
    // Waits until every helper is done.
    void join();

private:
    void helper(int k);

    SessionPool &m_pool;
    const QString m_command;
    const int m_channels;
    const Meanwhile m_meanwhile;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::function<void(WarmSession &)> m_work;
    bool m_released = false;
    std::vector<std::thread> m_threads;
};

} // namespace gantry::transfer
