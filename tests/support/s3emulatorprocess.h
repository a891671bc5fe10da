// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

namespace gantry::test {

// tests/support/s3emulator.py on 127.0.0.1 and a free port: an S3 server that checks every
// signature with botocore's own signer. Stopped by the destructor.
class S3EmulatorProcess
{
public:
    static constexpr const char *kAccessKey = "AKIAGANTRYTEST000001";
    static constexpr const char *kSecretKey = "gantryTestSecretKey/0123456789+abcdefghij";

    // Empty on success, else why it did not start (python3 or botocore missing).
    QString start(const QStringList &extraArgs)
    {
        m_process = std::make_unique<QProcess>();
        m_process->setProcessChannelMode(QProcess::SeparateChannels);
        m_process->start(QStringLiteral("python3"),
                         QStringList{QStringLiteral(GANTRY_TEST_SOURCE_DIR "/support/s3emulator.py"), QStringLiteral("--access-key"),
                                     QString::fromLatin1(kAccessKey), QStringLiteral("--secret-key"), QString::fromLatin1(kSecretKey)}
                             + extraArgs);
        if (!m_process->waitForStarted(10000))
            return QStringLiteral("python3 did not start");
        QByteArray out;
        const QDeadlineTimer deadline(30000);
        while (!out.contains('\n') && !deadline.hasExpired()) {
            if (!m_process->waitForReadyRead(int(deadline.remainingTime())) && m_process->state() != QProcess::Running)
                break;
            out += m_process->readAllStandardOutput();
        }
        if (!out.startsWith("PORT "))
            return QStringLiteral("the S3 emulator did not start: ") + QString::fromUtf8(m_process->readAllStandardError().right(400));
        m_port = out.mid(5).trimmed().toInt();
        return {};
    }

    ~S3EmulatorProcess()
    {
        if (m_process) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }

    int port() const { return m_port; }
    QString endpoint() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }

    // A control call (/_emulator/…): presign-skew?seconds=N, expire-token.
    bool control(const QString &pathAndQuery) const
    {
        return QProcess::execute(QStringLiteral("curl"), {QStringLiteral("-sf"), QStringLiteral("-X"), QStringLiteral("POST"),
                                                           endpoint() + QStringLiteral("/_emulator/") + pathAndQuery})
            == 0;
    }

    // Multipart uploads it holds open (neither completed nor aborted); -1 when it cannot say.
    int openUploads() const
    {
        QProcess curl;
        curl.start(QStringLiteral("curl"), {QStringLiteral("-sf"), endpoint() + QStringLiteral("/_emulator/uploads")});
        curl.waitForFinished(10000);
        return QJsonDocument::fromJson(curl.readAllStandardOutput()).object().value(QStringLiteral("open")).toInt(-1);
    }

    // The requests it has served: method, path, auth (header/presigned/none), status, secret_seen.
    QList<QJsonObject> log() const
    {
        QProcess curl;
        curl.start(QStringLiteral("curl"), {QStringLiteral("-sf"), endpoint() + QStringLiteral("/_emulator/log")});
        curl.waitForFinished(10000);
        QList<QJsonObject> entries;
        for (const QByteArray &line : curl.readAllStandardOutput().split('\n')) {
            if (!line.trimmed().isEmpty())
                entries.append(QJsonDocument::fromJson(line).object());
        }
        return entries;
    }

private:
    std::unique_ptr<QProcess> m_process;
    int m_port = 0;
};

} // namespace gantry::test

// In a test function: fails in CI, skips elsewhere, when the emulator did not start.
#define GANTRY_REQUIRE_S3(error)                                                          \
    do {                                                                                  \
        const QString gantryWhy_ = (error);                                               \
        if (!gantryWhy_.isEmpty()) {                                                      \
            if (qEnvironmentVariable("CI") != QLatin1String("true"))                      \
                QSKIP(qPrintable(gantryWhy_));                                            \
            QFAIL(qPrintable(QStringLiteral("the S3 emulator did not start: ") + gantryWhy_)); \
        }                                                                                 \
    } while (false)
