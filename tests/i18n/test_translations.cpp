// The Chinese UI is complete and current: lupdate finds every message without a warning, the .ts
// holds exactly the messages the sources have, and every message is translated with the same
// placeholders as its English source.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

const QString kTsPath = QStringLiteral("resources/translations/gantry_zh_CN.ts");
const QString kUpdateHint = QStringLiteral("run `cmake --build build-ci --target update_translations` and commit the .ts");

struct Message
{
    QString context;
    QString source;
    QString comment;
    QString type;              // "unfinished", "vanished", "obsolete" or ""
    QStringList translations;  // one, or one per numerus form
};

QString repositoryRoot()
{
    return QDir(QStringLiteral(GANTRY_TEST_SOURCE_DIR "/..")).absolutePath();
}

QList<Message> readTs(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return {};
    }
    QList<Message> messages;
    Message m;
    QString context;
    QString text;  // of a <translation> without numerus forms
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("name"))
                context = xml.readElementText();
            else if (name == QLatin1String("message"))
                m = Message{context, {}, {}, {}, {}};
            else if (name == QLatin1String("source"))
                m.source = xml.readElementText();
            else if (name == QLatin1String("comment"))
                m.comment = xml.readElementText();
            else if (name == QLatin1String("numerusform"))
                m.translations.append(xml.readElementText());
            else if (name == QLatin1String("translation")) {
                m.type = xml.attributes().value(QLatin1String("type")).toString();
                text.clear();
            }
        } else if (xml.isCharacters()) {
            text += xml.text();
        } else if (xml.isEndElement() && xml.name() == QLatin1String("translation")) {
            if (m.translations.isEmpty())
                m.translations.append(text);
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            messages.append(m);
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1 is not valid XML (line %2: %3)").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return messages;
}

QSet<QString> keys(const QList<Message> &messages)
{
    QSet<QString> set;
    for (const Message &m : messages)
        set.insert(m.context + QStringLiteral(" | ") + m.source + (m.comment.isEmpty() ? QString() : QStringLiteral(" | ") + m.comment));
    return set;
}

QString firstFew(QStringList lines)
{
    lines.sort();
    const qsizetype total = lines.size();
    if (total > 15)
        lines = lines.mid(0, 15) << QStringLiteral("… and %1 more").arg(total - 15);
    return lines.join(QLatin1Char('\n'));
}

QSet<QString> placeholders(const QString &text)
{
    static const QRegularExpression marker(QStringLiteral("%(\\d+|n)"));
    QSet<QString> found;
    for (auto it = marker.globalMatch(text); it.hasNext();)
        found.insert(it.next().captured(0));
    return found;
}

} // namespace

class TestTranslations final : public QObject
{
    Q_OBJECT

private slots:
    void sourcesMatchTheTs()
    {
        QTemporaryDir dir;
        QVERIFY2(dir.isValid(), "cannot create a temporary directory; check TMPDIR");
        const QString copy = dir.filePath(QStringLiteral("gantry_zh_CN.ts"));
        QVERIFY2(QFile::copy(QDir(repositoryRoot()).filePath(kTsPath), copy), qPrintable(kTsPath + QStringLiteral(" is missing; ") + kUpdateHint));
        QProcess lupdate;
        lupdate.setWorkingDirectory(repositoryRoot());
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        // The same sources and options as the update_translations target (app/CMakeLists.txt).
        lupdate.start(QStringLiteral(GANTRY_LUPDATE_PATH),
                      {QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-no-obsolete"), QStringLiteral("-I"),
                       QStringLiteral("."), QStringLiteral("app/gui"),
                       QStringLiteral("ui"), QStringLiteral("core"), QStringLiteral("-ts"), copy});
        QVERIFY2(lupdate.waitForFinished(120000), "lupdate did not finish in 2 minutes");
        const QString output = QString::fromUtf8(lupdate.readAll());
        QVERIFY2(lupdate.exitCode() == 0, qPrintable(QStringLiteral("lupdate failed:\n") + output));

        static const QRegularExpression normal(QStringLiteral(R"(^(Scanning directory |Updating |\s+Found \d+ source text|\s+Removed \d+ obsolete|\s*$))"));
        QStringList warnings;
        for (const QString &line : output.split(QLatin1Char('\n'))) {
            if (!normal.match(line).hasMatch())
                warnings.append(line);
        }
        QVERIFY2(warnings.isEmpty(), qPrintable(QStringLiteral("lupdate warns (a message it cannot extract or give a context is "
                                                               "not translatable; use a class tr()):\n") + firstFew(warnings)));

        QString error;
        const QSet<QString> committed = keys(readTs(QDir(repositoryRoot()).filePath(kTsPath), &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QSet<QString> current = keys(readTs(copy, &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList added = QSet<QString>(current).subtract(committed).values();
        const QStringList gone = QSet<QString>(committed).subtract(current).values();
        QVERIFY2(added.isEmpty(), qPrintable(QStringLiteral("%1 message(s) in the sources are not in %2; %3:\n%4")
                                                 .arg(added.size()).arg(kTsPath, kUpdateHint, firstFew(added))));
        QVERIFY2(gone.isEmpty(), qPrintable(QStringLiteral("%1 message(s) in %2 are no longer in the sources; %3:\n%4")
                                                .arg(gone.size()).arg(kTsPath, kUpdateHint, firstFew(gone))));
    }

    void everyMessageTranslated()
    {
        QString error;
        const QList<Message> messages = readTs(QDir(repositoryRoot()).filePath(kTsPath), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(!messages.isEmpty(), qPrintable(kTsPath + QStringLiteral(" has no messages; ") + kUpdateHint));
        QStringList unfinished;
        QStringList wrongPlaceholders;
        for (const Message &m : messages) {
            const bool empty = std::any_of(m.translations.cbegin(), m.translations.cend(),
                                           [](const QString &t) { return t.trimmed().isEmpty(); });
            if (!m.type.isEmpty() || empty) {
                unfinished.append(m.context + QStringLiteral(" | ") + m.source);
                continue;
            }
            for (const QString &t : m.translations) {
                QSet<QString> expected = placeholders(m.source);
                // A Chinese form may leave the count out ("%n 个文件" or just "文件"), never add one.
                if (placeholders(t) != expected && placeholders(t) != expected.subtract({QStringLiteral("%n")}))
                    wrongPlaceholders.append(m.context + QStringLiteral(" | ") + m.source + QStringLiteral(" -> ") + t);
            }
        }
        QVERIFY2(unfinished.isEmpty(), qPrintable(QStringLiteral("%1 of %2 message(s) in %3 are unfinished or empty; translate "
                                                                 "them (Qt Linguist, or edit the <translation>) and drop "
                                                                 "type=\"unfinished\":\n%4")
                                                      .arg(unfinished.size()).arg(messages.size()).arg(kTsPath, firstFew(unfinished))));
        QVERIFY2(wrongPlaceholders.isEmpty(),
                 // One multi-argument arg(): the "%1"/"%n" shown in the text are not substituted again.
                 qPrintable(QStringLiteral("%1 translation(s) in %2 lose or add a placeholder (%3); keep exactly those of the "
                                           "English source:\n%4")
                                .arg(QString::number(wrongPlaceholders.size()), kTsPath, QStringLiteral("%1, %2 … %n"),
                                     firstFew(wrongPlaceholders))));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "test_translations.moc"
