// SPDX-License-Identifier: Apache-2.0
// Offscreen: what Stop says, per provider, from its descriptor (what a stop loses, keeps and still
// bills), and the Instances view after a real stop against the Vast.ai emulator: Start enabled,
// Stop disabled, the stopped disk's $/day in Price and in the Cost panel's Storage column.
#include "restconfigfor.h"
#include "vastemulator.h"

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/providerdescriptor.h"
#include "core/providers/providerhub.h"
#include "core/providers/providerregistry.h"
#include "core/providers/vastprovider.h"
#include "core/workspace/workspace.h"
#include "ui/common/confirm.h"
#include "ui/cost/ledgermodel.h"
#include "ui/providers/instancesmodel.h"
#include "ui/providers/instancespanel.h"

#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace gantry;
using namespace gantry::ui;

namespace {

const QString kKey = QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAM laptop");

QPushButton *button(QWidget &panel, const QString &text)
{
    for (QPushButton *b : panel.findChildren<QPushButton *>()) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

} // namespace

class TestUiStop final : public QObject
{
    Q_OBJECT

private slots:
    // Each provider's Stop question comes from what that provider does: RunPod loses the container
    // disk and keeps the volume; Vast has no volume and keeps its whole disk; both say $/day.
    // Providers that cannot stop carry no stop wording at all (their Stop button is disabled).
    void stopWordingFollowsEachProvider()
    {
        QTemporaryDir dir;
        providers::ProviderSettings settings;
        settings.configDir = dir.path();
        providers::Instance instance;
        instance.name = QStringLiteral("box");
        instance.volumeGb = 32;
        QStringList stoppable;
        for (const providers::ProviderDescriptor &d : providers::providerDescriptors()) {
            const std::unique_ptr<providers::Provider> provider = d.create(settings, test::restConfigFor(QStringLiteral("http://127.0.0.1:9")), nullptr);
            const providers::ProviderInfo info = provider->info();
            const bool canStop = info.capabilities.testFlag(providers::Capability::StopStart);
            QVERIFY2(canStop == !info.cost.stop.keptUnsized.isEmpty(), qPrintable(d.id));
            if (!canStop)
                continue;
            stoppable << d.id;
            const QString text = confirmationText(info, instance, QStringLiteral("stop"));
            QVERIFY2(text.contains(QStringLiteral("a day")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("32 GB")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("rented by someone else")), qPrintable(text));
            if (d.id == QLatin1String("runpod")) {
                QVERIFY2(text.contains(QStringLiteral("Lost: the container disk")), qPrintable(text));
                QVERIFY2(text.contains(QStringLiteral("the 32 GB volume disk")), qPrintable(text));
            } else if (d.id == QLatin1String("vast")) {
                QVERIFY2(!text.contains(QStringLiteral("volume")) && !text.contains(QStringLiteral("container")), qPrintable(text));
                QVERIFY2(!text.contains(QStringLiteral("Lost:")), qPrintable(text));
                QVERIFY2(text.contains(QStringLiteral("whole 32 GB disk")), qPrintable(text));
                QVERIFY2(text.contains(QStringLiteral("$0.16 a day")), qPrintable(text));
            }
        }
        QCOMPARE(stoppable, (QStringList{QStringLiteral("runpod"), QStringLiteral("vast")}));
    }

    // A Vast instance stopped from the Instances view: once the state refresh lands, Start is
    // enabled and Stop is not, Price reads the disk's $/day, and the ledger bills the stopped disk
    // (the Cost panel's Storage column), sized from the listing although the launch asked for none.
    void vastStopEnablesStartAndShowsStorage()
    {
        QTemporaryDir dir;
        test::VastEmulator emulator;
        emulator.bootMs = 100;
        QVERIFY(emulator.listen());
        auto vast = std::make_unique<providers::VastProvider>(test::restConfigFor(emulator));
        providers::ProviderHub hub;
        hub.addProvider(std::move(vast));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()));
        QVERIFY(ledger.open());
        HostStore hosts(dir.path());
        (void)hosts.load();
        workspace::Workspace workspace(dir.path(), &hub, &ledger, &hosts);
        workspace.setLaunchTiming(100, 0, 0);
        bool keyAdded = false;
        hub.provider(QStringLiteral("vast"))->addSshKey(QStringLiteral("laptop"), kKey, [&keyAdded](Result<providers::SshKey> key) { keyAdded = bool(key); });
        QTRY_VERIFY_WITH_TIMEOUT(keyAdded, 10000);

        InstancesPanel panel(&workspace);
        QStringList asked;
        panel.setConfirmer([&asked](const QString &, const QString &text) {
            asked << text;
            return true;
        });
        providers::LaunchRequest request;
        request.typeName = QStringLiteral("H100x1");
        request.name = QStringLiteral("vast-box");
        QString id;
        workspace::LaunchOptions options;
        options.pricePerHour = 2.0;
        QSignalSpy ready(&workspace, &workspace::Workspace::instanceReady);
        workspace.launch(QStringLiteral("vast"), request, options,
                         [&id](Result<workspace::LaunchedInstance> launched) { id = launched ? launched->instanceId : QString(); });
        QTRY_VERIFY_WITH_TIMEOUT(!id.isEmpty(), 10000);
        QVERIFY(ready.wait(10000));
        panel.refresh();
        auto *view = panel.findChild<QTableView *>();
        QTRY_VERIFY_WITH_TIMEOUT(panel.model()->rowCount() == 1
                                     && panel.model()->instanceAt(0).state == providers::InstanceState::Running, 10000);
        view->setCurrentIndex(panel.model()->index(0, 0));
        QPushButton *stop = button(panel, QStringLiteral("Stop"));
        QPushButton *start = button(panel, QStringLiteral("Start"));
        QVERIFY(stop && start);
        QVERIFY(stop->isEnabled());
        QVERIFY(!start->isEnabled());

        panel.act(QStringLiteral("stop"));
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(QStringLiteral("whole 32 GB disk")), qPrintable(asked.first()));
        QVERIFY2(!asked.first().contains(QStringLiteral("volume")), qPrintable(asked.first()));
        QTRY_VERIFY_WITH_TIMEOUT(panel.model()->instanceAt(0).state == providers::InstanceState::Stopped, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), 10000);
        QVERIFY(!stop->isEnabled());
        const QString price = panel.model()->index(0, InstancesModel::PriceColumn).data().toString();
        QVERIFY2(price == QStringLiteral("$0.16/day storage"), qPrintable(price));

        QTRY_VERIFY_WITH_TIMEOUT(ledger.entry(QStringLiteral("vast"), id)->isBillingStorage(), 10000);
        LedgerModel ledgerModel(&ledger);
        ledgerModel.reload();
        QVERIFY(!ledgerModel.index(0, LedgerModel::StorageColumn).data().toString().isEmpty());
        QVERIFY(ledgerModel.index(0, LedgerModel::StorageColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("32 GB")));

        const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            if (!out.isEmpty())
                QVERIFY(panel.grab().save(QStringLiteral("%1/instances-vast-stopped-%2x%3.png").arg(out).arg(size.width()).arg(size.height())));
        }

        // The real Terminate question (the panel's own, with what else ends): Esc, its default, keeps the instance.
        panel.setTerminateNotes([](const providers::Instance &) {
            return QStringList{QStringLiteral("Running jobs that end with it: serve."),
                               QStringLiteral("Folders kept in sync with it, which lose their machine:\n  /home/me/project ↔ project")};
        });
        bool cancelIsDefault = false;
        QString shown;
        panel.setConfirmer([&](const QString &title, const QString &text) {
            QTimer::singleShot(100, &panel, [&] {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                if (!box)
                    return;
                cancelIsDefault = box->defaultButton() == box->button(QMessageBox::Cancel);
                shown = box->text();
                for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
                    panel.resize(size);
                    if (!out.isEmpty())
                        box->grab().save(QStringLiteral("%1/terminate-dialog-%2x%3.png").arg(out).arg(size.width()).arg(size.height()));
                }
                QTest::keyClick(box, Qt::Key_Escape);
            });
            return askDestructive(&panel, title, text);
        });
        panel.act(QStringLiteral("terminate"));
        QVERIFY(cancelIsDefault);
        QVERIFY2(shown.contains(QStringLiteral("Running jobs that end with it: serve.")), qPrintable(shown));
        QVERIFY(ledger.entry(QStringLiteral("vast"), id)->isOpen());
    }
};

QTEST_MAIN(TestUiStop)
#include "test_ui_stop.moc"
