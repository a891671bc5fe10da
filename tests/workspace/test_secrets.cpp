// SPDX-License-Identifier: Apache-2.0
// A desktop without a keyring: every secret call says so at once (no D-Bus timeouts), and the
// private file the user may choose instead is 0600 from its first byte, used only once chosen.
#include "core/util/secretstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace gantry;

namespace {

int modeOf(const QString &path)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 0777) : -1;
}

} // namespace

class TestSecrets final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // A session without a bus, as on a server with X forwarding or WSL (before the first sessionBus()).
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/gantry-test-bus");
    }

    void noKeyringIsSaidAtOnceWithTheNextStep()
    {
        QTemporaryDir dir;
        QVERIFY(!keychainAvailable());
        auto store = makeDesktopSecretStore(dir.path());
        const Result<void> written = store->write(QStringLiteral("provider/lambda/api-key"), QStringLiteral("k"));
        QVERIFY(!written);
        QCOMPARE(written.error().message, noKeyringMessage());
        QVERIFY(noKeyringMessage().contains(QStringLiteral("GANTRY_LAMBDA_API_KEY")));
        QVERIFY(noKeyringMessage().contains(QStringLiteral("--store file")));
        const Result<std::optional<QString>> read = store->read(QStringLiteral("provider/lambda/api-key"));
        QVERIFY(!read);
        QCOMPARE(read.error().message, noKeyringMessage());
        QVERIFY(!QFile::exists(secretsFilePath(dir.path()))); // never chosen silently
    }

    void theChosenFileIsPrivateAndUsed()
    {
        QTemporaryDir dir;
        auto store = makeDesktopSecretStore(dir.path());
        QVERIFY(!secretsFileEnabled(dir.path()));
        QVERIFY(enableSecretsFile(dir.path()));
        QVERIFY(secretsFileEnabled(dir.path()));
        QCOMPARE(modeOf(secretsFilePath(dir.path())), 0600);
        QVERIFY(store->write(QStringLiteral("provider/lambda/api-key"), QStringLiteral("secret-1")));
        QVERIFY(store->write(QStringLiteral("host/box/password"), QStringLiteral("pw \"quoted\"")));
        QCOMPARE(modeOf(secretsFilePath(dir.path())), 0600);
        QCOMPARE(store->read(QStringLiteral("provider/lambda/api-key"))->value_or(QString()), QStringLiteral("secret-1"));
        QCOMPARE(makeDesktopSecretStore(dir.path())->read(QStringLiteral("host/box/password"))->value_or(QString()),
                 QStringLiteral("pw \"quoted\""));
        QVERIFY(!store->read(QStringLiteral("provider/vast/api-key"))->has_value());
        QVERIFY(store->remove(QStringLiteral("host/box/password")));
        QVERIFY(!store->read(QStringLiteral("host/box/password"))->has_value());

        // Turned off: the file and its keys are gone, and the store says again that there is no keyring.
        QVERIFY(disableSecretsFile(dir.path()));
        QVERIFY(!QFile::exists(secretsFilePath(dir.path())));
        QCOMPARE(store->read(QStringLiteral("provider/lambda/api-key")).error().message, noKeyringMessage());
    }

    void aDamagedFileIsNamedNotOverwritten()
    {
        QTemporaryDir dir;
        QFile file(secretsFilePath(dir.path()));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{not json");
        file.close();
        auto store = makeDesktopSecretStore(dir.path());
        const Result<void> written = store->write(QStringLiteral("k"), QStringLiteral("v"));
        QVERIFY(!written);
        QVERIFY2(written.error().message.contains(secretsFilePath(dir.path())), qPrintable(written.error().message));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("{not json"));
    }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "test_secrets.moc"
