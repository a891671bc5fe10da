// The pieces of a sync that need no host: git's ignore semantics, the plan, the listing and
// checksum parsers, the manifest.

#include "core/sync/ignorerules.h"
#include "core/sync/localscan.h"
#include "core/sync/remotetree.h"
#include "core/sync/sftpsend.h"
#include "core/sync/syncmanifest.h"
#include "core/sync/syncplan.h"
#include "core/transfer/remoteops.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace gantry::sync;
using V = IgnoreRules::Verdict;

namespace {

IgnoreRules rules(const QByteArray &base, const QByteArray &content)
{
    IgnoreRules r;
    r.addFile(base, content);
    return r;
}

void touch(const QString &path, const QByteArray &content = "x")
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

SyncEntry file(const QByteArray &path, quint64 size, qint64 mtime, quint32 mode = 0644)
{
    SyncEntry e;
    e.path = path;
    e.size = size;
    e.mtime = mtime;
    e.mode = mode;
    return e;
}

SyncEntry dir(const QByteArray &path)
{
    SyncEntry e;
    e.path = path;
    e.type = SyncEntry::Dir;
    e.mode = 0755;
    return e;
}

} // namespace

class TestSyncUnits : public QObject
{
    Q_OBJECT

private slots:
    void wildmatch_data()
    {
        QTest::addColumn<QByteArray>("pattern");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("match");
        QTest::newRow("literal") << QByteArray("foo") << QByteArray("foo") << true;
        QTest::newRow("star") << QByteArray("*.log") << QByteArray("a.log") << true;
        QTest::newRow("star no slash") << QByteArray("*.log") << QByteArray("d/a.log") << false;
        QTest::newRow("star empty") << QByteArray("a*") << QByteArray("a") << true;
        QTest::newRow("question") << QByteArray("a?c") << QByteArray("abc") << true;
        QTest::newRow("question not slash") << QByteArray("a?c") << QByteArray("a/c") << false;
        QTest::newRow("class") << QByteArray("[abc].txt") << QByteArray("b.txt") << true;
        QTest::newRow("class miss") << QByteArray("[abc].txt") << QByteArray("d.txt") << false;
        QTest::newRow("range") << QByteArray("file[0-9]") << QByteArray("file7") << true;
        QTest::newRow("negated class") << QByteArray("[!a]x") << QByteArray("bx") << true;
        QTest::newRow("negated class miss") << QByteArray("[!a]x") << QByteArray("ax") << false;
        QTest::newRow("caret class") << QByteArray("[^a]x") << QByteArray("ax") << false;
        QTest::newRow("bracket first") << QByteArray("[]a]") << QByteArray("]") << true;
        QTest::newRow("posix class") << QByteArray("[[:digit:]]x") << QByteArray("5x") << true;
        QTest::newRow("unclosed class") << QByteArray("[ab") << QByteArray("a") << false;
        QTest::newRow("escape") << QByteArray("\\*") << QByteArray("*") << true;
        QTest::newRow("escape not star") << QByteArray("\\*") << QByteArray("a") << false;
        QTest::newRow("leading doublestar") << QByteArray("**/foo") << QByteArray("foo") << true;
        QTest::newRow("leading doublestar deep") << QByteArray("**/foo") << QByteArray("a/b/foo") << true;
        QTest::newRow("leading doublestar part") << QByteArray("**/foo") << QByteArray("a/xfoo") << false;
        QTest::newRow("trailing doublestar") << QByteArray("abc/**") << QByteArray("abc/x/y") << true;
        QTest::newRow("trailing doublestar not self") << QByteArray("abc/**") << QByteArray("abc") << false;
        QTest::newRow("middle doublestar zero") << QByteArray("a/**/b") << QByteArray("a/b") << true;
        QTest::newRow("middle doublestar many") << QByteArray("a/**/b") << QByteArray("a/x/y/b") << true;
        QTest::newRow("middle doublestar wrong") << QByteArray("a/**/b") << QByteArray("a/x/c") << false;
        QTest::newRow("doublestar in name is star") << QByteArray("a**b") << QByteArray("axxb") << true;
        QTest::newRow("doublestar in name no slash") << QByteArray("a**b") << QByteArray("a/b") << false;
        QTest::newRow("non utf8 bytes") << QByteArray("caf\xe9*") << QByteArray("caf\xe9.txt") << true;
    }

    void wildmatch()
    {
        QFETCH(QByteArray, pattern);
        QFETCH(QByteArray, text);
        QFETCH(bool, match);
        QCOMPARE(IgnoreRules::wildmatch(pattern, text), match);
    }

    void gitignoreSemantics()
    {
        // A name without a slash matches at any depth; with one it is anchored to the file's folder.
        const auto r = rules({}, "*.pyc\n/build\ndocs/*.html\n# comment\n\n\\#hash\n");
        QVERIFY(r.ignored("a/b/x.pyc", false));
        QVERIFY(r.ignored("build", true));
        QVERIFY(!r.ignored("src/build", true));
        QVERIFY(r.ignored("docs/index.html", false));
        QVERIFY(!r.ignored("docs/sub/index.html", false));
        QVERIFY(r.ignored("#hash", false));
        QVERIFY(!r.ignored("comment", false));
    }

    void dirOnlyAndNegation()
    {
        const auto r = rules({}, "logs/\n*.log\n!keep.log\n");
        QVERIFY(r.ignored("logs", true));
        QVERIFY(!r.ignored("logs", false)); // a file named logs is not a folder
        QVERIFY(r.ignored("a.log", false));
        QCOMPARE(r.match("keep.log", false), V::Included);
        // Nothing below an ignored folder can be re-included.
        QVERIFY(r.ignored("logs/keep.log", false));
        const auto later = rules({}, "!keep.log\n*.log\n"); // the last match decides
        QVERIFY(later.ignored("keep.log", false));
    }

    void nestedFilesWin()
    {
        IgnoreRules r;
        r.addFile({}, "*.dat\n");
        r.addFile("data", "!*.dat\n/local.txt\n");
        QVERIFY(r.ignored("x.dat", false));
        QVERIFY(!r.ignored("data/x.dat", false));
        QVERIFY(r.ignored("data/local.txt", false));
        QVERIFY(!r.ignored("local.txt", false)); // anchored to data/
        QVERIFY(!r.ignored("database/local.txt", false)); // "data" is not a prefix folder of "database"
    }

    void trailingSpacesAndEscapes()
    {
        const auto r = rules({}, "trail   \nsp\\ \n\\!bang\r\n");
        QVERIFY(r.ignored("trail", false));
        QVERIFY(r.ignored("sp ", false));
        QVERIFY(r.ignored("!bang", false));
    }

    void scanHonoursIgnoreFilesAndSkipsGit()
    {
        QTemporaryDir d;
        touch(d.filePath(QStringLiteral(".gitignore")), "*.tmp\nout/\n");
        touch(d.filePath(QStringLiteral("a.py")));
        touch(d.filePath(QStringLiteral("b.tmp")));
        touch(d.filePath(QStringLiteral("out/big.bin")));
        touch(d.filePath(QStringLiteral("src/.gantryignore")), "secret.txt\n");
        touch(d.filePath(QStringLiteral("src/secret.txt")));
        touch(d.filePath(QStringLiteral("src/main.py")));
        touch(d.filePath(QStringLiteral(".git/HEAD")));
        touch(d.filePath(QStringLiteral("notes.md")));
        QVERIFY(::symlink("/etc/passwd", QFile::encodeName(d.filePath(QStringLiteral("escape"))).constData()) == 0);
        ScanOptions o;
        o.excludes.addPattern({}, "notes.md");
        auto scan = scanLocal(QFile::encodeName(d.path()), o);
        QVERIFY(scan);
        QList<QByteArray> paths;
        for (const SyncEntry &e : scan->entries) paths.append(e.path);
        QCOMPARE(paths, (QList<QByteArray>{".gitignore", "a.py", "escape", "src", "src/.gantryignore", "src/main.py"}));
        const SyncEntry &link = scan->entries[2];
        QCOMPARE(link.type, SyncEntry::Link);
        QCOMPARE(link.linkTarget, QByteArray("/etc/passwd")); // a link, never followed
        QCOMPARE(scan->ignored, 4); // b.tmp, out, secret.txt, notes.md
    }

    void scanKeepsNonUtf8Names()
    {
        QTemporaryDir d;
        const QByteArray name = QFile::encodeName(d.path()) + "/caf\xe9.txt";
        const int fd = ::open(name.constData(), O_CREAT | O_WRONLY, 0644);
        QVERIFY(fd >= 0);
        QVERIFY(::write(fd, "abc", 3) == 3);
        ::close(fd);
        auto scan = scanLocal(QFile::encodeName(d.path()), {});
        QVERIFY(scan);
        QCOMPARE(scan->entries.size(), 1);
        QCOMPARE(scan->entries[0].path, QByteArray("caf\xe9.txt"));
        QCOMPARE(displayPath(scan->entries[0].path), QStringLiteral("caf\\xe9.txt"));
    }

    void scanRefusesAFile()
    {
        QTemporaryDir d;
        touch(d.filePath(QStringLiteral("f")));
        auto scan = scanLocal(QFile::encodeName(d.filePath(QStringLiteral("f"))), {});
        QVERIFY(!scan);
        QVERIFY(scan.error().message.contains(QStringLiteral("not a folder")));
    }

    void planBySizeAndMtime()
    {
        LocalScan local;
        local.entries = {dir("d"), file("d/same", 10, 100), file("d/newer", 10, 200), file("d/bigger", 11, 100),
                         file("fresh", 5, 1), file("mode", 3, 1, 0755)};
        RemoteListing remote;
        remote.exists = true;
        remote.entries = {dir("d"), file("d/same", 10, 100), file("d/newer", 10, 100), file("d/bigger", 10, 100),
                          file("mode", 3, 1, 0644), file("gone", 1, 1), file("theirs", 1, 1)};
        SyncManifest manifest;
        manifest.files = {"gone", "d/same"};
        PlanOptions o;
        o.deleteGone = true;
        const SyncPlan plan = planSync(local, remote, manifest, o);
        QList<QByteArray> sent;
        for (const SyncEntry &e : plan.send) sent.append(e.path);
        QCOMPARE(sent, (QList<QByteArray>{"d/newer", "d/bigger", "fresh", "mode"}));
        QCOMPARE(plan.newCount(), 1);
        QCOMPARE(plan.unchanged, 1);
        QCOMPARE(plan.sendBytes, quint64(10 + 11 + 5 + 3));
        // Only what an earlier sync sent is deleted: "theirs" (a run output) stays.
        QCOMPARE(plan.removeFiles, (QList<QByteArray>{"gone"}));
        o.deleteGone = false;
        QVERIFY(planSync(local, remote, manifest, o).removeFiles.isEmpty());
    }

    void planKeepsIgnoredFilesAndFindsConflicts()
    {
        LocalScan local;
        local.entries = {file("x", 1, 1)};
        RemoteListing remote;
        remote.entries = {dir("x"), file("now-ignored", 1, 1)};
        SyncManifest manifest;
        manifest.files = {"now-ignored"};
        PlanOptions o;
        o.deleteGone = true;
        o.existsLocally = [](const QByteArray &p) { return p == "now-ignored"; };
        const SyncPlan plan = planSync(local, remote, manifest, o);
        QVERIFY(plan.removeFiles.isEmpty());
        QCOMPARE(plan.conflicts, (QList<QByteArray>{"x"}));
    }

    void planByChecksum()
    {
        LocalScan local;
        local.entries = {file("a", 4, 1), file("b", 4, 1)};
        RemoteListing remote;
        remote.entries = {file("a", 4, 999), file("b", 4, 1)};
        PlanOptions o;
        o.checksum = true;
        o.localSums = {{"a", "h1"}, {"b", "h2"}};
        o.remoteSums = {{"a", "h1"}, {"b", "other"}};
        const SyncPlan plan = planSync(local, remote, {}, o);
        QCOMPARE(plan.send.size(), 1); // a differs in mtime only: same content, not sent
        QCOMPARE(plan.send[0].path, QByteArray("b"));
        QCOMPARE(checksumCandidates(local, remote).size(), 2);
    }

    void parseListingRecords()
    {
        QByteArray out("motd from .bashrc\n");
        out += QByteArray("\0gantry-begin\0gantry-tar\0gantry-dir\0", 37);
        out += QByteArray("f\t12\t1700000000.5000000000\t644\tsrc/a\tb.py\0\0", 43);
        out += QByteArray("l\t11\t1700000001.0\t777\tlink\0/etc/passwd\0", 39);
        out += QByteArray("d\t4096\t1700000002.0\t755\tsrc\0\0gantry-end\0", 41);
        auto listing = parseListing(out, QStringLiteral("h"), QStringLiteral("/r"));
        QVERIFY(listing);
        QVERIFY(listing->exists);
        QVERIFY(listing->haveTar);
        QCOMPARE(listing->entries.size(), 3);
        QCOMPARE(listing->entries[0].path, QByteArray("link"));
        QCOMPARE(listing->entries[0].linkTarget, QByteArray("/etc/passwd"));
        QCOMPARE(listing->entries[2].path, QByteArray("src/a\tb.py")); // a tab in a name survives
        QCOMPARE(listing->entries[2].mtime, qint64(1700000000));
        QCOMPARE(listing->entries[2].mode, quint32(0644));
        auto notDir = parseListing(QByteArray("\0gantry-notdir\0", 15), QStringLiteral("h"), QStringLiteral("/r"));
        QVERIFY(notDir && notDir->notDir);
        QVERIFY(!parseListing("bash: find: not found", QStringLiteral("h"), QStringLiteral("/r")));
    }

    void parseChecksumLines()
    {
        const QByteArray h(64, 'a');
        const QByteArray k(64, 'b');
        // sha256sum escapes '\' and newlines; openssl dgst -r ("HASH *NAME") escapes newlines only.
        const auto sums = gantry::transfer::parseDigestLines(h + "  ./plain.txt\n\\" + h + "  ./new\\nline\n\\" + h + "  ./back\\\\slash\n"
                                                             + k + " *./ossl.txt\n\\" + k + " *./o\\nl\n" + k + " *./raw\\x\n"
                                                             + "openssl: cannot open ./gone\n");
        QCOMPARE(sums.value("plain.txt"), h);
        QCOMPARE(sums.value("new\nline"), h);
        QCOMPARE(sums.value("back\\slash"), h);
        QCOMPARE(sums.value("ossl.txt"), k);
        QCOMPARE(sums.value("o\nl"), k);
        QCOMPARE(sums.value("raw\\x"), k);
        QCOMPARE(sums.size(), 6);
    }

    void manifestRoundTrip()
    {
        QTemporaryDir d;
        const QString path = manifestPath(d.path(), QStringLiteral("h"), QStringLiteral("/l"), QStringLiteral("/r"));
        QVERIFY(path != manifestPath(d.path(), QStringLiteral("h"), QStringLiteral("/l"), QStringLiteral("/other")));
        SyncManifest m;
        m.files = {"a.py", "caf\xe9.txt"};
        m.dirs = {"src"};
        QVERIFY(saveManifest(path, m, QStringLiteral("h"), QStringLiteral("/l"), QStringLiteral("/r")));
        const SyncManifest back = loadManifest(path);
        QCOMPARE(back.files, m.files);
        QCOMPARE(back.dirs, m.dirs);
        QVERIFY(loadManifest(d.filePath(QStringLiteral("missing.json"))).files.isEmpty());
    }

    // SFTP's start-up, measured, is trusted for a day and kept with its time; then, and where a
    // manifest from an older version has no time, it counts as not measured (tried again).
    void sftpStartIsTrustedForADay()
    {
        QTemporaryDir d;
        const QString path = manifestPath(d.path(), QStringLiteral("h"), QStringLiteral("/l"), QStringLiteral("/r"));
        const qint64 at = 1'800'000'000;
        SyncManifest m;
        m.shellStartMs = 1000;
        QCOMPARE(trustedSftpStartMs(m, at), -1);
        setSftpStartMs(&m, 900, at);
        QCOMPARE(trustedSftpStartMs(m, at + 3600), 900);
        QCOMPARE(trustedSftpStartMs(m, at + 24 * 3600), 900);
        QCOMPARE(trustedSftpStartMs(m, at + 24 * 3600 + 1), -1);
        QVERIFY(saveManifest(path, m, QStringLiteral("h"), QStringLiteral("/l"), QStringLiteral("/r")));
        const SyncManifest back = loadManifest(path);
        QCOMPARE(back.sftpStartMs, 900);
        QCOMPARE(trustedSftpStartMs(back, at + 60), 900);
        SyncManifest old = back;
        old.sftpMeasuredAt = 0; // written before the time was kept
        QCOMPARE(trustedSftpStartMs(old, at), -1);
        QCOMPARE(trustedSftpStartMs(back, at - 60), -1); // measured "later": the clock was set back
    }

    // A few small files go over SFTP where the login shell is slow; anything else goes the usual way.
    void smallEditsGoOverSftpPastASlowShell()
    {
        const auto file = [](const QByteArray &path, quint64 size) {
            SyncEntry e;
            e.path = path;
            e.size = size;
            e.mtime = 1'700'000'000;
            return e;
        };
        SyncPlan plan;
        plan.send = {file("a.py", 900), file("d/b.py", 2000)};
        plan.sendBytes = 2900;
        QVERIFY(sftpSendPays(plan, 1000, 50));
        QVERIFY(!sftpSendPays(plan, 120, 50));  // the shell starts within the extra round trips
        QVERIFY(!sftpSendPays(plan, 1000, -1)); // no measured link
        SyncPlan withDir = plan;
        withDir.dirs = {file("new", 0)};
        withDir.dirs.first().type = SyncEntry::Dir;
        QVERIFY(!sftpSendPays(withDir, 1000, 50));
        SyncPlan withDelete = plan;
        withDelete.removeFiles = {"old.py"};
        QVERIFY(!sftpSendPays(withDelete, 1000, 50));
        SyncPlan withLink = plan;
        withLink.send.append(file("l", 0));
        withLink.send.last().type = SyncEntry::Link;
        QVERIFY(!sftpSendPays(withLink, 1000, 50));
        SyncPlan tooLarge = plan;
        tooLarge.send.append(file("big.bin", kSftpSendMaxBytes));
        tooLarge.sendBytes += kSftpSendMaxBytes; // past the cap with the others
        QVERIFY(!sftpSendPays(tooLarge, 1000, 50));
        SyncPlan tooMany;
        for (int i = 0; i <= kSftpSendMaxFiles; ++i) tooMany.send.append(file("f" + QByteArray::number(i), 10));
        QVERIFY(!sftpSendPays(tooMany, 1000, 50));
        tooMany.send.removeLast();
        QVERIFY(sftpSendPays(tooMany, 1000, 50));
        SyncPlan notText = plan;
        notText.send.append(file("caf\xe9.py", 10)); // Latin-1, not UTF-8
        QVERIFY(!sftpSendPays(notText, 1000, 50));
        SyncPlan farFuture = plan;
        farFuture.send.first().mtime = qint64(1) << 33; // past SFTP v3's 32-bit times
        QVERIFY(!sftpSendPays(farFuture, 1000, 50));
    }
};

QTEST_GUILESS_MAIN(TestSyncUnits)
#include "test_sync_units.moc"
