#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>

namespace gantry {

// Runs the blocking `work` on a pool thread and `done(value)` on `context`'s thread — never after
// `context` is gone: the watcher is its child and dies with it. (QFuture::then(context, …) in Qt
// 6.4 can still deliver to a destroyed context, which crashed a test.) Callers link Qt Concurrent.
template<typename T>
void runInBackground(QObject *context, std::function<T()> work, std::function<void(T)> done)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcher<T>::finished, context, [watcher, done] {
        done(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

} // namespace gantry
