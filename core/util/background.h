// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QThreadPool;

namespace gantry::background {

// Gantry's own pool for blocking work that is not SSH (disk, SQLite, the keychain, a report, a
// sync run): never Qt's global pool, which libraries share.
QThreadPool &pool();
// A job on pool() that delivers nothing: the caller learns of its end its own way (a CLI command's
// helper that the command waits for). In the GUI, use run().
void start(std::function<void()> job);
// What main returns through: waits up to `ms` for the pool's work to end, then returns `code`. At
// exit libcrypto frees its locks, so an SSH session still disconnecting on a worker would crash the
// process after its work was done; past `ms` the process ends without running exit handlers.
int leaveAfterWork(int code, int ms = 10000);

namespace detail {
// A child of the caller's context object: when the context goes, the token is cancelled, so the
// work can stop early and its result is dropped instead of delivered to a dead object.
class CancelOnDestroy final : public QObject
{
public:
    CancelOnDestroy(QObject *context, CancelToken token) : QObject(context), m_token(std::move(token)) {}
    ~CancelOnDestroy() override { m_token.cancel(); }

private:
    CancelToken m_token;
};
} // namespace detail

// The one way ui/ and app/ run blocking work off their thread (SSH has ssh::SessionThread): `work`
// runs on pool() with a token; `done` then runs on the application's main thread with the result,
// unless `context` (an object of that thread) was destroyed meanwhile. The returned token cancels
// the operation; destroying the context cancels it too. Nothing waits: a destructor never joins.
template<typename T>
CancelToken run(QObject *context, std::function<T(const CancelToken &)> work, std::function<void(T)> done)
{
    CancelToken token;
    QPointer<detail::CancelOnDestroy> watch(new detail::CancelOnDestroy(context, token));
    start([watch, token, work = std::move(work), done = std::move(done)]() mutable {
        auto result = std::make_shared<T>(work(token));
        // What the work captured (an SSH session's owner, say) goes here, before the result is
        // posted: never on this thread while the main thread already acts on the result.
        work = nullptr;
        // Posted to the application object and checked there: the context lives on that thread.
        QMetaObject::invokeMethod(QCoreApplication::instance(), [watch, result, done = std::move(done)] {
            if (!watch)
                return;
            delete watch.data();
            if (done)
                done(std::move(*result));
        }, Qt::QueuedConnection);
    });
    return token;
}

// The same for work that cannot stop early (one read, one write): it runs to its end, and its
// result is dropped when the context is gone by then.
template<typename T>
CancelToken run(QObject *context, std::function<T()> work, std::function<void(T)> done)
{
    return run<T>(context, std::function<T(const CancelToken &)>([work = std::move(work)](const CancelToken &) { return work(); }),
                  std::move(done));
}

// The same for work without a result.
inline CancelToken run(QObject *context, std::function<void(const CancelToken &)> work, std::function<void()> done = {})
{
    return run<bool>(context, [work = std::move(work)](const CancelToken &token) {
        work(token);
        return true;
    }, [done = std::move(done)](bool) {
        if (done)
            done();
    });
}

// How work on another thread (an SSH worker's task that may outlive its poster) hands a result
// back to the poster, an object of the application's main thread: `then` runs there, unless the
// poster is gone by then. Captured as a QPointer on the main thread when the work is posted, the
// poster is only ever looked at there.
template<typename Owner, typename Then>
void deliver(const QPointer<Owner> &poster, Then then)
{
    QMetaObject::invokeMethod(QCoreApplication::instance(), [poster, then = std::move(then)]() mutable {
        if (poster)
            then();
    }, Qt::QueuedConnection);
}

} // namespace gantry::background
