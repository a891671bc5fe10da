#include "core/ssh/connection.h"

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
    , m_thread(QStringLiteral("ssh:") + m_target.host)
{
}

Connection::~Connection()
{
    m_cancel = true; // a connect in progress ends; m_thread then tears the session down and joins
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
    m_thread.post([this, copy](Session &session) {
        const auto result = session.connect(m_target, copy);
        if (!result) {
            setState(stateFor(result.error()), result.error().message);
            return;
        }
        setState(ConnectionState::Connected, QString());
        startKeepalive(session, copy.keepaliveIntervalS);
    });
}

void Connection::startKeepalive(Session &session, int intervalS)
{
    // On the worker thread; the timer is a child of its context, so it dies before the session.
    auto *keepalive = new QTimer(m_thread.context());
    keepalive->setInterval(qMax(1, intervalS) * 1000);
    connect(keepalive, &QTimer::timeout, keepalive, [this, keepalive, session = &session] {
        if (session->isConnected() && ssh_send_ignore(session->handle(), "") == SSH_OK && session->isConnected())
            return;
        keepalive->deleteLater();
        session->disconnect();
        setState(ConnectionState::Lost, lostMessage());
    });
    keepalive->start();
}

QString Connection::lostMessage() const
{
    return tr("connection to %1 lost; reconnect when the machine is reachable again").arg(m_target.display());
}

void Connection::disconnectFromHost()
{
    m_cancel = true;
    m_thread.post([this](Session &session) {
        const QList<QTimer *> timers = m_thread.context()->findChildren<QTimer *>();
        for (QTimer *timer : timers)
            timer->deleteLater();
        session.disconnect();
        setState(ConnectionState::Disconnected, QString());
    });
}

void Connection::post(std::function<void(Session &)> job)
{
    m_thread.post([this, job = std::move(job)](Session &session) {
        const bool wasConnected = session.isConnected();
        job(session);
        if (wasConnected && !session.isConnected())
            setState(ConnectionState::Lost, lostMessage());
    });
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
