// gantry-cli keys list|add|generate|delete: SSH keys registered with a provider.
#include "cmd_provider_common.h"

#include "core/providers/await.h"
#include "core/providers/gantrykey.h"
#include "core/util/printable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace gantry::cli {
namespace {

using namespace providercli;
using providers::await;

QJsonObject keyJson(const providers::SshKey &key)
{
    return QJsonObject{{QStringLiteral("id"), key.id}, {QStringLiteral("name"), key.name}, {QStringLiteral("public_key"), key.publicKey}};
}

Result<void> writePrivateKey(const QString &path, const QString &pem)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (QFileInfo::exists(path))
        return Error{ErrorCode::Usage, QStringLiteral("%1 already exists; choose another --out").arg(path)};
    // Created owner-only before any byte of the key is written.
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return Error{ErrorCode::Io, QStringLiteral("Cannot write %1: %2").arg(path, file.errorString())};
    file.write(pem.toUtf8());
    return {};
}

int listKeys(Context &context, providers::Provider &provider)
{
    Result<QList<providers::SshKey>> keys = await<QList<providers::SshKey>>([&](auto done) { provider.listSshKeys(done); });
    if (!keys)
        return failProvider(context, keys.error());
    if (context.json) {
        QJsonArray array;
        for (const providers::SshKey &key : std::as_const(*keys))
            array.append(keyJson(key));
        context.printJson(QJsonObject{{QStringLiteral("keys"), array}});
    } else {
        for (const providers::SshKey &key : std::as_const(*keys))
            context.out << text::printable(key.name).leftJustified(24) << ' ' << text::printable(key.publicKey.left(60)) << '\n';
        context.out.flush();
    }
    return ExitOk;
}

int addKey(Context &context, providers::Provider &provider, const QString &name, const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return context.fail(Error{ErrorCode::Usage, QStringLiteral("Cannot read %1: %2").arg(path, file.errorString())});
    const QString publicKey = QString::fromUtf8(file.readAll()).trimmed();
    if (publicKey.contains(QStringLiteral("PRIVATE KEY")))
        return context.usage(QStringLiteral("%1 is a private key; give the .pub file").arg(path));
    Result<providers::SshKey> key = await<providers::SshKey>([&](auto done) { provider.addSshKey(name, publicKey, done); });
    if (!key)
        return failProvider(context, key.error());
    if (context.json)
        context.printJson(keyJson(*key));
    else
        context.out << QStringLiteral("Added SSH key \"%1\" to %2.").arg(text::printable(key->name), provider.info().displayName) << Qt::endl;
    return ExitOk;
}

// The provider makes the pair where it can (Lambda), else Gantry does and uploads the public half.
int generateKey(Context &context, providers::Provider &provider, const QString &name, const std::optional<QString> &out)
{
    const QString path = out.value_or(QDir(context.configDir).absoluteFilePath(QStringLiteral("keys/") + name));
    if (QFileInfo::exists(path))
        return context.usage(QStringLiteral("%1 already exists; choose another --out").arg(path));
    providers::SshKey key;
    if (provider.can(providers::Capability::GenerateSshKey)) {
        Result<providers::SshKey> made = await<providers::SshKey>([&](auto done) { provider.addSshKey(name, QString(), done); });
        if (!made)
            return failProvider(context, made.error());
        key = *made;
        if (Result<void> written = writePrivateKey(path, key.privateKey); !written)
            return context.fail(written.error());
        QFile pub(path + QStringLiteral(".pub"));
        if (pub.open(QIODevice::WriteOnly))
            pub.write((key.publicKey + QLatin1Char('\n')).toUtf8());
    } else {
        // Generate here, upload the public half.
        if (Result<void> made = providers::generateKeyPair(path, name); !made)
            return context.fail(made.error());
        Result<QString> publicKey = providers::readPublicKey(path);
        if (!publicKey)
            return context.fail(publicKey.error());
        Result<providers::SshKey> added = await<providers::SshKey>([&](auto done) { provider.addSshKey(name, *publicKey, done); });
        if (!added)
            return failProvider(context, added.error());
        key = *added;
    }
    if (context.json) {
        QJsonObject object = keyJson(key);
        object.insert(QStringLiteral("private_key_file"), path);
        context.printJson(object);
    } else {
        context.out << QStringLiteral("Generated SSH key \"%1\" on %2; private key saved to %3 (mode 600).")
                           .arg(name, provider.info().displayName, path)
                    << Qt::endl;
    }
    return ExitOk;
}

int deleteKey(Context &context, providers::Provider &provider, const QString &name)
{
    Result<void> removed = await<void>([&](auto done) { provider.deleteSshKey(name, done); });
    if (!removed)
        return failProvider(context, removed.error());
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("deleted"), name}});
    else
        context.out << QStringLiteral("Deleted SSH key \"%1\" from %2.").arg(name, provider.info().displayName) << Qt::endl;
    return ExitOk;
}

const Argument kName{"NAME"};

const Registrar keysRegistrar(Command{
    .name = "keys",
    .summary = "SSH keys registered with a provider: list, add, generate, delete",
    .groups = Provider,
    .subcommands = {
        {.name = "list",
         .summary = "the provider's SSH keys",
         .run = [](Context &c, const Args &a) { return withProvider(c, a, [&](providers::Provider &p) { return listKeys(c, p); }); }},
        {.name = "add",
         .summary = "register the public key in FILE.pub as NAME",
         .arguments = {kName, {"FILE.pub", Argument::One, Complete::File}},
         .run = [](Context &c, const Args &a) {
             return withProvider(c, a, [&](providers::Provider &p) { return addKey(c, p, a.arg("NAME"), a.arg("FILE.pub")); });
         }},
        {.name = "generate",
         .summary = "make a key pair NAME (at the provider where it can), save the private key (mode 600) and register the public one",
         .options = {{.name = "out", .value = "PATH", .help = "where to save the private key (default <config>/keys/NAME)", .complete = Complete::File}},
         .arguments = {kName},
         .run = [](Context &c, const Args &a) {
             return withProvider(c, a, [&](providers::Provider &p) { return generateKey(c, p, a.arg("NAME"), a.optional("out")); });
         }},
        {.name = "delete",
         .summary = "remove the key NAME from the provider",
         .arguments = {kName},
         .run = [](Context &c, const Args &a) { return withProvider(c, a, [&](providers::Provider &p) { return deleteKey(c, p, a.arg("NAME")); }); }},
    },
});

} // namespace
} // namespace gantry::cli
