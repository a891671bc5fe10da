// SPDX-License-Identifier: Apache-2.0
// The window's hand-offs as a user meets them: the Machines context menu and the Machine menu carry
// Open terminal / Open in VS Code / Open in Cursor; VS Code starts (a fake `code` on the test's
// PATH) with the machine's ssh config name; a missing Cursor is a message with the command to copy;
// an edit of a remote file (the real test sshd) shows in the status bar until it ends. HOME is a
// folder of the test's, so ~/.ssh is never the user's. Renders at 1024x700 and 1600x1000.

#include "sshdfixture.h"

#include "core/handoff/editsession.h"
#include "core/hosts/hoststore.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "ui/shell/handoffactions.h"
#include "ui/shell/mainwindow.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <optional>

using namespace gantry;
using namespace gantry::ui;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

QStringList texts(const QMenu *menu)
{
    QStringList out;
    for (const QAction *a : menu->actions())
        out << (a->isSeparator() ? QStringLiteral("-") : a->text());
    return out;
}

// The window with a menu or message open over it, as the user sees them (each is a window of its
// own); `at`: where it is drawn in the window, else where it is (the offscreen screen may have
// pushed it inside its own smaller bounds).
void saveRender(QWidget *window, const QString &name, QWidget *over = nullptr, std::optional<QPoint> at = std::nullopt)
{
    QPixmap shot = window->grab();
    QPainter painter(&shot);
    if (over && over->isVisible())
        painter.drawPixmap(at.value_or(window->mapFromGlobal(over->mapToGlobal(QPoint(0, 0)))), over->grab());
    painter.end();
    const QString dir = QStringLiteral(GANTRY_RENDER_DIR);
    QDir().mkpath(dir);
    const QString path = dir + QStringLiteral("/") + name;
    QVERIFY(shot.save(path));
    qInfo("render: %s", qPrintable(path));
}

// The application core and its window over a fresh config folder, as main() makes them.
struct Shell
{
    QTemporaryDir config;
    std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
    workspace::AppCore core{config.path(), secrets.get()};
    std::unique_ptr<MainWindow> window;

    Shell()
    {
        core.open();
        window = std::make_unique<MainWindow>(&core);
    }
};

} // namespace

class TestHandoffGui : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_bin;
    test::SshdFixture m_sshd;

    handoff::Desktop desktop() const
    {
        handoff::Desktop d;
        d.env = QProcessEnvironment();
        d.env.insert(QStringLiteral("PATH"), m_bin.path() + QStringLiteral(":/usr/bin:/bin"));
        d.env.insert(QStringLiteral("EDITOR"), QStringLiteral("fake-editor"));
        d.env.insert(QStringLiteral("QUIT"), m_bin.filePath(QStringLiteral("quit")));
        return d;
    }

    // A window with the two machines, programs found on the test's PATH only.
    std::unique_ptr<Shell> shell()
    {
        auto made = std::make_unique<Shell>();
        addHosts(made->window->hosts());
        made->window->handoff()->setDesktop(desktop());
        return made;
    }

    void addHosts(HostStore *hosts)
    {
        SavedHost lab;
        lab.name = QStringLiteral("lab");
        lab.target.host = QStringLiteral("lab.example.org");
        lab.source = QStringLiteral("ssh-config");
        QVERIFY(hosts->add(lab));
        SavedHost box;
        box.name = QStringLiteral("fixture");
        box.target = m_sshd.target();
        box.source = QStringLiteral("manual");
        QVERIFY(hosts->add(box));
    }

private slots:
    void initTestCase()
    {
        qputenv("HOME", m_home.path().toUtf8());
        GANTRY_REQUIRE_SSHD(m_sshd.start());
        QDir().mkpath(m_home.filePath(QStringLiteral(".ssh")));
        QVERIFY(QFile::copy(m_sshd.knownHostsPath(), m_home.filePath(QStringLiteral(".ssh/known_hosts"))));
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("code")),
                                  QStringLiteral("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '%1.tmp'; mv '%1.tmp' '%1'\n")
                                      .arg(m_bin.filePath(QStringLiteral("code-argv")))));
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("fake-editor")),
                                  QStringLiteral("#!/bin/sh\nwhile [ ! -e \"$QUIT\" ]; do sleep 0.05; done\n")));
    }

    void machineMenusOfferTheHandoffs()
    {
        const std::unique_ptr<Shell> shown = shell();
        MainWindow &window = *shown->window;
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.selectHost(QStringLiteral("lab"));

        std::unique_ptr<QMenu> menu(window.machineContextMenu(&window));
        const QStringList entries = texts(menu.get());
        for (const QString &wanted : {QStringLiteral("Open terminal"), QStringLiteral("Open in VS Code"), QStringLiteral("Open in Cursor")})
            QVERIFY2(entries.contains(wanted), qPrintable(entries.join(u'|')));
        // The same entries in the menu bar's Machine menu.
        QMenu *machine = nullptr;
        for (QAction *top : window.menuBar()->actions()) {
            if (top->text().remove(u'&') == QStringLiteral("Machine"))
                machine = top->menu();
        }
        QVERIFY(machine);
        QVERIFY(texts(machine).contains(QStringLiteral("Open in VS Code")));

        // Rendered as the user sees it after a right click on the row.
        const QRect row = window.machineView()->visualRect(window.machineView()->currentIndex()); // the row right-clicked
        menu->popup(window.machineView()->viewport()->mapToGlobal(row.center()));
        QVERIFY(QTest::qWaitForWindowExposed(menu.get()));
        saveRender(&window, QStringLiteral("handoff-machines-1024x700.png"), menu.get());
        window.resize(1600, 1000);
        QTest::qWait(50);
        const QRect wide = window.machineView()->visualRect(window.machineView()->currentIndex());
        saveRender(&window, QStringLiteral("handoff-machines-1600x1000.png"), menu.get(),
                   window.machineView()->viewport()->mapTo(&window, wide.center()));
        menu->hide();
        window.resize(1024, 700);

        // VS Code: started with the imported host's own ssh name.
        window.action(QStringLiteral("openVsCode"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(readAll(m_bin.filePath(QStringLiteral("code-argv"))), QByteArray("--remote\nssh-remote+lab\n"), 10000);
        QTRY_VERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Opened lab in VS Code")));

        // Cursor is not installed: a message names it and copies the command.
        window.action(QStringLiteral("openCursor"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.handoff()->openMessage() && window.handoff()->openMessage()->isVisible(), 10000);
        QMessageBox *box = window.handoff()->openMessage();
        QVERIFY2(box->text().contains(QStringLiteral("cursor --remote ssh-remote+lab")), qPrintable(box->text()));
        saveRender(&window, QStringLiteral("handoff-cursor-missing-1024x700.png"), box);
        QAbstractButton *copy = nullptr;
        for (QAbstractButton *b : box->buttons()) {
            if (b->text() == QStringLiteral("Copy command"))
                copy = b;
        }
        QVERIFY(copy);
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("cursor --remote ssh-remote+lab"));
    }

    void aGantryHostAsksBeforeSshConfigIsWritten()
    {
        const std::unique_ptr<Shell> shown = shell();
        MainWindow &window = *shown->window;
        QStringList asked;
        window.handoff()->setSshConfigConsent([&asked](handoff::Tool, const QString &host) {
            asked << host;
            return true;
        });
        window.selectHost(QStringLiteral("fixture"));
        QFile::remove(m_bin.filePath(QStringLiteral("code-argv")));
        window.action(QStringLiteral("openVsCode"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(asked, QStringList{QStringLiteral("fixture")}, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(readAll(m_bin.filePath(QStringLiteral("code-argv"))), QByteArray("--remote\nssh-remote+fixture\n"), 10000);
        QVERIFY(readAll(m_home.filePath(QStringLiteral(".ssh/config"))).contains("Host fixture"));
    }

    void anEditShowsInTheStatusBarUntilItEnds()
    {
        QTemporaryDir remote;
        QTemporaryDir temp;
        const std::unique_ptr<Shell> shown = shell();
        MainWindow &window = *shown->window;
        workspace::AppCore &core = shown->core;
        window.handoff()->setEditTempRoot(temp.path());
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.selectHost(QStringLiteral("fixture"));
        const QString file = remote.filePath(QStringLiteral("train.py"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("epochs = 1\n");
        f.close();

        window.handoff()->edit(QStringLiteral("fixture"), file);
        QTRY_VERIFY_WITH_TIMEOUT(!core.edits()->sessions().isEmpty() &&
                                     core.edits()->sessions().first()->state() == handoff::EditSession::State::Editing, 20000);
        handoff::EditSession *session = core.edits()->sessions().first();
        QFile local(session->localFile());
        QVERIFY(local.open(QIODevice::WriteOnly | QIODevice::Truncate));
        local.write("epochs = 10\n");
        local.close();
        QTRY_COMPARE_WITH_TIMEOUT(readAll(file), QByteArray("epochs = 10\n"), 20000);
        QTRY_VERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Uploaded train.py to fixture")));
        QToolButton *indicator = window.handoff()->indicator();
        QVERIFY(indicator->isVisible());
        QCOMPARE(indicator->text(), QStringLiteral("Editing train.py"));
        // The status bar's menu, opened upwards from its button as a click does.
        QMenu *menu = indicator->menu();
        menu->popup(indicator->mapToGlobal(QPoint(0, -menu->sizeHint().height())));
        QVERIFY(QTest::qWaitForWindowExposed(menu));
        QVERIFY(menu->actions().first()->text().contains(QStringLiteral("train.py on fixture: editing, 1 save(s) uploaded")));
        // Drawn just above the button, as it opens on a desktop.
        const auto above = [&] { return indicator->mapTo(&window, QPoint(indicator->width() - menu->width(), -menu->height())); };
        saveRender(&window, QStringLiteral("handoff-editing-1024x700.png"), menu, above());
        menu->hide();
        window.resize(1600, 1000);
        QTest::qWait(50);
        menu->popup(indicator->mapToGlobal(QPoint(0, -menu->sizeHint().height())));
        QVERIFY(QTest::qWaitForWindowExposed(menu));
        saveRender(&window, QStringLiteral("handoff-editing-1600x1000.png"), menu, above());
        // Ending it from the status bar's menu: done, the button goes.
        QAction *end = indicator->menu()->actions().constLast();
        QCOMPARE(end->text(), QStringLiteral("End editing train.py"));
        end->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(core.edits()->sessions().isEmpty(), 20000);
        QVERIFY(!indicator->isVisible());
        QTRY_VERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Finished editing train.py on fixture")));
        QVERIFY(QFile(m_bin.filePath(QStringLiteral("quit"))).open(QIODevice::WriteOnly)); // let the fake editor go
    }
};

QTEST_MAIN(TestHandoffGui)
#include "test_handoff_gui.moc"
