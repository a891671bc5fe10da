// SPDX-License-Identifier: Apache-2.0
// A sync's events: how they are made, and how `gantry-cli sync --json` writes and reads them.
#include "core/sync/syncengine.h"
#include "core/sync/synctext.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace gantry::sync {

SyncEvent SyncEvent::note(const QString &text)
{
    SyncEvent e;
    e.message = text;
    return e;
}

SyncEvent SyncEvent::reconnecting(const QString &host, int seconds)
{
    SyncEvent e;
    e.kind = Reconnecting;
    e.seconds = seconds;
    e.message = SyncText::tr("The connection to %1 dropped; trying again in %2 s.").arg(host).arg(seconds);
    return e;
}

SyncEvent SyncEvent::file(Kind kind, const QByteArray &path, quint64 bytes, bool changed, bool dryRun)
{
    SyncEvent e;
    e.kind = kind;
    e.path = path;
    e.bytes = bytes;
    e.changed = changed;
    e.dryRun = dryRun;
    return e;
}

QJsonObject eventToJson(const SyncEvent &e)
{
    const QString path = displayPath(e.path);
    switch (e.kind) {
    case SyncEvent::Scan:
        return {{QStringLiteral("event"), QStringLiteral("scan")}, {QStringLiteral("files"), e.files},
                {QStringLiteral("bytes"), qint64(e.bytes)}, {QStringLiteral("ignored"), e.ignored},
                {QStringLiteral("seconds"), e.seconds}};
    case SyncEvent::Plan:
        return {{QStringLiteral("event"), QStringLiteral("plan")}, {QStringLiteral("new"), e.newFiles},
                {QStringLiteral("changed"), e.changedFiles}, {QStringLiteral("unchanged"), e.unchanged},
                {QStringLiteral("delete"), e.toDelete}, {QStringLiteral("bytes"), qint64(e.bytes)},
                {QStringLiteral("dryRun"), e.dryRun}};
    case SyncEvent::Sent:
        return {{QStringLiteral("event"), QStringLiteral("file")}, {QStringLiteral("action"), QStringLiteral("send")},
                {QStringLiteral("path"), path}, {QStringLiteral("bytes"), qint64(e.bytes)},
                {QStringLiteral("changed"), e.changed}, {QStringLiteral("dryRun"), e.dryRun}};
    case SyncEvent::Deleted:
        return {{QStringLiteral("event"), QStringLiteral("file")}, {QStringLiteral("action"), QStringLiteral("delete")},
                {QStringLiteral("path"), path}, {QStringLiteral("dryRun"), e.dryRun}};
    case SyncEvent::Done:
        return {{QStringLiteral("event"), QStringLiteral("done")}, {QStringLiteral("sent"), e.files},
                {QStringLiteral("deleted"), e.deleted}, {QStringLiteral("bytes"), qint64(e.bytes)},
                {QStringLiteral("seconds"), e.seconds}, {QStringLiteral("dryRun"), e.dryRun}};
    case SyncEvent::Reconnecting:
        return {{QStringLiteral("event"), QStringLiteral("reconnecting")}, {QStringLiteral("reason"), e.message},
                {QStringLiteral("seconds"), e.seconds}};
    case SyncEvent::Note:
        break;
    }
    return {{QStringLiteral("event"), QStringLiteral("note")}, {QStringLiteral("message"), e.message}};
}

SyncEvent eventFromJson(const QJsonObject &line)
{
    const QString name = line.value(QStringLiteral("event")).toString();
    const auto count = [&](const char *key) { return line.value(QLatin1String(key)).toInt(); };
    SyncEvent e;
    e.bytes = quint64(line.value(QStringLiteral("bytes")).toInteger());
    e.dryRun = line.value(QStringLiteral("dryRun")).toBool();
    e.seconds = line.value(QStringLiteral("seconds")).toDouble();
    e.path = line.value(QStringLiteral("path")).toString().toUtf8(); // for display only
    e.changed = line.value(QStringLiteral("changed")).toBool();
    if (name == QLatin1String("scan")) {
        e.kind = SyncEvent::Scan;
        e.files = count("files");
        e.ignored = count("ignored");
    } else if (name == QLatin1String("plan")) {
        e.kind = SyncEvent::Plan;
        e.newFiles = count("new");
        e.changedFiles = count("changed");
        e.unchanged = count("unchanged");
        e.toDelete = count("delete");
    } else if (name == QLatin1String("file")) {
        e.kind = line.value(QStringLiteral("action")).toString() == QLatin1String("delete") ? SyncEvent::Deleted : SyncEvent::Sent;
    } else if (name == QLatin1String("done")) {
        e.kind = SyncEvent::Done;
        e.files = count("sent");
        e.deleted = count("deleted");
    } else if (name == QLatin1String("reconnecting")) {
        e.kind = SyncEvent::Reconnecting;
        e.message = line.value(QStringLiteral("reason")).toString();
    } else {
        e.message = line.value(QStringLiteral("message")).toString();
    }
    return e;
}

} // namespace gantry::sync
