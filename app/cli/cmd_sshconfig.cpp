#include "clicommand.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/sshconfig/terminal.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

int sshConfigCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    QString file;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == u"--file" && i + 1 < args.size()) {
            file = args[i + 1];
            args.remove(i, 2);
            break;
        }
        if (args[i].startsWith(QStringLiteral("--file="))) {
            file = args[i].mid(7);
            args.remove(i);
            break;
        }
    }
    if (args.size() != 1)
        return context.usage(CliText::tr("ssh-config sync|remove|show [--file PATH]"));
    const QString action = args.first();
    sshconfig::SshConfigFile config(file);
    if (action == u"sync") {
        HostStore store(context.configDir);
        if (auto loaded = store.load(); !loaded)
            return context.fail(loaded.error());
        const QList<sshconfig::HostEntry> entries = sshconfig::entriesFor(store.hosts());
        auto changed = config.sync(entries);
        if (!changed)
            return context.fail(changed.error());
        if (auto enabled = sshconfig::setSyncEnabled(context.configDir, true); !enabled)
            return context.fail(enabled.error());
        QStringList aliases;
        for (const auto &e : entries)
            aliases << e.alias;
        if (context.json) {
            context.printJson(QJsonObject{{QStringLiteral("file"), config.path()},
                                          {QStringLiteral("changed"), *changed},
                                          {QStringLiteral("hosts"), QJsonArray::fromStringList(aliases)}});
        } else if (entries.isEmpty()) {
            context.out << CliText::tr("No Gantry hosts to write (hosts imported from ssh config are already there); %1 has no "
                                       "Gantry block.")
                               .arg(config.path())
                        << Qt::endl;
        } else {
            context.out << CliText::tr("%1 %2 host entries in %3: %4. `ssh NAME`, scp and editors now reach them.")
                               .arg(*changed ? CliText::tr("Wrote") : CliText::tr("Kept"))
                               .arg(entries.size())
                               .arg(config.path(), aliases.join(QStringLiteral(", ")))
                        << Qt::endl;
        }
        return ExitOk;
    }
    if (action == u"remove") {
        auto changed = config.removeBlock();
        if (!changed)
            return context.fail(changed.error());
        if (auto disabled = sshconfig::setSyncEnabled(context.configDir, false); !disabled)
            return context.fail(disabled.error());
        if (context.json)
            context.printJson(QJsonObject{{QStringLiteral("file"), config.path()}, {QStringLiteral("changed"), *changed}});
        else
            context.out << (*changed ? CliText::tr("Removed Gantry's block from %1.") : CliText::tr("%1 has no Gantry block; nothing to do."))
                               .arg(config.path())
                        << Qt::endl;
        return ExitOk;
    }
    if (action == u"show") {
        auto aliases = config.aliases();
        if (!aliases)
            return context.fail(aliases.error());
        if (context.json)
            context.printJson(QJsonObject{{QStringLiteral("file"), config.path()},
                                          {QStringLiteral("enabled"), sshconfig::isSyncEnabled(context.configDir)},
                                          {QStringLiteral("hosts"), QJsonArray::fromStringList(*aliases)}});
        else
            context.out << aliases->join(u'\n') << Qt::endl;
        return ExitOk;
    }
    return context.usage(CliText::tr("ssh-config sync|remove|show [--file PATH]"));
}

const Registrar registrar("ssh-config",
                          "ssh-config sync|remove|show [--file PATH]: keep a managed block of Host entries for Gantry's "
                          "machines in ~/.ssh/config",
                          sshConfigCommand);

} // namespace
} // namespace gantry::cli
