// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/ssh/session.h"

#include <QSemaphore>
#include <QTemporaryDir>

#include <atomic>
#include <functional>
#include <memory>

namespace gantry::test {

// A host-key question that holds an SSH worker until the test answers it: the way to prove that
// an owner goes without joining its worker (a join would wait for the very thread that answers).
// apply() makes the host's key unknown (an empty known_hosts of its own) and asks this question.
class HeldHostKeyQuestion final
{
public:
    // `onAnswered` runs on the worker once answered (to look at the owner's closing flag, say).
    ssh::ConnectOptions apply(ssh::ConnectOptions options, bool trust, std::function<void()> onAnswered = {})
    {
        options.knownHostsFile = m_keys.filePath(QStringLiteral("known_hosts"));
        options.acceptNewHostKey = false;
        options.confirmNewHostKey = [asked = m_asked, answer = m_answer, trust, onAnswered](const ssh::HostKeyInfo &) {
            asked->release();
            answer->acquire();
            if (onAnswered)
                onAnswered();
            return trust;
        };
        return options;
    }
    bool waitUntilAsked(int ms = 15000) { return m_asked->tryAcquire(1, ms); }
    void answer() { m_answer->release(); }

private:
    QTemporaryDir m_keys;
    std::shared_ptr<QSemaphore> m_asked = std::make_shared<QSemaphore>();
    std::shared_ptr<QSemaphore> m_answer = std::make_shared<QSemaphore>();
};

} // namespace gantry::test
