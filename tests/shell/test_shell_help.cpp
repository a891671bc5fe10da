// SPDX-License-Identifier: Apache-2.0
// #32.14: F1 opens the manual at the section of the view the user is in — every panel and every
// detail tab — in English and in Chinese, with the section's heading at the top of the window and
// no image or link missing; and the menus hold what the views do (Verify GPU, Doctor, the
// selected machine's instance Stop/Start/Restart/Terminate). Renders the help window at 1024×700
// and at 1600×1000.
#include "shellfixture.h"

#include "app/gui/appservices.h"

#include "core/hosts/hoststore.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "ui/providers/instancesmodel.h"
#include "ui/providers/instancespanel.h"
#include "ui/shell/helpwindow.h"
#include "ui/shell/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest>

using namespace gantry;
using namespace gantry::ui;

namespace {

using Shell = gantry::test::ShellFixture;

// The first line of text the reader sees at the top of the manual's window.
QString topLine(QTextBrowser *browser)
{
    return browser->cursorForPosition(QPoint(8, 8)).block().text();
}

HelpWindow *pressF1(MainWindow &window)
{
    window.action(QStringLiteral("help"))->trigger();
    QApplication::processEvents();
    return window.findChild<HelpWindow *>();
}

void render(HelpWindow *widget, const QString &name)
{
    QDir().mkpath(QStringLiteral(GANTRY_RENDER_DIR));
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
        widget->resize(size);
        QApplication::processEvents();
        widget->showTopic(widget->currentTopic()); // the text reflowed: back to the section
        QApplication::processEvents();
        QVERIFY(!topLine(widget->browser()).isEmpty());
        widget->grab().save(QStringLiteral(GANTRY_RENDER_DIR "/%1-%2x%3.png").arg(name).arg(size.width()).arg(size.height()));
    }
}

} // namespace

class TestShellHelp : public QObject
{
    Q_OBJECT

private:
    // Every anchor the window may ask for is in both manuals, and every image they show exists.
    static void checkManual(const QString &path)
    {
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        const QString html = QString::fromUtf8(f.readAll());
        for (const QString &topic : HelpWindow::topics())
            QVERIFY2(html.contains(QStringLiteral("id=\"%1\"").arg(topic)), qPrintable(path + QStringLiteral(": no section ") + topic));
        const QRegularExpression image(QStringLiteral("<img src=\"([^\"]+)\""));
        for (auto it = image.globalMatch(html); it.hasNext();) {
            const QString src = it.next().captured(1);
            QVERIFY2(QFile::exists(QFileInfo(path).dir().filePath(src)), qPrintable(path + QStringLiteral(": missing ") + src));
        }
    }

private slots:
    void manualsHaveEverySection()
    {
        checkManual(QStringLiteral(":/gantry/manual/en/index.html"));
        checkManual(QStringLiteral(":/gantry/manual/zh_CN/index.html"));
    }

    // With no machines F1 opens at "Getting started"; on each panel and each detail tab, at its section.
    void f1OpensTheSectionOfTheCurrentView()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        Shell shell(config.path(), secrets.get());
        MainWindow &window = *shell.window;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        HelpWindow *help = pressF1(window);
        QVERIFY(help && help->isVisible());
        QCOMPARE(help->currentTopic(), QStringLiteral("start"));
        QCOMPARE(topLine(help->browser()), QStringLiteral("Getting started"));
        render(help, QStringLiteral("help-start"));

        const QMap<QString, QString> panels{{QStringLiteral("prices"), QStringLiteral("Prices")},
                                            {QStringLiteral("instances"), QStringLiteral("Instances")},
                                            {QStringLiteral("clusters"), QStringLiteral("Clusters")},
                                            {QStringLiteral("runs"), QStringLiteral("Runs")},
                                            {QStringLiteral("transfers"), QStringLiteral("Transfers")},
                                            {QStringLiteral("storage"), QStringLiteral("Storage")},
                                            {QStringLiteral("monitor"), QStringLiteral("Fleet monitor")},
                                            {QStringLiteral("cost"), QStringLiteral("Cost")}};
        help->resize(1024, 700);
        for (auto it = panels.begin(); it != panels.end(); ++it) {
            window.showPanel(it.key());
            QVERIFY(pressF1(window) == help); // one window, moved to the new section
            QCOMPARE(topLine(help->browser()), it.value());
        }

        SavedHost box;
        box.name = QStringLiteral("gpu-box");
        box.target.host = QStringLiteral("10.0.0.9");
        QVERIFY(window.hosts()->add(box));
        window.showPanel(QStringLiteral("machines"));
        window.selectHost(QStringLiteral("gpu-box"));
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("machineTabs"));
        QVERIFY(tabs && tabs->count() >= 5);
        const QStringList headings{QStringLiteral("Overview"), QStringLiteral("Files"), QStringLiteral("Monitor"), QStringLiteral("Verify"),
                                   QStringLiteral("Jobs")};
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            pressF1(window);
            QVERIFY2(headings.contains(topLine(help->browser())), qPrintable(help->currentTopic() + QStringLiteral(": ") + topLine(help->browser())));
            QVERIFY(topLine(help->browser()).toLower() == help->currentTopic());
        }
        tabs->setCurrentIndex(1);
        pressF1(window);
        render(help, QStringLiteral("help-files"));
    }

    // Machine → Terminate instance… asks what the Instances view asks, for the selected machine's
    // instance; a hand-added host has no instance commands; Verify GPU opens the Verify tab.
    void machineMenuActsOnTheSelectedInstance()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        Shell shell(config.path(), secrets.get());
        MainWindow &window = *shell.window;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SavedHost manual;
        manual.name = QStringLiteral("lab");
        manual.target.host = QStringLiteral("10.0.0.2");
        SavedHost box;
        box.name = QStringLiteral("sbx-box");
        box.target.host = QStringLiteral("127.0.0.1");
        box.provider = QStringLiteral("sandbox");
        box.instanceId = QStringLiteral("sbx-7");
        box.source = QStringLiteral("provider");
        QVERIFY(window.hosts()->add(manual));
        QVERIFY(window.hosts()->add(box));
        auto *instances = window.findChild<InstancesPanel *>();
        providers::Instance running;
        running.provider = box.provider;
        running.id = box.instanceId;
        running.name = box.name;
        running.state = providers::InstanceState::Running;
        running.pricePerHour = 0.5;
        instances->model()->setInstances(QStringLiteral("sandbox"), {running});
        QStringList asked;
        instances->setConfirmer([&asked](const QString &, const QString &text) {
            asked << text;
            return false; // the user cancels
        });

        window.selectHost(QStringLiteral("lab"));
        QVERIFY(!window.action(QStringLiteral("terminateInstance"))->isEnabled());
        QVERIFY(window.action(QStringLiteral("verify"))->isEnabled());
        window.action(QStringLiteral("verify"))->trigger();
        QCOMPARE(window.findChild<QTabWidget *>(QStringLiteral("machineTabs"))->currentWidget()->metaObject()->className(), "gantry::ui::VerifyTab");

        window.selectHost(QStringLiteral("sbx-box"));
        QVERIFY(window.action(QStringLiteral("terminateInstance"))->isEnabled());
        window.action(QStringLiteral("terminateInstance"))->trigger();
        QCOMPARE(window.currentPanel(), QStringLiteral("instances"));
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.constFirst().contains(QStringLiteral("sbx-box")) || asked.constFirst().contains(QStringLiteral("sbx-7")),
                 qPrintable(asked.constFirst()));
        QCOMPARE(instances->model()->rowCount(), 1); // cancelled: nothing happened
    }

    // In the Chinese UI the manual is the Chinese one, at the same section.
    void chineseUiOpensTheChineseManual()
    {
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        HelpWindow help;
        help.show();
        help.showTopic(QStringLiteral("verify"));
        QApplication::processEvents();
        QCOMPARE(topLine(help.browser()), QStringLiteral("验证"));
        QVERIFY(help.browser()->toPlainText().contains(QStringLiteral("Gantry 使用手册")));
        render(&help, QStringLiteral("help-verify-zh_CN"));
        help.showTopic(QStringLiteral("no-such-view"));
        QCOMPARE(topLine(help.browser()), QStringLiteral("快速开始"));
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }
};

QTEST_MAIN(TestShellHelp)
#include "test_shell_help.moc"
