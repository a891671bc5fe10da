#pragma once

#include "emulatorserver.h"

#include <QJsonArray>
#include <QMap>

namespace gantry::test {

// Lambda Cloud API v1 per lambda-cloud-openapi-1.10.0.json: {"data": …} envelopes, error objects
// with code/message/suggestion, booting → active → terminating → terminated, the launch limit.
class LambdaEmulator final : public EmulatorServer
{
    Q_OBJECT

public:
    explicit LambdaEmulator(QObject *parent = nullptr);

    int bootMs = 300;           // booting → active
    int terminateMs = 300;      // terminating → terminated → gone
    int launchIntervalMs = 0;   // 12000 on the real service; 0 disables the 429
    bool neverActive = false;   // new instances stay booting (launch timeout tests)
    bool accountInactive = false;
    bool quotaExceeded = false;
    QString instanceIp = QStringLiteral("127.0.0.1");

    void setCapacity(const QString &typeName, const QStringList &regions);
    bool vanish(const QString &id) override;
    int instanceCount() const { return int(m_instances.size()); }
    QStringList sshKeyNames() const;
    void addFilesystem(const QString &name, const QString &regionName, qint64 bytesUsed);

protected:
    EmuResponse handle(const EmuRequest &request) override;
    EmuResponse errorFor(int status, const QString &message) const override;
    void configure(const QJsonObject &config) override;

private:
    struct Instance
    {
        QJsonObject base;
        qint64 createdMs = 0;
        qint64 terminatedMs = -1;
        bool neverActive = false;
    };
    static EmuResponse error(int status, const QString &code, const QString &message, const QString &suggestion = {});
    static EmuResponse data(const QJsonValue &value);
    QJsonObject typeObject(const QString &name) const;
    QJsonObject region(const QString &name) const;
    // The instance as the API shows it now; empty when it is gone.
    QJsonObject render(const Instance &instance) const;
    void reap();
    EmuResponse launch(const QJsonObject &body);
    EmuResponse filesystems(const EmuRequest &request, const QJsonObject &body);
    QJsonObject renderFilesystem(const QJsonObject &fs) const;

    QMap<QString, QJsonObject> m_types;          // name → InstanceType
    QMap<QString, QStringList> m_capacity;       // name → regions with capacity
    QMap<QString, Instance> m_instances;
    QJsonArray m_keys;
    QList<QJsonObject> m_filesystems;
    qint64 m_lastLaunchMs = -1;
    int m_nextId = 1;
};

} // namespace gantry::test
