#pragma once

#include "core/ssh/session.h"

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace gantry::test {

// A real OpenSSH sshd on 127.0.0.1 and a free port, with its own host key, a client ed25519 key in
// authorized_keys, and a known_hosts file that already trusts it. Works as root and as a normal
// user (a non-root sshd can only log in its own user). Stopped by the destructor.
class SshdFixture
{
public:
    struct Options
    {
        bool passwordAuth = false;  // PasswordAuthentication + KbdInteractiveAuthentication yes
        QString binDir;             // prepended to PATH of remote commands (fake nvidia-smi, …)
        QString extraConfig;        // appended to sshd_config
        // Commands run with HOME set to this folder (sshd's SetEnv cannot change HOME), so what
        // they write in ~/.ssh never touches this machine's real one. Empty: the user's home.
        QString home;
        QString sftpServer;         // the sftp Subsystem command (a lying server); empty: internal-sftp
        // false: remote `python3` sees the standard library only (-S), so a test does not depend on
        // what this machine happens to have installed (python3-torch, numpy, …).
        bool systemPythonPackages = false;
        // > 0: every remote command's bash first sleeps this long (through BASH_ENV), as a conda or
        // pyenv init in the start-up files of many GPU images makes it wait.
        int shellStartupMs = 0;
        // With shellStartupMs and an sftpServer program: the shell that sshd runs that program
        // through starts at once, as internal-sftp does (a program, unlike internal-sftp, can log
        // its requests to a file).
        bool sftpServerStartsAtOnce = false;
        // true: sshd logs at DEBUG1 into log() (which authentication requests came, in what order).
        bool debugLog = false;
        int debugLevel = 1; // with debugLog: 2 also logs each channel's window adjusts
        // Channels one connection may have open (sshd's MaxSessions; OpenSSH's default is 10).
        int maxSessions = 20;
        // sshd's MaxStartups: logins in progress before it turns new connections away.
        QString maxStartups = QStringLiteral("50:30:100");
    };

    SshdFixture();
    ~SshdFixture();

    // Empty string on success, else why sshd could not start (tests QSKIP/QFAIL with it).
    QString start(const Options &options);
    QString start() { return start(Options{}); }
    void stop();                  // kills sshd (connections drop)
    QString restart();            // same port, same keys

    bool isRunning() const;
    QString host() const { return QStringLiteral("127.0.0.1"); }
    int port() const { return m_port; }
    QString user() const;          // the local user (the one sshd logs in)
    QString dir() const { return m_dir.path(); }
    QString clientKeyPath() const;     // unencrypted ed25519, in authorized_keys
    QString knownHostsPath() const;    // trusts this sshd's host key
    QString emptyKnownHostsPath() const; // a fresh, empty known_hosts (first-contact tests)
    QString hostKeyFingerprint() const;  // "SHA256:…"

    // A target and options that log in with the client key and trust the host key.
    ssh::Target target() const;
    ssh::ConnectOptions connectOptions() const;

    QByteArray log() const; // with Options::debugLog: what sshd has logged so far

    // Generates a new host key (for "host key changed" tests); call restart() after.
    void rotateHostKey();

    static int freePort();

    // True where a test may skip for want of sshd: openssh-server is not installed and this is not
    // CI (CI sets CI=true). Everywhere else an sshd that does not start is a failure, never a skip.
    static bool maySkipWithoutSshd();

private:
    QString writeConfig();
    QString writeToolsDir();

    QTemporaryDir m_dir;
    Options m_options;
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
};

// Runs a local program, returns its stdout; empty on failure.
QByteArray runProgram(const QString &program, const QStringList &args, int timeoutMs = 30000);

// Writes an executable script (mode 0755): fake remote programs for binDir and the fixture's tools.
bool writeScript(const QString &path, const QString &body);

// Writes `size` pseudo-random bytes from `seed` (parent folders created); fails the test on error.
void writeRandom(const QString &path, qint64 size, quint32 seed = 1);

} // namespace gantry::test

// In a test function: fails (or, per maySkipWithoutSshd(), skips visibly) when sshd did not start.
#define GANTRY_REQUIRE_SSHD(error)                                                      \
    do {                                                                                \
        const QString gantryWhy_ = (error);                                             \
        if (!gantryWhy_.isEmpty()) {                                                    \
            if (gantry::test::SshdFixture::maySkipWithoutSshd())                        \
                QSKIP(qPrintable(gantryWhy_));                                          \
            QFAIL(qPrintable(QStringLiteral("the test sshd did not start: ") + gantryWhy_)); \
        }                                                                               \
    } while (false)
