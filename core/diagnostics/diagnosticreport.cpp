#include "core/diagnostics/diagnosticreport.h"

#include "core/diagnostics/logfile.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/providers/providerregistry.h"
#include "core/util/secretstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSaveFile>
#include <QSysInfo>

namespace gantry::diagnostics {
namespace {

class DiagnosticText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::diagnostics)
};

constexpr qint64 kMaxFileBytes = 256 * 1024; // the tail of each log is enough for a bug report

QString readTail(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    if (file.size() > kMaxFileBytes)
        file.seek(file.size() - kMaxFileBytes);
    return QString::fromUtf8(file.readAll());
}

void appendSection(QString &report, const QString &title, const QString &body)
{
    report += QStringLiteral("\n== %1 ==\n").arg(title);
    report += body.isEmpty() ? QStringLiteral("(none)\n") : body;
    if (!report.endsWith(QLatin1Char('\n')))
        report += QLatin1Char('\n');
}

QString fileListing(const QString &configDir)
{
    QString listing;
    QDirIterator it(configDir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    QStringList lines;
    while (it.hasNext()) {
        it.next();
        lines << QStringLiteral("%1  %2 bytes").arg(QDir(configDir).relativeFilePath(it.filePath())).arg(it.fileInfo().size());
    }
    lines.sort();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QStringList collectKnownSecrets(const QString &configDir, SecretStore *secrets)
{
    QStringList found;
    auto add = [&found](const Result<std::optional<QString>> &read) {
        if (read && read->has_value() && !(*read)->isEmpty())
            found << **read;
    };
    for (const QString &id : providers::knownProviderIds()) {
        if (!providers::providerNeedsApiKey(id))
            continue;
        const QString env = qEnvironmentVariable(providers::apiKeyEnvName(id).toLatin1().constData());
        if (!env.isEmpty())
            found << env;
        if (secrets)
            add(secrets->read(providers::apiKeySecretName(id)));
    }
    HostStore hosts(configDir);
    if (secrets && hosts.load()) {
        for (const SavedHost &host : hosts.hosts()) {
            for (const QString &kind : {QStringLiteral("password"), QStringLiteral("passphrase")})
                add(secrets->read(hostSecretKey(host.name, kind)));
        }
    }
    return found;
}

QString buildReport(const QString &configDir, const QStringList &knownSecrets, const QStringList &extraFacts)
{
    QString report = QStringLiteral("Gantry diagnostic report\nWritten %1 by %2 %3\n")
                         .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate), QCoreApplication::applicationName(),
                              QCoreApplication::applicationVersion());
    QStringList facts{
        QStringLiteral("Qt: %1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)),
        QStringLiteral("OS: %1, kernel %2 %3, %4").arg(QSysInfo::prettyProductName(), QSysInfo::kernelType(), QSysInfo::kernelVersion(),
                                                      QSysInfo::currentCpuArchitecture()),
        QStringLiteral("Config folder: %1").arg(QDir::toNativeSeparators(configDir)),
    };
    providers::ProviderSettings settings;
    settings.configDir = configDir;
    for (const QString &id : providers::knownProviderIds())
        facts << QStringLiteral("Provider %1: endpoint %2").arg(id, providers::endpointFor(id, settings));
    appendSection(report, QStringLiteral("Facts"), (facts + extraFacts).join(QLatin1Char('\n')));
    appendSection(report, QStringLiteral("Files in the config folder"), fileListing(configDir));
    const QDir dir(configDir);
    for (const QString &name : {QStringLiteral("gantry.ini"), QStringLiteral("hosts.json"), QStringLiteral("queue.json")})
        appendSection(report, name, readTail(dir.filePath(name)));
    const QDir logs(logDir(configDir));
    for (const QString &name : {QStringLiteral("gantry.log.1"), QStringLiteral("gantry.log")})
        appendSection(report, QStringLiteral("logs/") + name, readTail(logs.filePath(name)));
    return redact(report, knownSecrets);
}

Result<void> writeReport(const QString &path, const QString &report)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(report.toUtf8()) < 0 || !file.commit())
        return makeError(ErrorCode::Io, DiagnosticText::tr("Cannot write the diagnostic report to %1 (%2); choose another folder.")
                                            .arg(path, file.errorString()));
    return {};
}

} // namespace gantry::diagnostics
