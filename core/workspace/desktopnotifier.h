#pragma once

#include <QString>

namespace gantry::workspace {

// A desktop notification over org.freedesktop.Notifications (QtDBus), for the headless watcher
// on a machine that has a session bus (a desktop where the GUI is closed, a server with a user
// session). Without a bus or a notification service it does nothing: the watcher's output line
// (or JSON line) is the record. Calls never wait for the notification daemon's answer.
class DesktopNotifier final
{
public:
    DesktopNotifier(); // looks for the service once, on the session bus named by the environment

    bool isAvailable() const { return m_available; }
    void notify(const QString &summary, const QString &body) const;

private:
    bool m_available = false;
};

} // namespace gantry::workspace
