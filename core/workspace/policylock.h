#pragma once

#include <QLockFile>
#include <QString>

namespace gantry::workspace {

// Only one policy owner acts at a time: the GUI or a `gantry-cli watch`, whichever holds
// <configDir>/policy.lock. The other one defers (notifies, never stops or terminates). The lock
// dies with its process, so a crashed owner frees it.
class PolicyLock final
{
    Q_DISABLE_COPY_MOVE(PolicyLock)

public:
    explicit PolicyLock(const QString &configDir);
    ~PolicyLock();

    static QString path(const QString &configDir);
    // True when this process owns the policy now (already, or taken just now).
    bool tryAcquire();
    bool owned() const { return m_owned; }
    // Who holds it, for the user: "gantry-cli (pid 4242 on nas)"; "" when nobody does.
    QString holder() const;
    void release();

private:
    QString m_path;
    QLockFile m_file;
    bool m_owned = false;
};

} // namespace gantry::workspace
