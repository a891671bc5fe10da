#include "core/transfer/tarbatchpool.h"

namespace gantry::transfer {

SessionPool::SessionPool(SessionFactory factory, const std::atomic_bool *cancel, int count)
    : m_factory(std::move(factory)), m_cancel(cancel)
{
    for (int k = 0; k < count; ++k) {
        m_connecting.push_back(std::async(std::launch::async, [this] { return m_factory(m_cancel); }));
    }
}

SessionPool::~SessionPool()
{
    for (auto &f : m_connecting) {
        if (f.valid()) (void)f.get(); // closed here, on this thread, once its connect is done
    }
}

Result<std::unique_ptr<ssh::Session>> SessionPool::take(int k)
{
    if (k < 0 || k >= int(m_connecting.size()) || !m_connecting[size_t(k)].valid()) return m_factory(m_cancel);
    return m_connecting[size_t(k)].get();
}

} // namespace gantry::transfer
