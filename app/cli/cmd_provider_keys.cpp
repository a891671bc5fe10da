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
        return Error{ErrorCode::Usage, CliText::tr("%1 already exists; choose another --out").arg(path)};
    // Created owner-only before any byte of the key is written.
    if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return Error{ErrorCode::Io, CliText::tr("Cannot write %1: %2").arg(path, file.errorString())};
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

int addKey(Context &context, providers::Provider &provider, const QStringList &args)
{
    QFile file(args.at(1));
    if (!file.open(QIODevice::ReadOnly))
        return context.fail(Error{ErrorCode::Usage, CliText::tr("Cannot read %1: %2").arg(args.at(1), file.errorString())});
    const QString publicKey = QString::fromUtf8(file.readAll()).trimmed();
    if (publicKey.contains(QStringLiteral("PRIVATE KEY")))
        return context.usage(CliText::tr("%1 is a private key; give the .pub file").arg(args.at(1)));
    Result<providers::SshKey> key = await<providers::SshKey>([&](auto done) { provider.addSshKey(args.at(0), publicKey, done); });
    if (!key)
        return failProvider(context, key.error());
    if (context.json)
        context.printJson(keyJson(*key));
    else
        context.out << CliText::tr("Added SSH key \"%1\" to %2.").arg(text::printable(key->name), provider.info().displayName) << Qt::endl;
    return ExitOk;
}

// The provider makes the pair where it can (Lambda), else Gantry does and uploads the public half.
int generateKey(Context &context, providers::Provider &provider, const QString &name, const std::optional<QString> &out)
{
    const QString path = out.value_or(QDir(context.configDir).absoluteFilePath(QStringLiteral("keys/") + name));
    if (QFileInfo::exists(path))
        return context.usage(CliText::tr("%1 already exists; choose another --out").arg(path));
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
        context.out << CliText::tr("Generated SSH key \"%1\" on %2; private key saved to %3 (mode 600).")
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
        context.out << CliText::tr("Deleted SSH key \"%1\" from %2.").arg(name, provider.info().displayName) << Qt::endl;
    return ExitOk;
}

int keysCommand(Context &context, const QStringList &arguments)
{
    QStringList args = arguments;
    Result<ProviderOptions> options = takeProviderOptions(args);
    if (!options)
        return context.fail(options.error());
    Result<std::optional<QString>> out = takeValue(args, QStringLiteral("--out"));
    if (!out)
        return context.fail(out.error());
    if (args.isEmpty())
        return context.usage(CliText::tr("keys list|add NAME FILE.pub|generate NAME [--out PATH]|delete NAME [--provider P]"));
    const QString verb = args.takeFirst();
    ProviderEnv env = makeProviderEnv(context, *options);
    const QString providerId = options->provider.isEmpty() ? providers::defaultProviderId(env.settings) : options->provider;
    Result<std::unique_ptr<providers::Provider>> created = providers::createProvider(providerId, env.settings);
    if (!created)
        return context.fail(created.error());
    providers::Provider &provider = **created;
    if (verb == QLatin1String("list") && args.isEmpty())
        return listKeys(context, provider);
    if (verb == QLatin1String("add") && args.size() == 2)
        return addKey(context, provider, args);
    if (verb == QLatin1String("generate") && args.size() == 1)
        return generateKey(context, provider, args.at(0), *out);
    if (verb == QLatin1String("delete") && args.size() == 1)
        return deleteKey(context, provider, args.at(0));
    return context.usage(CliText::tr("keys list|add NAME FILE.pub|generate NAME [--out PATH]|delete NAME [--provider P]"));
}

const Registrar keysRegistrar("keys",
    "keys list|add NAME FILE.pub|generate NAME [--out PATH]|delete NAME [--provider P]   SSH keys at a provider",
    keysCommand);

} // namespace
} // namespace gantry::cli
