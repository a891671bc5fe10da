#include "ssh/connection.h"

#include <QCoreApplication>
#include <QTimer>

#include <libssh/libssh.h>

namespace gantry::ssh {

QString connectionStateName(ConnectionState state)
{
    switch (state) {
    case ConnectionState::Disconnected: return QCoreApplication::translate("ssh", "disconnected");
    case ConnectionState::Connecting: return QCoreApplication::translate("ssh", "connecting");
    case ConnectionState::Connected: return QCoreApplication::translate("ssh", "connected");
    case ConnectionState::AuthFailed: return QCoreApplication::translate("ssh", "authentication failed");
    case ConnectionState::HostKeyUnknown: return QCoreApplication::translate("ssh", "host key not accepted");
    case ConnectionState::HostKeyChanged: return QCoreApplication::translate("ssh", "host key changed");
    case ConnectionState::Failed: return QCoreApplication::translate("ssh", "cannot connect");
    case ConnectionState::Lost: return QCoreApplication::translate("ssh", "connection lost");
    }
    return {};
}

namespace {
ConnectionState stateFor(const Error &error)
{
    switch (error.code) {
    case ErrorCode::AuthFailed: return ConnectionState::AuthFailed;
    case ErrorCode::HostKeyUnknown: return ConnectionState::HostKeyUnknown;
    case ErrorCode::HostKeyChanged: return ConnectionState::HostKeyChanged;
    case ErrorCode::Cancelled: return ConnectionState::Disconnected;
    default: return ConnectionState::Failed;
    }
}
} // namespace

Connection::Connection(Target target, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
{
    m_worker = new QObject;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("ssh:") + m_target.host);
    m_thread.start();
}

Connection::~Connection()
{
    m_cancel = true;
    QMetaObject::invokeMethod(m_worker, [this] { m_session.reset(); }, Qt::QueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void Connection::setState(ConnectionState state, const QString &message)
{
    // Called on the worker thread; the state is published on the owner's thread.
    QMetaObject::invokeMethod(this, [this, state, message] {
        m_state = state;
        m_lastError = state == ConnectionState::Connected ? QString() : message;
        emit stateChanged(state, message);
    }, Qt::QueuedConnection);
}

void Connection::connectToHost(const ConnectOptions &options)
{
    m_cancel = false;
    m_options = options;
    m_state = ConnectionState::Connecting;
    emit stateChanged(ConnectionState::Connecting, QString());
    ConnectOptions copy = options;
    copy.cancel = &m_cancel;
    QMetaObject::invokeMethod(m_worker, [this, copy] {
        if (!m_session)
            m_session = std::make_unique<Session>();
        const auto result = m_session->connect(m_target, copy);
        if (!result) {
            setState(stateFor(result.error()), result.error().message);
            return;
        }
        setState(ConnectionState::Connected, QString());
        auto *keepalive = new QTimer(m_worker);
        keepalive->setInterval(qMax(1, copy.keepaliveIntervalS) * 1000);
        connect(keepalive, &QTimer::timeout, m_worker, [this, keepalive] {
            if (!m_session || !m_session->isConnected() || ssh_send_ignore(m_session->handle(), "") != SSH_OK
                || !m_session->isConnected()) {
                keepalive->deleteLater();
                if (m_session) {
                    m_session->disconnect();
                    setState(ConnectionState::Lost,
                             tr("connection to %1 lost; reconnect when the machine is reachable again")
                                 .arg(m_target.display()));
                }
            }
        });
        keepalive->start();
    }, Qt::QueuedConnection);
}

void Connection::disconnectFromHost()
{
    m_cancel = true;
    QMetaObject::invokeMethod(m_worker, [this] {
        const QList<QTimer *> timers = m_worker->findChildren<QTimer *>();
        for (QTimer *timer : timers)
            timer->deleteLater();
        if (m_session)
            m_session->disconnect();
        setState(ConnectionState::Disconnected, QString());
    }, Qt::QueuedConnection);
}

void Connection::post(std::function<void(Session &)> job)
{
    QMetaObject::invokeMethod(m_worker, [this, job = std::move(job)] {
        if (!m_session)
            m_session = std::make_unique<Session>();
        const bool wasConnected = m_session->isConnected();
        job(*m_session);
        if (wasConnected && !m_session->isConnected())
            setState(ConnectionState::Lost,
                     tr("connection to %1 lost; reconnect when the machine is reachable again").arg(m_target.display()));
    }, Qt::QueuedConnection);
}

ConnectOptions Connection::siblingOptions() const
{
    ConnectOptions options = m_options;
    options.confirmNewHostKey = nullptr;
    options.acceptNewHostKey = false;
    options.cancel = nullptr;
    return options;
}

} // namespace gantry::ssh
