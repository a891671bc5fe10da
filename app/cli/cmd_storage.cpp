// SPDX-License-Identifier: Apache-2.0
// gantry-cli storage add|list|ls|remove: S3-compatible buckets (core/storage/buckets.h).

#include "clicommand.h"
#include "interruptscope.h"

#include "core/storage/buckets.h"
#include "core/util/printable.h"
#include "core/util/secretstore.h"

#include <QJsonArray>
#include <QTextStream>

#include <cstdio>
#include <unistd.h>

namespace gantry::cli {
namespace {

using storage::Buckets;
using storage::KeySource;
using storage::StoredBucket;

QJsonObject bucketJson(const StoredBucket &bucket)
{
    return QJsonObject{{QStringLiteral("name"), bucket.config.name},
                       {QStringLiteral("endpoint"), bucket.config.endpoint},
                       {QStringLiteral("bucket"), bucket.config.bucket},
                       {QStringLiteral("region"), bucket.config.region},
                       {QStringLiteral("keys"), storage::keySourceName(bucket.keys)}};
}

// The keys for `add`: the AWS_* variables (used, never stored), else two lines on stdin (asked
// for on a terminal, the secret without echo).
Result<std::pair<storage::sigv4::Credentials, KeySource>> keysForAdd(const QString &name)
{
    if (std::optional<storage::sigv4::Credentials> fromEnvironment = storage::environmentCredentials())
        return std::pair{*fromEnvironment, KeySource::Environment};
    storage::sigv4::Credentials keys;
    if (isatty(STDIN_FILENO)) {
        std::fprintf(stderr, "Access key ID: ");
        QTextStream in(stdin);
        keys.accessKeyId = in.readLine().trimmed();
        keys.secretAccessKey = promptHidden(QStringLiteral("Secret access key:")).value_or(QString()).trimmed();
    } else {
        QTextStream in(stdin);
        keys.accessKeyId = in.readLine().trimmed();
        keys.secretAccessKey = in.readLine().trimmed();
    }
    if (!keys.isComplete()) {
        return Error{ErrorCode::Usage,
                     QStringLiteral("no keys: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the key ID and the secret "
                                    "on two lines of stdin (printf '%s\\n%s\\n' \"$ID\" \"$SECRET\" | gantry-cli storage add %1 …)")
                         .arg(name)};
    }
    return std::pair{keys, KeySource::Keychain};
}

int addCommand(Context &context, const Args &args)
{
    storage::BucketConfig config;
    config.name = args.arg("NAME");
    config.endpoint = args.value("endpoint");
    config.bucket = args.value("bucket");
    config.region = args.value("region", QStringLiteral("us-east-1"));
    if (config.endpoint.isEmpty() || config.bucket.isEmpty())
        return context.usage(QStringLiteral("storage add needs --endpoint URL and --bucket B"));
    if (Result<void> named = Buckets::checkName(config.name); !named)
        return context.usage(named.error().message);
    const std::optional<QString> store = args.optional("store");
    if (store && *store != QLatin1String("file"))
        return context.usage(QStringLiteral("--store takes one value: file (keys in a file only you can read, for a desktop without a keyring)"));
    auto keys = keysForAdd(config.name);
    if (!keys)
        return context.usage(keys.error().message);
    if (store && keys->second == KeySource::Keychain) {
        if (Result<void> enabled = enableSecretsFile(context.configDir); !enabled)
            return context.fail(enabled.error());
    }
    // Keys from the environment need no keychain at all.
    std::unique_ptr<SecretStore> secrets = keys->second == KeySource::Keychain ? makeDesktopSecretStore(context.configDir)
                                                                              : makeMemorySecretStore();
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    Result<StoredBucket> added = Buckets(context.configDir, secrets.get()).add(config, keys->first, keys->second, interrupt.token().flag());
    if (!added)
        return context.fail(added.error());
    if (context.json) {
        context.printJson(bucketJson(*added));
    } else {
        context.out << QStringLiteral("Added storage %1 (bucket %2 at %3); the keys work%4.")
                           .arg(added->config.name, added->config.bucket, added->config.endpoint,
                                added->keys == KeySource::Environment ? QStringLiteral(" and are read from the environment at each use")
                                                                      : QStringLiteral(" and are in the keychain"))
                    << Qt::endl;
    }
    return ExitOk;
}

int listCommand(Context &context, const Args &)
{
    std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
    Result<QList<StoredBucket>> buckets = Buckets(context.configDir, secrets.get()).list();
    if (!buckets)
        return context.fail(buckets.error());
    QJsonArray array;
    for (const StoredBucket &bucket : std::as_const(*buckets)) {
        if (context.json) {
            array.append(bucketJson(bucket));
            continue;
        }
        context.out << QStringLiteral("%1 s3://%2 at %3 (region %4, keys: %5)")
                           .arg(text::printable(bucket.config.name).leftJustified(16), text::printable(bucket.config.bucket),
                                text::printable(bucket.config.endpoint), text::printable(bucket.config.region),
                                storage::keySourceName(bucket.keys))
                    << '\n';
    }
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("storage"), array}});
    else if (buckets->isEmpty())
        context.out << "No storage yet: add a bucket with gantry-cli storage add NAME --endpoint URL --bucket B\n";
    context.out.flush();
    return ExitOk;
}

// One page of ListObjectsV2 after another, "folders" (common prefixes) first in each.
int lsCommand(Context &context, const Args &args)
{
    const QString spec = args.arg("NAME[/PREFIX]");
    const QString name = spec.section(QLatin1Char('/'), 0, 0);
    const QString prefix = spec.contains(QLatin1Char('/')) ? spec.section(QLatin1Char('/'), 1) : QString();
    std::unique_ptr<SecretStore> secrets = makeDesktopSecretStore(context.configDir);
    Result<storage::S3Client> client = Buckets(context.configDir, secrets.get()).client(name);
    if (!client)
        return context.fail(client.error());
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    const QString delimiter = args.has("recursive") ? QString() : QStringLiteral("/");
    QJsonArray objects;
    QJsonArray prefixes;
    QString token;
    do {
        Result<storage::ListPage> page = client->listPage(prefix, delimiter, token, storage::kMaxKeysPerPage, interrupt.token().flag());
        if (!page)
            return context.fail(page.error());
        for (const QString &common : std::as_const(page->commonPrefixes)) {
            if (context.json)
                prefixes.append(common);
            else
                context.out << QStringLiteral("%1  %2  %3").arg(QStringLiteral("dir"), -4).arg(QString(), 14).arg(text::printable(common)) << '\n';
        }
        for (const storage::ObjectInfo &object : std::as_const(page->objects)) {
            const QString modified = object.lastModified.toUTC().toString(Qt::ISODate);
            if (context.json) {
                objects.append(QJsonObject{{QStringLiteral("key"), object.key}, {QStringLiteral("size"), object.size},
                                           {QStringLiteral("etag"), object.etag}, {QStringLiteral("modified"), modified}});
            } else {
                context.out << QStringLiteral("%1  %2  %3  %4").arg(QStringLiteral("file"), -4).arg(object.size, 14).arg(modified, -20).arg(text::printable(object.key))
                            << '\n';
            }
        }
        token = page->truncated ? page->nextToken : QString();
    } while (!token.isEmpty());
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("storage"), name}, {QStringLiteral("prefix"), prefix},
                                      {QStringLiteral("prefixes"), prefixes}, {QStringLiteral("objects"), objects}});
    context.out.flush();
    return ExitOk;
}

int removeCommand(Context &context, const Args &args)
{
    const QString name = args.arg("NAME");
    std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
    Buckets probe(context.configDir, secrets.get());
    Result<StoredBucket> bucket = probe.find(name);
    if (!bucket)
        return context.fail(bucket.error());
    if (bucket->keys == KeySource::Keychain)
        secrets = makeDesktopSecretStore(context.configDir);
    if (Result<void> removed = Buckets(context.configDir, secrets.get()).remove(name); !removed)
        return context.fail(removed.error());
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("removed"), name}});
    else
        context.out << QStringLiteral("Removed storage %1 and its keys from Gantry; the bucket and its objects are untouched.").arg(name) << Qt::endl;
    return ExitOk;
}

const Argument kName{"NAME"};

const Registrar storageRegistrar(Command{
    .name = "storage",
    .summary = "S3-compatible buckets (AWS S3, R2, B2, MinIO, Wasabi, OSS, COS): add, list, ls, remove",
    .subcommands = {
        {.name = "add",
         .summary = "add a bucket after one request proves the keys work (keys: AWS_* variables, used and never stored, or two lines on stdin, kept in the keychain)",
         .options = {{.name = "endpoint", .value = "URL", .help = "the S3 API's URL, e.g. https://s3.eu-west-1.amazonaws.com or https://ACCOUNT.r2.cloudflarestorage.com (http:// only on localhost)"},
                     {.name = "bucket", .value = "B", .help = "the bucket's name"},
                     {.name = "region", .value = "R", .help = "the region signatures name (default us-east-1; auto for R2)"},
                     {.name = "store", .value = "file", .help = "keep the keys in a file only you can read, where no keyring runs", .choices = "file"}},
         .arguments = {kName},
         .run = addCommand},
        {.name = "list", .summary = "the configured buckets and where their keys come from", .run = listCommand},
        {.name = "ls",
         .summary = "list objects (and folders) under a prefix, every page",
         .options = {{.name = "recursive", .help = "every object under the prefix, without folders", .shortName = 'r'}},
         .arguments = {{"NAME[/PREFIX]"}},
         .run = lsCommand},
        {.name = "remove", .summary = "forget a bucket and its stored keys (the bucket and its objects stay)", .arguments = {kName}, .run = removeCommand},
    },
    .defaultSubcommand = "list",
});

} // namespace
} // namespace gantry::cli
