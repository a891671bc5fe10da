// An SFTP server that lies (issue 12, items 3, 4 and 6): a real sshd whose sftp subsystem is a
// small python3 SFTP v3 server answering with an endless directory listing, names that hold '/'
// or '..', and a file whose reported size (2^53 bytes, 4 TiB) no disk holds while its data is a
// few bytes. And a host whose command never stops printing (item 6): collected output is capped.

#include "clirun.h"
#include "tests/support/stagingfile.h"
#include "fakesftp.h"
#include "sshdfixture.h"

#include "core/transfer/journal.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transferjob.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::transfer;

namespace {

// Just enough SFTP v3 for Gantry's client: INIT/VERSION, REALPATH, STAT/LSTAT/FSTAT,
// OPENDIR/READDIR/CLOSE, OPEN/READ; everything else is "unsupported". The lie is chosen by the
// file sftp-mode next to the script (read when a session starts). Appended to test::kFakeSftpPrelude.
const char kLyingSftpServer[] = R"py(
here = os.path.dirname(os.path.abspath(__file__))
try:
    mode = open(os.path.join(here, 'sftp-mode')).read().strip()
except OSError:
    mode = ''
DIR, FILE = 0o040755, 0o100644
DATA = b'short data'
HUGE = {'huge53': 1 << 53, 'huge4t': 4 << 40}.get(mode, len(DATA))
LIES = [b'good.txt', b'a/b', b'..', b'.', b'../escape', b'sub/../../x', b'/etc/passwd', b'nul\x00x', b'also-good']

def stat_of(path):
    name = path.rstrip(b'/').rsplit(b'/', 1)[-1]
    if name.startswith(b'huge'):
        return attrs(FILE, HUGE)
    if name in (b'good.txt', b'also-good'):
        return attrs(FILE, len(DATA))
    return attrs(DIR, 4096)

listed, names_left = 0, []
while True:
    pkt = exact(struct.unpack('>I', exact(4))[0])
    kind = pkt[0]
    if kind == 1:
        wr.write(u32(5) + bytes([2]) + u32(3))
        wr.flush()
        continue
    rid = struct.unpack('>I', pkt[1:5])[0]
    arglen = struct.unpack('>I', pkt[5:9])[0] if len(pkt) >= 9 else 0
    arg = pkt[9:9 + arglen]
    if kind == 16:
        p = arg if arg.startswith(b'/') else b'/srv/' + arg
        send(104, rid, u32(1) + string(p) + string(p) + attrs(DIR, 4096))
    elif kind in (7, 17):
        send(105, rid, stat_of(arg))
    elif kind == 8:
        send(105, rid, attrs(FILE, HUGE))
    elif kind == 11:
        names_left = list(LIES) if mode == 'names' else []
        send(102, rid, string(b'D'))
    elif kind == 12 and mode == 'endless':
        batch = b''.join(string(b'f%09d' % (listed + i)) + string(b'-') + attrs(FILE, 1) for i in range(1000))
        listed += 1000
        send(104, rid, u32(1000) + batch)
    elif kind == 12 and mode == 'widenames':
        batch = b''.join(string(b'w%09d' % (listed + i) + b'x' * 240) + string(b'-') + attrs(FILE, 1) for i in range(1000))
        listed += 1000
        send(104, rid, u32(1000) + batch)
    elif kind == 12 and mode == 'hugename':
        send(104, rid, u32(1) + string(b'h' * (8 << 20)) + string(b'-') + attrs(FILE, 1))
    elif kind == 12 and names_left:
        batch = b''.join(string(n) + string(n) + attrs(FILE, len(DATA)) for n in names_left)
        send(104, rid, u32(len(names_left)) + batch)
        names_left = []
    elif kind == 12:
        status(rid, 1, b'end')
    elif kind == 3:
        send(102, rid, string(b'F'))
    elif kind == 5:
        off = struct.unpack('>Q', pkt[9 + arglen:17 + arglen])[0]
        if off < len(DATA):
            send(103, rid, string(DATA[off:]))
        else:
            status(rid, 1, b'end')
    elif kind == 4:
        status(rid, 0)
    else:
        status(rid, 8, b'unsupported')
)py";

// Peak resident memory of this process (VmHWM), in MiB.
qint64 peakRssMib()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').first().toLongLong() / 1024;
    }
    return -1;
}

} // namespace

class TestTransferLyingSftp : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_bin;
    QTemporaryDir m_local;
    QTemporaryDir m_config;

    void setMode(const QByteArray &mode)
    {
        QFile f(m_bin.filePath(QStringLiteral("sftp-mode")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(mode);
    }

    struct Connected
    {
        std::unique_ptr<ssh::Session> session;
        std::unique_ptr<SftpClient> sftp;
    };
    Connected connect()
    {
        Connected c;
        c.session = std::make_unique<ssh::Session>();
        if (auto r = c.session->connect(m_sshd.target(), m_sshd.connectOptions()); !r) {
            qWarning("%s", qPrintable(r.error().message));
            return {};
        }
        auto sftp = SftpClient::start(c.session->handle(), c.session->target().display());
        if (!sftp) {
            qWarning("%s", qPrintable(sftp.error().message));
            return {};
        }
        c.sftp = std::move(*sftp);
        return c;
    }

    // gantry-cli with the fixture's key; returns exit code, stdout and stderr as text.
    struct Text
    {
        int code = -1;
        QString out;
        QString err;
    };
    Text cli(const QStringList &args)
    {
        test::RunOptions options;
        options.timeoutMs = 60000;
        const test::CliRun run = test::runCli(m_config.path(), args + QStringList{QStringLiteral("-i"), m_sshd.clientKeyPath(),
                                                                                  QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()},
                                              options);
        return {run.code, QString::fromUtf8(run.out), QString::fromUtf8(run.err)};
    }
    QString hostSpec() const { return QStringLiteral("%1@127.0.0.1:%2").arg(m_sshd.user()).arg(m_sshd.port()); }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")}).isEmpty())
            QSKIP("no /usr/bin/python3: the lying SFTP server cannot run");
        const QString server = m_bin.filePath(QStringLiteral("lying-sftp"));
        QFile f(server);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(test::kFakeSftpPrelude) + kLyingSftpServer);
        f.close();
        QFile::setPermissions(server, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        test::SshdFixture::Options options;
        options.sftpServer = server;
        GANTRY_REQUIRE_SSHD(m_sshd.start(options));
    }

    void init() { setMode({}); }

    // Item 6: a listing that never ends stops at the cap, quickly, with the way out in the message.
    void endlessListingStopsAtTheCap()
    {
        setMode("endless");
        Connected c = connect();
        QVERIFY(c.sftp);
        c.sftp->setMaxListEntries(50000);
        QElapsedTimer timer;
        timer.start();
        auto listed = c.sftp->list(QStringLiteral("/srv/endless"));
        QVERIFY(!listed);
        QVERIFY2(listed.error().message.contains(QStringLiteral("more than 50000 entries")), qPrintable(listed.error().message));
        QVERIFY2(listed.error().message.contains(QStringLiteral("--max-entries")), qPrintable(listed.error().message));
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
        // The session still works after the stopped listing.
        QVERIFY(c.sftp->stat(QStringLiteral("/srv/good.txt")));
    }

    // Item 6: the default cap (2 000 000 names) bounds the memory an endless listing can take.
    void endlessListingAtTheDefaultCapStaysBounded()
    {
        setMode("endless");
        Connected c = connect();
        QVERIFY(c.sftp);
        QCOMPARE(c.sftp->maxListEntries(), qint64(ssh::OutputLimits::kDefaultMaxListEntries));
        QElapsedTimer timer;
        timer.start();
        auto listed = c.sftp->list(QStringLiteral("/srv/endless"));
        QVERIFY(!listed);
        QVERIFY2(listed.error().message.contains(QStringLiteral("more than 2000000 entries")), qPrintable(listed.error().message));
        const qint64 peak = peakRssMib();
        qInfo("2 000 000 names refused after %lld ms; peak RSS %lld MiB", qlonglong(timer.elapsed()), qlonglong(peak));
        QVERIFY2(peak > 0 && peak < 512, qPrintable(QStringLiteral("peak RSS %1 MiB").arg(peak)));
    }

    // #31.1: names are counted by their bytes too — 250-byte names reach the 64 MiB budget long
    // before 2 000 000 entries — and one name longer than a file name can be ends the listing at once.
    void longNamesAreBoundedByTheirBytes()
    {
        setMode("widenames");
        Connected c = connect();
        QVERIFY(c.sftp);
        auto listed = c.sftp->list(QStringLiteral("/srv/wide"));
        QVERIFY(!listed);
        QVERIFY2(listed.error().message.contains(QStringLiteral("more than 64 MiB of names")), qPrintable(listed.error().message));
        QVERIFY2(listed.error().message.contains(QStringLiteral("--max-output-mib")), qPrintable(listed.error().message));
        const qint64 peak = peakRssMib();
        qInfo("64 MiB of 250-byte names refused; peak RSS %lld MiB", qlonglong(peak));
        QVERIFY2(peak > 0 && peak < 512, qPrintable(QStringLiteral("peak RSS %1 MiB").arg(peak)));

        setMode("hugename");
        Connected again = connect();
        QVERIFY(again.sftp);
        auto huge = again.sftp->list(QStringLiteral("/srv/huge"));
        QVERIFY(!huge);
        QVERIFY2(huge.error().message.contains(QStringLiteral("a name of 8388608 bytes")), qPrintable(huge.error().message));
        QVERIFY(again.sftp->stat(QStringLiteral("/srv/good.txt"))); // the session still works
    }

    // Item 6 through the CLI: `ls` stops, exits 1, and names the flag that raises the limit.
    void cliLsStopsAnEndlessListing()
    {
        setMode("endless");
        const Text r = cli({QStringLiteral("ls"), hostSpec() + QStringLiteral(":/srv/endless"), QStringLiteral("--max-entries"),
                              QStringLiteral("20000")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("more than 20000 entries in /srv/endless")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("--max-entries")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        const Text bad = cli({QStringLiteral("ls"), hostSpec() + QStringLiteral(":/srv"), QStringLiteral("--max-entries"),
                                QStringLiteral("many")});
        QCOMPARE(bad.code, 2);
    }

    // Item 6: a command that never stops printing is stopped at the output cap; streaming callers
    // (maxOutputBytes 0) are not capped.
    void commandOutputStopsAtTheCap()
    {
        ssh::ConnectOptions options = m_sshd.connectOptions();
        options.limits.maxOutputBytes = qint64(1) << 20;
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), options));
        QElapsedTimer timer;
        timer.start();
        auto endless = session.run(QStringLiteral("yes"));
        QVERIFY(!endless);
        QVERIFY2(endless.error().message.contains(QStringLiteral("more than 1 MiB of output")), qPrintable(endless.error().message));
        QVERIFY2(endless.error().message.contains(QStringLiteral("--max-output-mib")), qPrintable(endless.error().message));
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        auto ok = session.run(QStringLiteral("echo still-here"));
        QVERIFY2(ok && ok->out.trimmed() == "still-here", ok ? ok->out.constData() : qPrintable(ok.error().message));

        qint64 streamed = 0;
        ssh::Session::ExecOptions exec;
        exec.maxOutputBytes = 0;
        exec.onStdout = [&streamed](const QByteArray &data) { streamed += data.size(); };
        auto status = session.exec(QStringLiteral("head -c 3000000 /dev/zero"), exec);
        QVERIFY2(status && *status == 0, status ? "" : qPrintable(status.error().message));
        QCOMPARE(streamed, qint64(3000000));
    }

    // Item 3: names holding '/', '..', '.' or NUL never come out of a listing.
    void namesWithSlashOrDotDotAreDropped()
    {
        setMode("names");
        Connected c = connect();
        QVERIFY(c.sftp);
        auto listed = c.sftp->list(QStringLiteral("/srv/dir"));
        QVERIFY2(listed, listed ? "" : qPrintable(listed.error().message));
        QSet<QString> names;
        for (const SftpEntry &e : *listed) names.insert(e.name);
        QCOMPARE(names, (QSet<QString>{QStringLiteral("good.txt"), QStringLiteral("also-good")}));

        const Text r = cli({QStringLiteral("ls"), hostSpec() + QStringLiteral(":/srv/dir")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QStringLiteral("good.txt")) && r.out.contains(QStringLiteral("also-good")), qPrintable(r.out));
        for (const char *lie : {"escape", "passwd", "a/b", "../", "nul"}) QVERIFY2(!r.out.contains(QLatin1String(lie)), qPrintable(r.out));
    }

    // Item 4: a reported size no disk holds is refused before anything is written.
    void hugeReportedSizeIsRefusedBeforeWriting_data()
    {
        QTest::addColumn<QByteArray>("mode");
        QTest::newRow("2^53 bytes") << QByteArray("huge53");
        QTest::newRow("4 TiB") << QByteArray("huge4t");
    }
    void hugeReportedSizeIsRefusedBeforeWriting()
    {
        QFETCH(QByteArray, mode);
        setMode(mode);
        JournalStore journals(m_config.path());
        const QString dest = m_local.filePath(QString::fromLatin1(mode));
        TransferRequest req;
        req.direction = Direction::Download;
        req.host = QStringLiteral("fixture");
        req.localPath = dest + QLatin1Char('/');
        req.destinationIsDir = true;
        req.remotePath = QStringLiteral("/srv/huge.bin");
        req.options.onConflict = ConflictPolicy::Overwrite;
        std::atomic_bool none{false};
        TransferContext ctx(makeSessionFactory(m_sshd.target(), m_sshd.connectOptions()), &none, &journals, req.host,
                            req.options, {});
        QElapsedTimer timer;
        timer.start();
        auto r = runTransfer(req, ctx);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::DiskFull);
        QVERIFY2(r.error().message.contains(QStringLiteral("Not enough space")), qPrintable(r.error().message));
        QVERIFY(gantry::testsupport::stagingFileOf(dest + QStringLiteral("/huge.bin")).isEmpty());
        QVERIFY(!QFileInfo::exists(dest + QStringLiteral("/huge.bin")));
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestTransferLyingSftp)
#include "test_transfer_lyingsftp.moc"
