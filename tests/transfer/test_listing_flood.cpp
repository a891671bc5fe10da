// SPDX-License-Identifier: Apache-2.0
// Issue 31, item 2: a host whose `find` floods a folder download's or a sync's listing. The
// listing is read as it arrives, so gantry-cli's peak memory stays within the 256 MiB budget for
// remote input whatever the host sends, and the error names the option that decided: --max-entries
// or --max-output-mib. The flood comes from a crafted `find` first on the remote PATH (real sshd).

#include "clirun.h"
#include "sshdfixture.h"

#include "core/transfer/listingstream.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <climits>

using namespace gantry;
using namespace gantry::transfer;

namespace {

// Passes through to the real find unless <bin>/mode says "flood": then unique names of NAMELEN
// bytes, in the format of the command that asked (a download's "%y\t%s\t%p\0" or a sync's
// "%y\t%s\t%T@\t%m\t%P\0%l\0"), until stopped.
const char kFloodFind[] = R"sh(#!/bin/sh
dir=$(dirname "$0")
mode=$(cat "$dir/mode" 2>/dev/null)
[ "$mode" = flood ] || exec /usr/bin/find "$@"
case "$*" in *-mindepth*) format=sync ;; *) format=download ;; esac
exec /usr/bin/python3 -S -c '
import sys
sync = sys.argv[1] == "sync"; length = int(sys.argv[2]); out = sys.stdout.buffer
if not sync: out.write(b"d\t4096\t./flood\0")
i = 0
while True:
    chunk = []
    for _ in range(4096):
        name = (b"%012d" % i).ljust(length, b"x"); i += 1
        chunk.append(b"f\t1\t1700000000.0\t644\t" + name + b"\0\0" if sync else b"f\t1\t./flood/" + name + b"\0")
    out.write(b"".join(chunk))
' "$format" "$(cat "$dir/namelen" 2>/dev/null || echo 200)"
)sh";

// Runs gantry-cli under python's rusage: the last stderr line is the child's peak RSS in KiB.
const char kPeakRss[] = "import resource, subprocess, sys\n"
                        "r = subprocess.run(sys.argv[1:])\n"
                        "sys.stderr.write('\\npeak-rss-kib %d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
                        "sys.exit(r.returncode)\n";

} // namespace

class TestListingFlood : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_bin;
    QTemporaryDir m_local;
    QTemporaryDir m_config;

    void write(const QString &name, const QByteArray &text)
    {
        QFile f(m_bin.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

    struct Measured
    {
        int code = -1;
        QString err;
        qint64 peakMib = -1;
    };
    Measured cliMeasured(const QStringList &args)
    {
        test::RunOptions options;
        options.timeoutMs = 120000;
        const QStringList all = test::cliArguments(m_config.path(), args + QStringList{QStringLiteral("-i"), m_sshd.clientKeyPath(),
                                                                                       QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()});
        const test::CliRun run = test::runProgram(QStringLiteral("/usr/bin/python3"),
                                                  QStringList{QStringLiteral("-c"), QString::fromLatin1(kPeakRss),
                                                              QStringLiteral(GANTRY_CLI_PATH)} + all, options);
        Measured m{run.code, QString::fromUtf8(run.err), -1};
        const qsizetype at = m.err.lastIndexOf(QStringLiteral("peak-rss-kib "));
        if (at >= 0) m.peakMib = m.err.mid(at + 13).trimmed().toLongLong() / 1024;
        return m;
    }
    QString remote(const QString &path) const
    {
        return QStringLiteral("%1@127.0.0.1:%2:%3").arg(m_sshd.user()).arg(m_sshd.port()).arg(path);
    }

private slots:
    void initTestCase()
    {
        if (!QFile::exists(QStringLiteral("/usr/bin/python3")) || !QFile::exists(QStringLiteral("/usr/bin/find")))
            QSKIP("needs /usr/bin/python3 and /usr/bin/find");
        write(QStringLiteral("find"), kFloodFind);
        QFile::setPermissions(m_bin.filePath(QStringLiteral("find")), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        GANTRY_REQUIRE_SSHD(m_sshd.start(options));
        QVERIFY(QDir(m_local.path()).mkpath(QStringLiteral("remote/flood")));
        QVERIFY(QDir(m_local.path()).mkpath(QStringLiteral("src")));
    }

    void init()
    {
        write(QStringLiteral("mode"), "flood");
        write(QStringLiteral("namelen"), "200");
    }

    // Records split anywhere across reads; the unfinished one is all that is kept.
    void recordsAcrossReads()
    {
        NulRecords records(16);
        QList<QByteArray> seen;
        const auto keep = [&seen](const QByteArray &r) {
            seen.append(QByteArray(r.constData(), r.size()));
            return true;
        };
        QVERIFY(records.feed(QByteArray("greeting from .bashrc\0a\tb", 25), keep)); // the first may be long
        QVERIFY(records.feed(QByteArray("c\0\0de", 5), keep));
        QCOMPARE(records.pending(), 2);
        QVERIFY(records.feed(QByteArray("f\0", 2), keep));
        QCOMPARE(seen, (QList<QByteArray>{"greeting from .bashrc", "a\tbc", "", "def"}));
        QVERIFY(!records.feed(QByteArray(17, 'x'), keep)); // longer than any record may be
        QVERIFY(records.overlong());
        QCOMPARE(records.pending(), 0);
    }

    // The meter says which limit decided, and how to raise it.
    void meterNamesTheLimitThatApplied()
    {
        ssh::OutputLimits limits;
        limits.maxListEntries = 3;
        ListingMeter byCount(limits, QStringLiteral("h"), QStringLiteral("/d"));
        QVERIFY(byCount.add(10) && byCount.add(10) && byCount.add(10));
        QVERIFY(!byCount.add(10));
        QVERIFY2(byCount.error()->message.contains(QStringLiteral("--max-entries")), qPrintable(byCount.error()->message));
        limits.maxListEntries = 1000;
        ListingMeter byMemory(limits, QStringLiteral("h"), QStringLiteral("/d"));
        QCOMPARE(byMemory.memoryLimit(), kListingMemoryBudget);
        QVERIFY(byMemory.add(kListingMemoryBudget));
        QVERIFY(!byMemory.add(1));
        QVERIFY2(byMemory.error()->message.contains(QStringLiteral("--max-output-mib")), qPrintable(byMemory.error()->message));
    }

    // A folder download whose listing never ends: stopped by the memory budget, named as
    // --max-output-mib, with gantry-cli's peak RSS under 256 MiB.
    void downloadFloodStaysWithinBudget()
    {
        const Measured m = cliMeasured({QStringLiteral("download"), remote(m_local.filePath(QStringLiteral("remote/flood"))),
                                        m_local.filePath(QStringLiteral("down/"))});
        qInfo("download flood: exit %d, peak RSS %lld MiB", m.code, qlonglong(m.peakMib));
        QCOMPARE(m.code, 1);
        QVERIFY2(m.err.contains(QStringLiteral("--max-output-mib")) && m.err.contains(QStringLiteral("listing was stopped")), qPrintable(m.err));
        QVERIFY2(m.peakMib > 0 && m.peakMib < 256, qPrintable(QStringLiteral("peak RSS %1 MiB").arg(m.peakMib)));
        QVERIFY(!QFileInfo::exists(m_local.filePath(QStringLiteral("down/flood/000000000000xxx"))));
    }

    // Short names reach --max-entries first, and the error says so.
    void downloadEntryCapNamesMaxEntries()
    {
        write(QStringLiteral("namelen"), "12");
        const Measured m = cliMeasured({QStringLiteral("download"), remote(m_local.filePath(QStringLiteral("remote/flood"))),
                                        m_local.filePath(QStringLiteral("down2/")), QStringLiteral("--max-entries"), QStringLiteral("100000")});
        QCOMPARE(m.code, 1);
        QVERIFY2(m.err.contains(QStringLiteral("more than 100000 entries")) && m.err.contains(QStringLiteral("--max-entries")), qPrintable(m.err));
    }

    // A sync's listing flooded the same way: the same budget, the same message.
    void syncFloodStaysWithinBudget()
    {
        QFile f(m_local.filePath(QStringLiteral("src/a.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a\n");
        f.close();
        const Measured m = cliMeasured({QStringLiteral("sync"), m_local.filePath(QStringLiteral("src")),
                                        remote(m_local.filePath(QStringLiteral("remote/flood")))});
        qInfo("sync flood: exit %d, peak RSS %lld MiB", m.code, qlonglong(m.peakMib));
        QVERIFY(m.code != 0);
        QVERIFY2(m.err.contains(QStringLiteral("--max-output-mib")) && m.err.contains(QStringLiteral("listing was stopped")), qPrintable(m.err));
        QVERIFY2(m.peakMib > 0 && m.peakMib < 256, qPrintable(QStringLiteral("peak RSS %1 MiB").arg(m.peakMib)));
    }

    // A path longer than any path here ends the listing at once.
    void overlongPathIsRefused()
    {
        write(QStringLiteral("namelen"), QByteArray::number(PATH_MAX + 1000));
        const Measured m = cliMeasured({QStringLiteral("download"), remote(m_local.filePath(QStringLiteral("remote/flood"))),
                                        m_local.filePath(QStringLiteral("down3/"))});
        QCOMPARE(m.code, 1);
        QVERIFY2(m.err.contains(QStringLiteral("a path longer than any path here")), qPrintable(m.err));
    }

    // Without the flood, the same commands work (the crafted find passes through).
    void honestHostStillWorks()
    {
        write(QStringLiteral("mode"), "pass");
        QFile f(m_local.filePath(QStringLiteral("remote/flood/real.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("real\n");
        f.close();
        const Measured m = cliMeasured({QStringLiteral("download"), remote(m_local.filePath(QStringLiteral("remote/flood"))),
                                        m_local.filePath(QStringLiteral("down4/"))});
        QVERIFY2(m.code == 0, qPrintable(m.err));
        QVERIFY(QFileInfo::exists(m_local.filePath(QStringLiteral("down4/flood/real.txt"))));
    }
};

QTEST_GUILESS_MAIN(TestListingFlood)
#include "test_listing_flood.moc"
