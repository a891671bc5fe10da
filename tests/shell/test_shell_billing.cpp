// SPDX-License-Identifier: Apache-2.0
// Offscreen: questions whose Yes cannot be undone answer Cancel to Enter and Esc; removing the host
// of an instance that bills says so and offers Terminate; quitting while instances bill says how
// many and their $/h, once, until "Don't ask again".
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"
#include "ui/common/confirm.h"
#include "ui/shell/mainwindow.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

using namespace gantry;

namespace {

// Answers every message box that opens while it lives: records what it said and its default
// button, then lets `answer` click (or Esc when it returns null).
class BoxWatcher
{
public:
    explicit BoxWatcher(std::function<QAbstractButton *(QMessageBox *)> answer)
        : m_answer(std::move(answer))
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box == m_last)
                return;
            m_last = box;
            texts << box->text() + QLatin1Char('\n') + box->informativeText();
            QPushButton *byDefault = box->defaultButton();
            cancels << (byDefault && byDefault == box->escapeButton()
                        && (byDefault == box->button(QMessageBox::Cancel) || byDefault == box->button(QMessageBox::No)));
            QAbstractButton *choice = m_answer(box);
            if (!box->isVisible()) // answered by the callback itself (a key press)
                ;
            else if (choice)
                choice->click();
            else
                QTest::keyClick(box, Qt::Key_Escape);
            m_last = nullptr;
        });
        m_timer.start(20);
    }

    QStringList texts;
    QList<bool> cancels; // the default (Enter) and escape button was Cancel or No

private:
    std::function<QAbstractButton *(QMessageBox *)> m_answer;
    QTimer m_timer;
    QMessageBox *m_last = nullptr;
};

QAbstractButton *buttonNamed(QMessageBox *box, const QString &text)
{
    for (QAbstractButton *button : box->buttons()) {
        if (button->text() == text)
            return button;
    }
    return nullptr;
}

providers::Instance lambdaInstance(const QString &id)
{
    providers::Instance instance;
    instance.provider = QStringLiteral("lambda");
    instance.id = id;
    instance.name = id;
    instance.typeName = QStringLiteral("gpu_1x_h100_pcie");
    return instance;
}

void saveRender(QWidget *widget, const QString &name)
{
    const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
    if (!out.isEmpty())
        QVERIFY(widget->grab().save(QDir(out).filePath(name + QStringLiteral(".png"))));
}

} // namespace

class TestShellBilling final : public QObject
{
    Q_OBJECT

private slots:
    // Enter and Esc answer Cancel (or No); only a click on Yes goes ahead.
    void destructiveQuestionsDefaultToCancel()
    {
        for (const QMessageBox::StandardButton cancel : {QMessageBox::Cancel, QMessageBox::No}) {
            BoxWatcher enter([](QMessageBox *box) -> QAbstractButton * {
                QTest::keyClick(box, Qt::Key_Return);
                return nullptr;
            });
            QVERIFY(!ui::askDestructive(nullptr, QStringLiteral("Delete"), QStringLiteral("Delete it?"), cancel));
            QCOMPARE(enter.cancels.size(), 1);
            QVERIFY(enter.cancels.first());
        }
        BoxWatcher yes([](QMessageBox *box) { return box->button(QMessageBox::Yes); });
        QVERIFY(ui::askDestructive(nullptr, QStringLiteral("Delete"), QStringLiteral("Delete it?")));

        // Hand-built boxes (End process, Bring results home, Destination exists): Cancel is the default.
        QMessageBox box(QMessageBox::Warning, QStringLiteral("End process 42?"), QStringLiteral("End it?"));
        box.addButton(QStringLiteral("End (SIGTERM)"), QMessageBox::AcceptRole);
        box.addButton(QStringLiteral("Kill (SIGKILL)"), QMessageBox::DestructiveRole);
        QAbstractButton *cancel = ui::makeCancelDefault(box);
        QCOMPARE(box.defaultButton(), box.button(QMessageBox::Cancel));
        QCOMPARE(box.escapeButton(), cancel);
    }

    // Removing the host of a running, billed instance says it keeps billing and at what price,
    // offers Terminate, and defaults to Cancel; a plain host gets the plain question.
    void removingABilledHostSaysItKeepsBilling()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        workspace::AppCore core(config.path(), secrets.get());
        core.open();
        QVERIFY(core.ledger()->recordLaunch(lambdaInstance(QStringLiteral("i-1")), 3.29).ok());
        SavedHost billed;
        billed.name = QStringLiteral("h100-box");
        billed.target.host = QStringLiteral("192.0.2.10");
        billed.target.user = QStringLiteral("ubuntu");
        billed.provider = QStringLiteral("lambda");
        billed.instanceId = QStringLiteral("i-1");
        billed.source = QStringLiteral("provider");
        QVERIFY(core.workspace()->addHost(billed, false).ok());
        ui::MainWindow window(&core);
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.selectHost(billed.name);

        bool offeredTerminate = false;
        QStringList texts;
        {
            BoxWatcher cancelIt([&offeredTerminate, &window](QMessageBox *box) -> QAbstractButton * {
                offeredTerminate = buttonNamed(box, QStringLiteral("Terminate instance")) != nullptr;
                for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
                    window.resize(size);
                    saveRender(&window, QStringLiteral("remove-billed-host-window-%1x%2").arg(size.width()).arg(size.height()));
                    saveRender(box, QStringLiteral("remove-billed-host-%1x%2").arg(size.width()).arg(size.height()));
                }
                return nullptr; // Esc
            });
            window.removeSelected();
            texts = cancelIt.texts;
            QCOMPARE(cancelIt.cancels.size(), 1);
            QVERIFY(cancelIt.cancels.first());
        }
        QCOMPARE(texts.size(), 1);
        const QString text = texts.first();
        QVERIFY2(text.contains(QStringLiteral("keeps billing $3.29/h")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("terminate the instance")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("not touched")), qPrintable(text));
        QVERIFY(offeredTerminate);
        QVERIFY(core.hosts()->find(billed.name).has_value()); // Esc removed nothing

        bool cancelIsDefault = false;
        {
            BoxWatcher remove([&cancelIsDefault](QMessageBox *box) {
                cancelIsDefault = box->defaultButton() == box->button(QMessageBox::Cancel);
                return buttonNamed(box, QStringLiteral("Remove, keep billing"));
            });
            window.removeSelected();
        }
        QVERIFY(cancelIsDefault);
        QVERIFY(!core.hosts()->find(billed.name).has_value());
    }

    // Quitting while instances bill asks once per quit, with how many and their $/h together and
    // Cancel as the default; after "Don't ask again" it quits without a word.
    void quitWhileBillingAsksUntilToldNotTo()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        workspace::AppCore core(config.path(), secrets.get());
        core.open();
        QVERIFY(core.ledger()->recordLaunch(lambdaInstance(QStringLiteral("i-1")), 3.29).ok());
        QVERIFY(core.ledger()->recordLaunch(lambdaInstance(QStringLiteral("i-2")), 1.10).ok());
        {
            ui::MainWindow window(&core);
            window.resize(1024, 700);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            BoxWatcher cancel([&window](QMessageBox *box) -> QAbstractButton * {
                for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
                    window.resize(size);
                    saveRender(box, QStringLiteral("quit-while-billing-%1x%2").arg(size.width()).arg(size.height()));
                }
                return box->defaultButton(); // Enter
            });
            QVERIFY(!window.close());
            QCOMPARE(cancel.texts.size(), 1); // one question, not one per instance
            QVERIFY2(cancel.texts.first().contains(QStringLiteral("Instances still billing after Gantry quits: 2,")), qPrintable(cancel.texts.first()));
            QVERIFY2(cancel.texts.first().contains(QStringLiteral("$4.39/h")), qPrintable(cancel.texts.first()));
            QVERIFY(window.isVisible());
        }
        {
            ui::MainWindow window(&core);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            BoxWatcher dontAsk([](QMessageBox *box) {
                box->checkBox()->setChecked(true);
                return box->button(QMessageBox::Yes);
            });
            QVERIFY(window.close());
            QCOMPARE(dontAsk.texts.size(), 1);
        }
        ui::MainWindow again(&core);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        BoxWatcher none([](QMessageBox *) { return nullptr; });
        QVERIFY(again.close());
        QVERIFY(none.texts.isEmpty());
    }
};

QTEST_MAIN(TestShellBilling)
#include "test_shell_billing.moc"
