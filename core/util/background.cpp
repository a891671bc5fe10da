// SPDX-License-Identifier: Apache-2.0
#include "core/util/background.h"

#include <QThreadPool>

#include <cstdio>
#include <cstdlib>

namespace gantry::background {

QThreadPool &pool()
{
    static QThreadPool *threads = [] {
        auto *created = new QThreadPool; // lives as long as the process: work may still run at exit
        created->setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
        created->setExpiryTimeout(30000);
        return created;
    }();
    return *threads;
}

void start(std::function<void()> job)
{
    pool().start(std::move(job));
}

int leaveAfterWork(int code, int ms)
{
    if (pool().waitForDone(ms))
        return code;
    std::fflush(nullptr);
    std::_Exit(code);
}

} // namespace gantry::background
