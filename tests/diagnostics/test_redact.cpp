// SPDX-License-Identifier: Apache-2.0
// diagnostics::redact() against the secret shapes a bug report meets: URL user-info, signed-URL
// and API-key query parameters, quoted and multi-word passwords and passphrases, JSON and INI
// values, bearer tokens and private keys. Each case names what must go and what must stay (so a
// report keeps the facts a maintainer needs).
#include "core/diagnostics/redact.h"

#include <QTest>

using namespace gantry;

class TestRedact final : public QObject
{
    Q_OBJECT

private slots:
    void secretShapesAreRemoved_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("gone");
        QTest::addColumn<QStringList>("kept");
        auto row = [](const char *name, const QString &text, const QStringList &gone, const QStringList &kept) {
            QTest::newRow(name) << text << gone << kept;
        };
        row("url user-info", QStringLiteral("endpoint = https://alice:Hunter2Pass@api.example.com/v1"),
            {QStringLiteral("Hunter2Pass")}, {QStringLiteral("alice"), QStringLiteral("api.example.com/v1")});
        row("url user-info with a slash", QStringLiteral("proxy http://bob:pa/ss@10.0.0.1:3128 down"), {QStringLiteral("pa/ss")},
            {QStringLiteral("10.0.0.1:3128"), QStringLiteral("down")});
        row("ini section endpoint", QStringLiteral("[providers]\nlambda_endpoint=https://u:s3cr3t@lambda.local\n"), {QStringLiteral("s3cr3t")},
            {QStringLiteral("lambda.local")});
        row("query key", QStringLiteral("GET https://api.vast.ai/api/v0/bundles?key=abcd1234&q=h100"), {QStringLiteral("abcd1234")},
            {QStringLiteral("q=h100"), QStringLiteral("api.vast.ai")});
        row("signed url", QStringLiteral("https://b.s3.amazonaws.com/x?X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=deadbeef99&X-Amz-Expires=60"),
            {QStringLiteral("AKIA%2F2026"), QStringLiteral("deadbeef99")}, {QStringLiteral("X-Amz-Expires=60")});
        row("query sig and session", QStringLiteral("u=1&sig=Zz9&session_id=Q1w2e3"), {QStringLiteral("Zz9"), QStringLiteral("Q1w2e3")},
            {QStringLiteral("u=1")});
        row("quoted multi-word password", QStringLiteral("password = \"correct horse battery staple\" # saved"),
            {QStringLiteral("correct"), QStringLiteral("horse"), QStringLiteral("staple")}, {QStringLiteral("password")});
        row("quoted with an escaped quote", QStringLiteral("passphrase: \"say \\\"hi\\\" twice\", user: bob"),
            {QStringLiteral("say"), QStringLiteral("twice")}, {QStringLiteral("user: bob")});
        row("single-quoted", QStringLiteral("secret='two words'\nnext line"), {QStringLiteral("two"), QStringLiteral("words")},
            {QStringLiteral("next line")});
        row("unquoted passphrase to the end of the line", QStringLiteral("passphrase=open sesame now\nhost=box"),
            {QStringLiteral("sesame"), QStringLiteral("now")}, {QStringLiteral("host=box")});
        row("json", QStringLiteral("{\"api_key\": \"k-123\", \"password\": \"a b c\", \"user\": \"bob\"}"),
            {QStringLiteral("k-123"), QStringLiteral("a b c")}, {QStringLiteral("\"user\": \"bob\"")});
        row("token word", QStringLiteral("token: t0k3n and more"), {QStringLiteral("t0k3n")}, {QStringLiteral("and more")});
        row("bearer", QStringLiteral("Authorization: Bearer eyJhbGciOi.abc.def"), {QStringLiteral("eyJhbGciOi")}, {QStringLiteral("Authorization")});
        row("private key", QStringLiteral("before\n-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAkey\n-----END OPENSSH PRIVATE KEY-----\nafter"),
            {QStringLiteral("AAAAkey")}, {QStringLiteral("before"), QStringLiteral("after")});
        row("truncated private key", QStringLiteral("-----BEGIN RSA PRIVATE KEY-----\nMIIEcut"), {QStringLiteral("MIIEcut")}, {});
        row("long token", QStringLiteral("id 0123456789abcdefghij0123456789abcdef seen"), {QStringLiteral("0123456789abcdefghij")},
            {QStringLiteral("seen")});
        row("ordinary log", QStringLiteral("connected to box-3 in 120 ms; 4 GPUs; password prompt skipped"), {},
            {QStringLiteral("connected to box-3 in 120 ms; 4 GPUs")});
    }

    void secretShapesAreRemoved()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, gone);
        QFETCH(QStringList, kept);
        const QString out = diagnostics::redact(text, {});
        for (const QString &secret : gone)
            QVERIFY2(!out.contains(secret), qPrintable(QStringLiteral("%1 survived in: %2").arg(secret, out)));
        for (const QString &fact : kept)
            QVERIFY2(out.contains(fact), qPrintable(QStringLiteral("%1 was lost in: %2").arg(fact, out)));
        if (!gone.isEmpty())
            QVERIFY(out.contains(QStringLiteral("[redacted]")));
        QCOMPARE(diagnostics::redact(out, {}), out); // redacting again changes nothing
    }

    void knownSecretsGoWhereverTheyAre()
    {
        const QString out = diagnostics::redact(QStringLiteral("log: sent pw9Q7 to host; ok"), {QStringLiteral("pw9Q7"), QStringLiteral("ab")});
        QCOMPARE(out, QStringLiteral("log: sent [redacted] to host; ok")); // "ab" is too short to be told from words
    }
};

QTEST_APPLESS_MAIN(TestRedact)
#include "test_redact.moc"
