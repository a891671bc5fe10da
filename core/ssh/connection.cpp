#include "core/ssh/connection.h"

#include "core/util/background.h"

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
    , m_thread(std::make_unique<SessionThread>(QStringLiteral("ssh:") + m_target.host))
{
}

Connection::~Connection()
{
    *m_cancel = true; // a connect in progress ends; the retired thread then tears the session down
    SessionThread::retire(std::move(m_thread));
}

void Connection::publish(const QPointer<Connection> &self, ConnectionState state, const QString &message)
{
    background::deliver(self, [self, state, message] {
        self->m_state = state;
        self->m_lastError = state == ConnectionState::Connected ? QString() : message;
        emit self->stateChanged(state, message);
    });
}

void Connection::connectToHost(const ConnectOptions &options)
{
    *m_cancel = false;
    m_options = options;
    m_state = ConnectionState::Connecting;
    emit stateChanged(ConnectionState::Connecting, QString());
    ConnectOptions copy = options;
    copy.cancel = m_cancel.get();
    m_thread->post([self = QPointer<Connection>(this), cancel = m_cancel, context = m_thread->context(), target = m_target,
                    copy](Session &session) {
        const auto result = session.connect(target, copy);
        if (!result) {
            publish(self, stateFor(result.error()), result.error().message);
            return;
        }
        publish(self, ConnectionState::Connected, QString());
        startKeepalive(self, context, target, session, copy.keepaliveIntervalS);
    });
}

void Connection::startKeepalive(const QPointer<Connection> &self, QObject *context, const Target &target, Session &session,
                                int intervalS)
{
    // On the worker thread; the timer is a child of its context, so it dies before the session.
    auto *keepalive = new QTimer(context);
    keepalive->setInterval(qMax(1, intervalS) * 1000);
    QObject::connect(keepalive, &QTimer::timeout, keepalive, [self, target, keepalive, session = &session] {
        if (session->sendKeepalive())
            return;
        keepalive->deleteLater();
        session->disconnect();
        publish(self, ConnectionState::Lost, lostMessage(target));
    });
    keepalive->start();
}

QString Connection::lostMessage(const Target &target)
{
    return tr("connection to %1 lost; reconnect when the machine is reachable again").arg(target.display());
}

void Connection::disconnectFromHost()
{
    *m_cancel = true;
    m_thread->post([self = QPointer<Connection>(this), context = m_thread->context()](Session &session) {
        const QList<QTimer *> timers = context->findChildren<QTimer *>();
        for (QTimer *timer : timers)
            timer->deleteLater();
        session.disconnect();
        publish(self, ConnectionState::Disconnected, QString());
    });
}

void Connection::post(std::function<void(Session &)> job)
{
    m_thread->post([self = QPointer<Connection>(this), target = m_target, job = std::move(job)](Session &session) {
        const bool wasConnected = session.isConnected();
        job(session);
        if (wasConnected && !session.isConnected())
            publish(self, ConnectionState::Lost, lostMessage(target));
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
