#include "clicommand.h"
#include "cliconnect.h"
#include "scopedsignal.h"
#include "core/hosts/machinefacts.h"
#include "core/ssh/keygen.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <csignal>
#include <cstdio>

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

std::atomic_bool g_interrupted{false};

void onSigint(int)
{
    g_interrupted = true;
}

int execCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options)
        return context.fail(options.error());
    const qsizetype dashes = args.indexOf(QStringLiteral("--"));
    if (args.isEmpty() || dashes != 1 || dashes + 1 >= args.size())
        return context.usage(CliText::tr("exec HOST -- COMMAND…"));
    QStringList words = args.mid(dashes + 1);
    // One word is taken as a shell line ("exec h -- 'cd x && make'"); several are quoted one by one.
    QString command;
    if (words.size() == 1) {
        command = words.first();
    } else {
        for (QString &word : words)
            word = ssh::shellQuote(word);
        command = words.join(QLatin1Char(' '));
    }
    auto session = connectHost(context, args.first(), *options);
    if (!session)
        return context.fail(session.error());
    const ScopedSignal ctrlC(SIGINT, onSigint);
    ssh::Session::ExecOptions exec;
    exec.cancel = &g_interrupted;
    exec.maxOutputBytes = 0; // streamed to the terminal, never collected
    exec.onStdout = [](const QByteArray &data) {
        fwrite(data.constData(), 1, static_cast<size_t>(data.size()), stdout);
        fflush(stdout);
    };
    exec.onStderr = [](const QByteArray &data) {
        fwrite(data.constData(), 1, static_cast<size_t>(data.size()), stderr);
        fflush(stderr);
    };
    auto status = (*session)->exec(command, exec);
    if (!status) {
        if (status.error().code == ErrorCode::Cancelled)
            return 130;
        return context.fail(status.error());
    }
    return *status < 0 ? ExitFailure : *status;
}

int factsCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options)
        return context.fail(options.error());
    if (args.size() != 1)
        return context.usage(CliText::tr("facts HOST"));
    auto session = connectHost(context, args.first(), *options);
    if (!session)
        return context.fail(session.error());
    const ScopedSignal ctrlC(SIGINT, onSigint);
    auto facts = gatherMachineFacts(**session, &g_interrupted);
    if (!facts)
        return context.fail(facts.error());
    if (context.json) {
        QJsonObject object = facts->toJson();
        object[QStringLiteral("host")] = (*session)->target().display();
        context.printJson(object);
        return ExitOk;
    }
    QTextStream &out = context.out;
    // Every value is what the host reported: escaped, so a hostile host cannot drive the terminal.
    auto row = [&out](const QString &label, const QString &value) { out << label.leftJustified(14) << text::printable(value) << '\n'; };
    row(CliText::tr("Host"), (*session)->target().display());
    row(CliText::tr("OS"), facts->os + QStringLiteral(" (") + facts->kernel + QLatin1Char(')'));
    row(CliText::tr("CPU"), QStringLiteral("%1 × %2").arg(facts->cpuCores).arg(facts->cpuModel));
    if (facts->memTotalMiB)
        row(CliText::tr("Memory"), CliText::tr("%1 GiB (%2 GiB available)").arg(double(*facts->memTotalMiB) / 1024, 0, 'f', 1)
                               .arg(double(facts->memAvailableMiB.value_or(0)) / 1024, 0, 'f', 1));
    if (facts->diskFreeMiB)
        row(CliText::tr("Disk free"), CliText::tr("%1 GiB of %2 GiB on %3").arg(double(*facts->diskFreeMiB) / 1024, 0, 'f', 1)
                                  .arg(double(facts->diskTotalMiB.value_or(0)) / 1024, 0, 'f', 1).arg(facts->diskMount));
    for (const MachineFacts::Gpu &gpu : facts->gpus)
        row(CliText::tr("GPU %1").arg(gpu.index), gpu.name + (gpu.memoryTotalMiB ? CliText::tr(", %1 MiB").arg(*gpu.memoryTotalMiB) : QString()));
    if (facts->nvidiaSmiFound)
        row(CliText::tr("Driver"), CliText::tr("%1 (CUDA %2)").arg(facts->driverVersion, facts->cudaVersion));
    row(CliText::tr("Python"), facts->pythonVersion.isEmpty() ? CliText::tr("not found") : facts->pythonVersion);
    if (!facts->torchVersion.isEmpty())
        row(CliText::tr("PyTorch"), CliText::tr("%1, CUDA %2, cuda.is_available() = %3")
                               .arg(facts->torchVersion, facts->torchCudaVersion.isEmpty() ? CliText::tr("none") : facts->torchCudaVersion,
                                    facts->torchCudaAvailable.value_or(false) ? QStringLiteral("True") : QStringLiteral("False")));
    for (const MachineFacts::Problem &problem : facts->problems)
        out << CliText::tr("Problem: %1\n  Fix: %2").arg(text::printableLines(problem.message), text::printableLines(problem.fix)) << '\n';
    out.flush();
    return ExitOk;
}

int keygenCommand(Context &context, const QStringList &args)
{
    QString path;
    QString comment = QStringLiteral("gantry");
    QString passphraseEnv;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1StringView("--comment") && i + 1 < args.size())
            comment = args[++i];
        else if (args[i] == QLatin1StringView("--passphrase-env") && i + 1 < args.size())
            passphraseEnv = args[++i];
        else if (path.isEmpty() && !args[i].startsWith(QLatin1Char('-')))
            path = args[i];
        else
            return context.usage(CliText::tr("keygen PATH [--comment TEXT] [--passphrase-env VAR]"));
    }
    if (path.isEmpty())
        return context.usage(CliText::tr("keygen PATH [--comment TEXT] [--passphrase-env VAR]"));
    const QString passphrase = passphraseEnv.isEmpty() ? QString() : qEnvironmentVariable(passphraseEnv.toLocal8Bit().constData());
    auto key = ssh::generateEd25519Key(path, comment, passphrase);
    if (!key)
        return context.fail(key.error());
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("private_key"), key->privateKeyPath},
                                      {QStringLiteral("public_key_file"), key->publicKeyPath},
                                      {QStringLiteral("public_key"), key->publicKey},
                                      {QStringLiteral("fingerprint"), key->fingerprint}});
    } else {
        context.out << CliText::tr("Wrote %1 (mode 0600) and %2.\nFingerprint: %3\nPublic key (paste it into your provider or "
                                   "~/.ssh/authorized_keys):\n%4")
                           .arg(key->privateKeyPath, key->publicKeyPath, key->fingerprint, key->publicKey)
                    << Qt::endl;
    }
    return ExitOk;
}

const Registrar execRegistrar("exec", "exec HOST -- COMMAND…   run a command, stream its output, exit with its status", execCommand);
const Registrar factsRegistrar("facts", "facts HOST   OS, CPU, RAM, disk, GPUs, driver/CUDA, Python/PyTorch, with fixes", factsCommand);
const Registrar keygenRegistrar("keygen", "keygen PATH [--comment TEXT] [--passphrase-env VAR]   new ed25519 key pair", keygenCommand);

} // namespace
} // namespace gantry::cli
