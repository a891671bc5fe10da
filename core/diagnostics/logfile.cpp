#include "core/diagnostics/logfile.h"

#include "core/util/paths.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QMutex>

#include <cstdio>

namespace gantry::diagnostics {
namespace {

constexpr qint64 kMaxLogBytes = 1 << 20;

QMutex g_mutex;
QString g_path;

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg: return "debug";
    case QtInfoMsg: return "info";
    case QtWarningMsg: return "warning";
    case QtCriticalMsg: return "critical";
    case QtFatalMsg: return "fatal";
    }
    return "?";
}

void handler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray line = QStringLiteral("%1 %2 %3: %4\n")
                                .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs),
                                     QString::fromLatin1(levelName(type)),
                                     QString::fromLatin1(context.category ? context.category : "default"), message)
                                .toUtf8();
    fputs(line.constData(), stderr);
    if (type == QtDebugMsg)
        return; // debug output is for developers' terminals, not for reports
    QMutexLocker lock(&g_mutex);
    QFile file(g_path);
    if (file.size() > kMaxLogBytes) {
        QFile::remove(g_path + QStringLiteral(".1"));
        QFile::rename(g_path, g_path + QStringLiteral(".1"));
    }
    if (file.open(QIODevice::Append | QIODevice::WriteOnly))
        file.write(line);
}

} // namespace

QString logDir(const QString &configDir)
{
    return QDir(configDir).filePath(QStringLiteral("logs"));
}

void installLogFile(const QString &configDir)
{
    const QString dir = logDir(configDir);
    if (!paths::makePrivateDir(dir))
        return;
    {
        QMutexLocker lock(&g_mutex);
        g_path = QDir(dir).filePath(QStringLiteral("gantry.log"));
    }
    qInstallMessageHandler(handler);
}

} // namespace gantry::diagnostics
