#pragma once

#include "emulatorserver.h"

#include <QJsonArray>
#include <QMap>

namespace gantry::test {

// Shadeform API v1 per shadeform-openapi.yaml and the quickstart's real-looking replies: X-API-KEY
// auth, types with per-region availability and integer-cent prices (spot entries in dollar
// strings), asynchronous create (creating → pending_provider → active), ssh_port null even when
// active, POST verbs for every mutation, delete → deleting, {"message": …} errors.
class ShadeformEmulator final : public EmulatorServer
{
    Q_OBJECT

public:
    explicit ShadeformEmulator(QObject *parent = nullptr);

    int bootMs = 300;
    QString instanceIp = QStringLiteral("127.0.0.1");
    bool walletEmpty = false;
    int hiddenPolls = 0;            // H100 capacity appears only after this many type listings
    int typePolls = 0;

    void setAvailable(const QString &shadeType, bool available);
    bool vanish(const QString &id) override;
    int instanceCount() const { return int(m_instances.size()); }

protected:
    EmuResponse handle(const EmuRequest &request) override;
    EmuResponse errorFor(int status, const QString &message) const override;
    void configure(const QJsonObject &config) override;

private:
    struct Instance
    {
        QJsonObject base;
        qint64 createdMs = 0;
        bool deleting = false;
    };
    static EmuResponse message(int status, const QString &text);
    QJsonArray types(const EmuRequest &request);
    QJsonObject render(const Instance &instance) const;
    EmuResponse create(const QJsonObject &body);
    EmuResponse keysCall(const EmuRequest &request, const QJsonObject &body);
    // Volumes (shadeformvolumes.cpp).
    static QJsonArray volumeTypes();
    EmuResponse volumesCall(const EmuRequest &request, const QJsonObject &body);
    // What is wrong with the create's volume_ids ("" when fine); mounts them on instanceId when given.
    QString mountVolumes(const QJsonObject &body, const QString &instanceId);

    QJsonArray m_types;
    QMap<QString, Instance> m_instances;
    QJsonArray m_keys;
    QMap<QString, QJsonObject> m_volumes;
    int m_next = 1;
};

} // namespace gantry::test
