// exec, facts, keygen: one command on a machine, what the machine is, a new key pair.
#include "clicommand.h"
#include "cliconnect.h"
#include "interruptscope.h"
#include "core/hosts/machinefacts.h"
#include "core/ssh/keygen.h"
#include "core/util/printable.h"

#include <QJsonArray>

#include <cstdio>

namespace gantry::cli {
namespace {

int execCommand(Context &context, const Args &args)
{
    QStringList words = args.rest();
    // One word is taken as a shell line ("exec h -- 'cd x && make'"); several are quoted one by one.
    QString command;
    if (words.size() == 1) {
        command = words.first();
    } else {
        for (QString &word : words)
            word = ssh::shellQuote(word);
        command = words.join(QLatin1Char(' '));
    }
    auto session = connectHost(context, args.arg("HOST"), args.host());
    if (!session)
        return context.fail(session.error());
    const InterruptScope interrupt;
    ssh::Session::ExecOptions exec;
    exec.cancel = interrupt.token().flag();
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
            return interrupt.exitCode();
        return context.fail(status.error());
    }
    return *status < 0 ? ExitFailure : *status;
}

int factsCommand(Context &context, const Args &args)
{
    auto session = connectHost(context, args.arg("HOST"), args.host());
    if (!session)
        return context.fail(session.error());
    const InterruptScope interrupt;
    auto facts = gatherMachineFacts(**session, interrupt.token());
    if (!facts)
        return interrupt.interrupted() ? interrupt.exitCode() : context.fail(facts.error());
    if (context.json) {
        QJsonObject object = facts->toJson();
        object[QStringLiteral("host")] = (*session)->target().display();
        context.printJson(object);
        return ExitOk;
    }
    QTextStream &out = context.out;
    // Every value is what the host reported: escaped, so a hostile host cannot drive the terminal.
    auto row = [&out](const QString &label, const QString &value) { out << label.leftJustified(14) << text::printable(value) << '\n'; };
    row(QStringLiteral("Host"), (*session)->target().display());
    row(QStringLiteral("OS"), facts->os + QStringLiteral(" (") + facts->kernel + QLatin1Char(')'));
    row(QStringLiteral("CPU"), QStringLiteral("%1 × %2").arg(facts->cpuCores).arg(facts->cpuModel));
    if (facts->memTotalMiB)
        row(QStringLiteral("Memory"), QStringLiteral("%1 GiB (%2 GiB available)").arg(double(*facts->memTotalMiB) / 1024, 0, 'f', 1)
                               .arg(double(facts->memAvailableMiB.value_or(0)) / 1024, 0, 'f', 1));
    if (facts->diskFreeMiB)
        row(QStringLiteral("Disk free"), QStringLiteral("%1 GiB of %2 GiB on %3").arg(double(*facts->diskFreeMiB) / 1024, 0, 'f', 1)
                                  .arg(double(facts->diskTotalMiB.value_or(0)) / 1024, 0, 'f', 1).arg(facts->diskMount));
    for (const MachineFacts::Gpu &gpu : facts->gpus)
        row(QStringLiteral("GPU %1").arg(gpu.index), gpu.name + (gpu.memoryTotalMiB ? QStringLiteral(", %1 MiB").arg(*gpu.memoryTotalMiB) : QString()));
    if (facts->nvidiaSmiFound)
        row(QStringLiteral("Driver"), QStringLiteral("%1 (CUDA %2)").arg(facts->driverVersion, facts->cudaVersion));
    row(QStringLiteral("Python"), facts->pythonVersion.isEmpty() ? QStringLiteral("not found") : facts->pythonVersion);
    if (!facts->torchVersion.isEmpty())
        row(QStringLiteral("PyTorch"), QStringLiteral("%1, CUDA %2, cuda.is_available() = %3")
                               .arg(facts->torchVersion, facts->torchCudaVersion.isEmpty() ? QStringLiteral("none") : facts->torchCudaVersion,
                                    facts->torchCudaAvailable.value_or(false) ? QStringLiteral("True") : QStringLiteral("False")));
    for (const MachineFacts::Problem &problem : facts->problems)
        out << QStringLiteral("Problem: %1\n  Fix: %2").arg(text::printableLines(problem.message), text::printableLines(problem.fix)) << '\n';
    out.flush();
    return ExitOk;
}

int keygenCommand(Context &context, const Args &args)
{
    const QString path = args.arg("PATH");
    const QString comment = args.value("comment", QStringLiteral("gantry"));
    const QString passphraseEnv = args.value("passphrase-env");
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
        context.out << QStringLiteral("Wrote %1 (mode 0600) and %2.\nFingerprint: %3\nPublic key (paste it into your provider or "
                                   "~/.ssh/authorized_keys):\n%4")
                           .arg(key->privateKeyPath, key->publicKeyPath, key->fingerprint, key->publicKey)
                    << Qt::endl;
    }
    return ExitOk;
}

const Registrar execRegistrar(Command{
    .name = "exec",
    .summary = "run a command on HOST, stream its output, exit with its status",
    .arguments = {{"HOST", Argument::One, Complete::Host}},
    .groups = Connection,
    .rest = "COMMAND…",
    .needsRest = true,
    .notes = {"One word after -- is a shell line (exec h -- 'cd x && make'); several are quoted one by one. Ctrl+C sends "
              "the remote command SIGINT and exits 130."},
    .run = execCommand,
});
const Registrar factsRegistrar(Command{
    .name = "facts",
    .summary = "OS, CPU, RAM, disk, GPUs, driver/CUDA, Python/PyTorch of HOST, with fixes for what is wrong",
    .arguments = {{"HOST", Argument::One, Complete::Host}},
    .groups = Connection,
    .run = factsCommand,
});
const Registrar keygenRegistrar(Command{
    .name = "keygen",
    .summary = "write a new ed25519 key pair (PATH mode 0600, PATH.pub) and print its public key",
    .options = {{.name = "comment", .value = "TEXT", .help = "the public key's comment (default gantry)"},
                {.name = "passphrase-env", .value = "VAR", .help = "encrypt the private key with the passphrase in the environment variable VAR"}},
    .arguments = {{"PATH", Argument::One, Complete::File}},
    .run = keygenCommand,
});

} // namespace
} // namespace gantry::cli
