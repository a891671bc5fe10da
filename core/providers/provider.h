#pragma once

#include "core/providers/providertypes.h"

#include <QObject>

namespace gantry::providers {

// One cloud (or the local sandbox) behind one asynchronous interface. Every call returns at once;
// the callback runs later on the thread that owns the provider (the GUI thread in the app), never
// inside the call itself. Work happens on worker threads. Callbacks are dropped when the provider
// is destroyed first.
class Provider : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual ProviderInfo info() const = 0;
    bool can(Capability capability) const { return info().capabilities.testFlag(capability); }

    virtual void listInstanceTypes(Callback<QList<InstanceType>> done) = 0;
    virtual void listInstances(Callback<QList<Instance>> done) = 0;
    virtual void getInstance(const QString &id, Callback<Instance> done) = 0;
    // The value is the new instance's id.
    virtual void launch(const LaunchRequest &request, Callback<QString> done) = 0;
    virtual void stop(const QString &id, Callback<void> done);
    virtual void start(const QString &id, Callback<void> done);
    virtual void restart(const QString &id, Callback<void> done) = 0;
    virtual void terminate(const QString &id, Callback<void> done) = 0;

    virtual void listSshKeys(Callback<QList<SshKey>> done) = 0;
    // An empty publicKey asks the provider to generate a pair (GenerateSshKey capability).
    virtual void addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done) = 0;
    virtual void deleteSshKey(const QString &idOrName, Callback<void> done) = 0;

    // Volumes (Capability::Filesystems). Where the provider has no volumes API the callback gets a
    // Usage error that says so.
    virtual void listFilesystems(Callback<QList<Filesystem>> done);
    // The value is the new volume (its id at least).
    virtual void createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done);
    virtual void deleteFilesystem(const QString &id, Callback<void> done);
    // How many requests that may have changed something (a launch) were sent but lost their
    // answer (a timeout, a 5xx): such a launch may have created a billing instance all the same.
    virtual int lostUnsafeReplies() const { return 0; }
    virtual void listImages(Callback<QList<Image>> done);

protected:
    // Queues callback(value) on this object's thread, so callbacks never run re-entrantly.
    template<typename T>
    void deliver(Callback<T> done, Result<T> result)
    {
        QMetaObject::invokeMethod(
            this, [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); },
            Qt::QueuedConnection);
    }
    Error unsupported(const QString &what) const;
};

} // namespace gantry::providers
