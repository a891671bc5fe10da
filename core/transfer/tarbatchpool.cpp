#include "core/transfer/tarbatchpool.h"

#include "core/transfer/sessionprefetch.h"
#include "core/transfer/transfercontext.h"

namespace gantry::transfer {

SessionPool::SessionPool(SessionFactory factory, const std::atomic_bool *cancel, int count)
    : m_factory(std::move(factory)), m_cancel(cancel)
{
    connectInBackground(count);
}

SessionPool::SessionPool(TransferContext &ctx, int count)
    : m_factory(ctx.factory()), m_cancel(ctx.cancel()), m_prefetch(ctx.prefetch())
{
    if (!m_prefetch) {
        connectInBackground(count);
        return;
    }
    m_prefetch->setSftpWanted(false);
    m_prefetch->limitRunOnConnect(count);
    m_prefetch->ensure(count);
}

void SessionPool::connectInBackground(int count)
{
    for (int k = 0; k < count; ++k) {
        m_connecting.push_back(std::async(std::launch::async, [this] {
            const ssh::OptionalConnects optional;
            return m_factory(m_cancel);
        }));
    }
}

SessionPool::~SessionPool()
{
    for (auto &f : m_connecting) {
        if (f.valid()) (void)f.get(); // closed here, on this thread, once its connect is done
    }
}

Result<std::unique_ptr<ssh::Session>> SessionPool::take(int k, std::vector<std::unique_ptr<ssh::Channel>> *running)
{
    const ssh::OptionalConnects optional; // a connect of its own here is a helper's
    if (m_prefetch) {
        bool claimed = false;
        std::optional<ReadySession> ready = m_prefetch->take(&claimed);
        // Not claimed, or its connect failed (the prefetch keeps no error): a connect of our own
        // either succeeds or says why.
        if (!ready) return m_factory(m_cancel);
        ready->sftp.reset(); // before the session it runs on moves away
        if (running) *running = std::move(ready->running);
        ready->running.clear();
        return std::move(ready->session);
    }
    if (k < 0 || k >= int(m_connecting.size()) || !m_connecting[size_t(k)].valid()) return m_factory(m_cancel);
    return m_connecting[size_t(k)].get();
}

} // namespace gantry::transfer
