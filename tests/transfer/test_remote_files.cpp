// SPDX-License-Identifier: Apache-2.0
// transfer::RemoteFiles against the real test sshd, without widgets: every operation answers on
// the owner thread with a Result; a delete held on the host (the gated rm) holds up no listing and
// keeps its session to itself; its token, a destroyed context and a destroyed service stop it.

#include "gatedrm.h"
#include "sshdfixture.h"

#include "core/transfer/remotefiles.h"
#include "core/transfer/sessionfactory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <optional>

using namespace gantry;
using namespace gantry::transfer;

namespace {

const QString kHost = QStringLiteral("fixture");

void writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// What went wrong, for a failed check's message (QVERIFY2 reads it whatever the outcome).
template<typename T>
QString why(const Result<T> &result)
{
    return result ? QString() : result.error().message;
}

// One operation's answer, kept by its done callback; checks that it comes on the owner thread.
template<typename T>
class Answer
{
public:
    RemoteFiles::Done<T> done() const
    {
        return [held = m_held](Result<T> result) {
            held->onOwnerThread = QThread::currentThread() == QCoreApplication::instance()->thread();
            held->result.emplace(std::move(result));
        };
    }
    bool arrived() const { return m_held->result.has_value(); }
    bool onOwnerThread() const { return m_held->onOwnerThread; }
    const Result<T> &operator*() const { return *m_held->result; }
    const Result<T> *operator->() const { return &*m_held->result; }

private:
    struct Held
    {
        std::optional<Result<T>> result;
        bool onOwnerThread = false;
    };
    std::shared_ptr<Held> m_held = std::make_shared<Held>();
};

} // namespace

class TestRemoteFiles : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_bin;
    QTemporaryDir m_remote;

    RemoteFiles::FactoryProvider provider()
    {
        return [this](const QString &host) -> Result<SessionFactory> {
            if (host != kHost) return Error{ErrorCode::NotFound, QStringLiteral("No saved host named %1.").arg(host)};
            return makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        };
    }

    // A tree whose delete the gated rm holds until its gate opens.
    QString gatedTree(const QString &name)
    {
        const QString tree = m_remote.filePath(name + QStringLiteral("/gated-tree"));
        for (int i = 0; i < 50; ++i) writeText(tree + QStringLiteral("/d%1/f%2.txt").arg(i % 5).arg(i), "x");
        return tree;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::writeGatedRm(m_bin.path()));
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        GANTRY_REQUIRE_SSHD(m_sshd.start(options));
    }

    void everyOperationAnswersOnTheOwnerThread()
    {
        RemoteFiles files(provider());
        const QString base = m_remote.filePath(QStringLiteral("ops"));
        writeText(base + QStringLiteral("/a.txt"), "a");
        writeText(base + QStringLiteral("/sub/b.txt"), "b");

        Answer<RemoteListing> home;
        files.list(kHost, QStringLiteral("."), nullptr, home.done());
        QVERIFY(!home.arrived()); // never from inside the call
        QTRY_VERIFY_WITH_TIMEOUT(home.arrived(), 20000);
        QVERIFY2(home->ok(), qPrintable(why(*home)));
        QVERIFY(home.onOwnerThread());
        QVERIFY2((*home)->path.startsWith(QLatin1Char('/')), qPrintable((*home)->path));

        Answer<QString> made;
        files.makeFolder(kHost, base, QStringLiteral("new folder"), nullptr, made.done());
        QTRY_VERIFY_WITH_TIMEOUT(made.arrived(), 20000);
        QVERIFY2(made->ok(), qPrintable(why(*made)));
        QCOMPARE(made->value(), base + QStringLiteral("/new folder"));
        QVERIFY(QFileInfo(base + QStringLiteral("/new folder")).isDir());
        Answer<QString> badName;
        files.makeFolder(kHost, base, QStringLiteral("../out"), nullptr, badName.done());
        QTRY_VERIFY_WITH_TIMEOUT(badName.arrived(), 20000);
        QVERIFY(!badName->ok());
        QCOMPARE(badName->error().code, ErrorCode::Usage);

        Answer<QString> renamed;
        files.rename(kHost, base + QStringLiteral("/a.txt"), QStringLiteral("c.txt"), nullptr, renamed.done());
        QTRY_VERIFY_WITH_TIMEOUT(renamed.arrived(), 20000);
        QVERIFY2(renamed->ok(), qPrintable(why(*renamed)));
        QCOMPARE(renamed->value(), base + QStringLiteral("/c.txt"));
        Answer<QString> onto;
        files.rename(kHost, base + QStringLiteral("/c.txt"), QStringLiteral("sub"), nullptr, onto.done());
        QTRY_VERIFY_WITH_TIMEOUT(onto.arrived(), 20000);
        QVERIFY(!onto->ok());
        QCOMPARE(onto->error().code, ErrorCode::Conflict);
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/c.txt")));

        Answer<RemoteTreeCount> counted;
        files.count(kHost, {base + QStringLiteral("/sub"), base + QStringLiteral("/c.txt")}, nullptr, counted.done());
        QTRY_VERIFY_WITH_TIMEOUT(counted.arrived(), 20000);
        QVERIFY2(counted->ok(), qPrintable(why(*counted)));
        QCOMPARE((*counted)->files, 2);
        QCOMPARE((*counted)->folders, 1);
        QVERIFY((*counted)->isDir);

        Answer<void> refused;
        files.remove(kHost, {base + QStringLiteral("/sub")}, false, nullptr, refused.done());
        QTRY_VERIFY_WITH_TIMEOUT(refused.arrived(), 20000);
        QVERIFY(!refused->ok());
        QCOMPARE(refused->error().code, ErrorCode::Conflict); // not empty, not recursive
        Answer<void> removed;
        files.remove(kHost, {base + QStringLiteral("/sub"), base + QStringLiteral("/c.txt")}, true, nullptr, removed.done());
        QTRY_VERIFY_WITH_TIMEOUT(removed.arrived(), 20000);
        QVERIFY2(removed->ok(), qPrintable(why(*removed)));
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/sub")));

        Answer<RemoteListing> listed;
        files.list(kHost, base, nullptr, listed.done());
        QTRY_VERIFY_WITH_TIMEOUT(listed.arrived(), 20000);
        QVERIFY2(listed->ok(), qPrintable(why(*listed)));
        QCOMPARE((*listed)->entries.size(), 1); // "new folder"
        Answer<RemoteListing> missing;
        files.list(kHost, base + QStringLiteral("/gone"), nullptr, missing.done());
        QTRY_VERIFY_WITH_TIMEOUT(missing.arrived(), 20000);
        QVERIFY(!missing->ok());
    }

    void anUnknownHostIsAnAnswerToo()
    {
        RemoteFiles files(provider());
        Answer<RemoteListing> answer;
        files.list(QStringLiteral("nowhere"), QStringLiteral("."), nullptr, answer.done());
        QVERIFY(!answer.arrived());
        QTRY_VERIFY_WITH_TIMEOUT(answer.arrived(), 20000);
        QVERIFY(!answer->ok());
        QCOMPARE(answer->error().code, ErrorCode::NotFound);
        QVERIFY(answer->error().message.contains(QStringLiteral("nowhere")));
    }

    // One after another, operations reuse an idle session; a host keeps kMaxIdlePerHost at most.
    void idleSessionsAreReusedAndClosed()
    {
        RemoteFiles files(provider());
        for (int round = 0; round < 2; ++round) {
            Answer<RemoteListing> answer;
            files.list(kHost, QStringLiteral("."), nullptr, answer.done());
            QTRY_VERIFY_WITH_TIMEOUT(answer.arrived(), 20000);
            QVERIFY2(answer->ok(), qPrintable(why(*answer)));
            QCOMPARE(files.idleSessions(kHost), 1);
        }
        QList<Answer<RemoteListing>> together(4);
        for (const auto &answer : together) files.list(kHost, QStringLiteral("."), nullptr, answer.done());
        for (const auto &answer : together) QTRY_VERIFY_WITH_TIMEOUT(answer.arrived(), 20000);
        QVERIFY(files.idleSessions(kHost) >= 1);
        QVERIFY(files.idleSessions(kHost) <= RemoteFiles::kMaxIdlePerHost);
        files.closeIdle();
        QCOMPARE(files.idleSessions(kHost), 0);
    }

    // The delete held on the host keeps its session; a listing meanwhile gets another and answers.
    void aListingAnswersWhileADeleteRuns()
    {
        RemoteFiles files(provider());
        const QString tree = gatedTree(QStringLiteral("busy"));
        Answer<RemoteListing> first;
        files.list(kHost, QFileInfo(tree).path(), nullptr, first.done());
        QTRY_VERIFY_WITH_TIMEOUT(first.arrived(), 20000);
        QVERIFY2(first->ok(), qPrintable(why(*first)));
        QCOMPARE(files.idleSessions(kHost), 1);

        Answer<void> removed;
        files.remove(kHost, {tree}, true, nullptr, removed.done());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".started")), 30000);
        QCOMPARE(files.idleSessions(kHost), 0); // the delete has the idle one

        Answer<RemoteListing> meanwhile;
        files.list(kHost, tree, nullptr, meanwhile.done());
        QTRY_VERIFY_WITH_TIMEOUT(meanwhile.arrived(), 20000);
        QVERIFY2(meanwhile->ok(), qPrintable(why(*meanwhile)));
        QCOMPARE((*meanwhile)->entries.size(), 5);
        QVERIFY(!removed.arrived()); // still held on the host
        QCOMPARE(files.idleSessions(kHost), 1); // the listing's own, given back

        writeText(tree + QStringLiteral(".gate"), "");
        QTRY_VERIFY_WITH_TIMEOUT(removed.arrived(), 30000);
        QVERIFY2(removed->ok(), qPrintable(why(*removed)));
        QVERIFY(!QFileInfo::exists(tree));
        QCOMPARE(files.idleSessions(kHost), 2);
    }

    void theTokenStopsTheDelete()
    {
        RemoteFiles files(provider());
        const QString tree = gatedTree(QStringLiteral("cancelled"));
        Answer<void> removed;
        const CancelToken token = files.remove(kHost, {tree}, true, nullptr, removed.done());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".started")), 30000);
        token.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(removed.arrived(), 30000);
        QVERIFY(!removed->ok());
        QCOMPARE(removed->error().code, ErrorCode::Cancelled);
        QVERIFY(QFileInfo::exists(tree + QStringLiteral(".interrupted"))); // the host's rm was stopped
        QVERIFY(QFileInfo::exists(tree + QStringLiteral("/d0/f0.txt")));
        QCOMPARE(files.idleSessions(kHost), 0); // an interrupted session is closed, not reused
    }

    void aDestroyedContextDropsTheAnswerAndStopsTheDelete()
    {
        RemoteFiles files(provider());
        const QString tree = gatedTree(QStringLiteral("context"));
        auto *context = new QObject;
        Answer<void> removed;
        files.remove(kHost, {tree}, true, context, removed.done());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".started")), 30000);
        delete context;
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".interrupted")), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(files.runningOperations(), 0, 30000);
        Answer<RemoteListing> after; // one more answer through the event loop
        files.list(kHost, QStringLiteral("."), nullptr, after.done());
        QTRY_VERIFY_WITH_TIMEOUT(after.arrived(), 20000);
        QVERIFY(!removed.arrived());
        QVERIFY(QFileInfo::exists(tree + QStringLiteral("/d0/f0.txt")));
    }

    // The service goes (the application closes) while a delete is held: its destructor cancels
    // and returns without waiting for the worker; a context that outlives it hears "stopped".
    void destroyingTheServiceCancelsWithoutWaiting()
    {
        auto files = std::make_unique<RemoteFiles>(provider());
        const QString tree = gatedTree(QStringLiteral("closing"));
        Answer<void> removed;
        files->remove(kHost, {tree}, true, this, removed.done());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".started")), 30000);
        files.reset();
        // Had it waited for the worker, the host's rm would have been interrupted by now.
        QVERIFY(!QFileInfo::exists(tree + QStringLiteral(".interrupted")));
        QTRY_VERIFY_WITH_TIMEOUT(removed.arrived(), 30000);
        QVERIFY(!removed->ok());
        QCOMPARE(removed->error().code, ErrorCode::Cancelled);
        QVERIFY(QFileInfo::exists(tree + QStringLiteral(".interrupted")));
        QVERIFY(QFileInfo::exists(tree + QStringLiteral("/d0/f0.txt")));
    }
};

QTEST_GUILESS_MAIN(TestRemoteFiles)
#include "test_remote_files.moc"
