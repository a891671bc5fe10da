#include "clicommand.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/sshconfig/terminal.h"

#include <QJsonArray>
#include <QJsonObject>

namespace gantry::cli {
namespace {

int sshConfigCommand(Context &context, const Args &args)
{
    const QString action = QString::fromUtf8(args.command().name);
    sshconfig::SshConfigFile config(args.value("file"));
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
            context.out << QStringLiteral("No Gantry hosts to write (hosts imported from ssh config are already there); %1 has no "
                                       "Gantry block.")
                               .arg(config.path())
                        << Qt::endl;
        } else {
            context.out << QStringLiteral("%1 %2 host entries in %3: %4. `ssh NAME`, scp and editors now reach them.")
                               .arg(*changed ? QStringLiteral("Wrote") : QStringLiteral("Kept"))
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
            context.out << (*changed ? QStringLiteral("Removed Gantry's block from %1.") : QStringLiteral("%1 has no Gantry block; nothing to do."))
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
    return context.usage(QStringLiteral("ssh-config sync|remove|show [--file PATH]"));
}

const Registrar registrar(Command{
    .name = "ssh-config",
    .summary = "keep a managed block of Host entries for Gantry's machines in ~/.ssh/config",
    .options = {{.name = "file", .value = "PATH", .help = "the ssh config file (default ~/.ssh/config)", .complete = Complete::File}},
    .subcommands = {
        {.name = "sync", .summary = "write the block now and keep it in step with the saved hosts", .run = sshConfigCommand},
        {.name = "remove", .summary = "remove the block and stop keeping it", .run = sshConfigCommand},
        {.name = "show", .summary = "the host names in the block", .run = sshConfigCommand},
    },
});

} // namespace
} // namespace gantry::cli
