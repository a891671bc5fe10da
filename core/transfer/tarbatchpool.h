#pragma once

#include "core/ssh/session.h"
#include "core/transfer/transfertypes.h"

#include <future>
#include <vector>

namespace gantry::transfer {

class SessionPrefetch;
class TransferContext;

// Helper sessions for striped tar batches that connect in the background (while the folder is
// listed, the plan made or the first batch sent), so data flows on all of them as soon as the
// batches are known: a connect over a long link costs several round trips. Sessions not taken
// are closed with the pool (its destructor waits for their connects to finish).
class SessionPool
{
public:
    SessionPool(SessionFactory factory, const std::atomic_bool *cancel, int count);
    // The attempt's prefetched sessions first (connected while its first session was), when it
    // has a SessionPrefetch; fresh connects beyond them.
    SessionPool(TransferContext &ctx, int count);
    ~SessionPool();
    SessionPool(const SessionPool &) = delete;
    SessionPool &operator=(const SessionPool &) = delete;
    // The k-th helper session (waits for its connect); a fresh connect beyond the pool's size.
    // *running, when given, gets the command the prefetch started on it as it connected (none:
    // empty); without it, that command's channel is closed.
    Result<std::unique_ptr<ssh::Session>> take(int k, std::vector<std::unique_ptr<ssh::Channel>> *running = nullptr);

private:
    void connectInBackground(int count);

    SessionFactory m_factory;
    const std::atomic_bool *m_cancel;
    SessionPrefetch *m_prefetch = nullptr;
    std::vector<std::future<Result<std::unique_ptr<ssh::Session>>>> m_connecting;
};

} // namespace gantry::transfer
