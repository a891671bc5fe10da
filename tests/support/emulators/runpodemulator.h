#pragma once

#include "emulatorserver.h"

#include <QJsonArray>
#include <QMap>
#include <QStringList>
#include <QVariantMap>

namespace gantry::test {

// RunPod REST v2 per runpod-rest-v2-openapi.json: GPU catalog, pods with /action
// (PROVISIONING → STARTING → RUNNING, stop → EXITED with cost 0), account SSH keys replaced as a
// whole, problem+json errors.
class RunPodEmulator final : public EmulatorServer
{
    Q_OBJECT

public:
    explicit RunPodEmulator(QObject *parent = nullptr);

    int bootMs = 300;
    bool neverRunning = false;
    bool insufficientBalance = false;
    QStringList keys;            // account SSH keys (one OpenSSH line each)
    QString sshHost = QStringLiteral("127.0.0.1"); // what ssh.direct.host and the port map report
    QVariantMap networkVolumes;  // id → NetworkVolume

    bool vanish(const QString &id) override;
    int podCount() const { return int(m_pods.size()); }

protected:
    EmuResponse handle(const EmuRequest &request) override;
    EmuResponse errorFor(int status, const QString &message) const override;
    void configure(const QJsonObject &config) override;

private:
    struct Pod
    {
        QJsonObject base;
        qint64 startedMs = 0;     // last start (create or action start)
        bool stopped = false;
        bool neverRunning = false;
        double price = 0;
    };
    static EmuResponse problem(int status, const QString &title, const QString &detail, const QJsonArray &errors = {});
    QJsonObject render(const Pod &pod) const;
    QString status(const Pod &pod) const;
    EmuResponse create(const QJsonObject &body);
    EmuResponse volumes(const EmuRequest &request, const QJsonObject &body);

    QJsonArray m_gpus;
    QMap<QString, Pod> m_pods;
    int m_nextId = 1;
};

} // namespace gantry::test
