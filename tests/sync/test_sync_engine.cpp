// SyncEngine on its own against the real test sshd: a file that changes while a sync sends it is
// sent again, and what the host keeps is a version the file really had, never a torn one.

#include "sshdfixture.h"

#include "core/sync/syncengine.h"
#include "core/transfer/sessionfactory.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::sync;

class TestSyncEngine : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;

    // Syncs local into remote; onScan runs after the first scan, before anything is sent.
    Result<void> syncWithChange(const QString &local, const QString &remote, const std::function<void()> &onScan,
                                QList<SyncEvent> *events)
    {
        int scans = 0;
        SyncEventSink sink = [&](const SyncEvent &e) {
            events->append(e);
            if (e.kind == SyncEvent::Scan && scans++ == 0) onScan();
        };
        const auto factory = transfer::makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        SyncEngine engine(factory, SyncTarget{QStringLiteral("test"), local, remote, m_config.path()}, SyncOptions{}, sink);
        return engine.run();
    }

    static void write(const QString &path, const QByteArray &content, qint64 mtime)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        QVERIFY(f.flush()); // else the write at close() sets the time again
        QVERIFY(f.setFileTime(QDateTime::fromSecsSinceEpoch(mtime), QFileDevice::FileModificationTime));
    }

    static QByteArray read(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void initTestCase() { GANTRY_REQUIRE_SSHD(m_sshd.start()); }

    void grownWhileSentIsSentAgain()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        const QString file = local.filePath(QStringLiteral("log.txt"));
        write(file, QByteArray(100000, 'a'), 1000000);
        QList<SyncEvent> events;
        auto r = syncWithChange(local.path(), remote.path(), [&] { write(file, QByteArray(150000, 'b'), 2000000); }, &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(read(remote.filePath(QStringLiteral("log.txt"))), QByteArray(150000, 'b'));
        const bool noted = std::any_of(events.begin(), events.end(), [](const SyncEvent &e) { return e.kind == SyncEvent::Note; });
        QVERIFY(noted);
    }

    void rewrittenInPlaceIsSentAgain()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        const QString file = local.filePath(QStringLiteral("cfg.yaml"));
        write(file, QByteArray(5000, 'a'), 1000000);
        QList<SyncEvent> events;
        // Same size, new content, in the same second: the scan's size still matches what is read.
        auto r = syncWithChange(local.path(), remote.path(), [&] {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.write(QByteArray(5000, 'c'));
        }, &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(read(remote.filePath(QStringLiteral("cfg.yaml"))), QByteArray(5000, 'c'));
        QCOMPARE(QFileInfo(remote.filePath(QStringLiteral("cfg.yaml"))).lastModified().toSecsSinceEpoch(),
                 QFileInfo(file).lastModified().toSecsSinceEpoch());
    }
};

QTEST_GUILESS_MAIN(TestSyncEngine)
#include "test_sync_engine.moc"
