// SPDX-License-Identifier: Apache-2.0
// "New cluster from saved hosts…": the Clusters view groups machines already in the list itself,
// through the same core call as `gantry-cli cluster add` (cluster::addClusterOfSavedHosts), and
// never tells the user to run gantry-cli. In English and Chinese; the dialog and the panel are
// rendered at 1024x700 and 1600x1000 under GANTRY_SCREENSHOT_DIR when it is set.
#include "ui/cluster/clusterdialogs.h"
#include "ui/cluster/clusterspanel.h"
#include "core/cluster/cluster.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/providerhub.h"
#include "core/workspace/workspace.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTranslator>
#include <QTreeWidget>
#include <QtTest>

using namespace gantry;

namespace {

void render(QWidget *widget, const QString &name, const QString &language)
{
    const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
    if (!out.isEmpty())
        widget->grab().save(QStringLiteral("%1/%2-%3-%4x%5.png").arg(out, name, language).arg(widget->width()).arg(widget->height()));
}

} // namespace

class TestUiClusterFromHosts final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    providers::ProviderHub m_hub;
    std::unique_ptr<cost::Ledger> m_ledger;
    std::unique_ptr<HostStore> m_hosts;
    std::unique_ptr<workspace::Workspace> m_workspace;
    std::unique_ptr<QTranslator> m_translator;

    void useLanguage(const QString &language)
    {
        if (m_translator)
            QCoreApplication::removeTranslator(m_translator.get());
        m_translator.reset();
        if (language == QLatin1String("en"))
            return;
        m_translator = std::make_unique<QTranslator>();
        QVERIFY(m_translator->load(QStringLiteral(GANTRY_QM_DIR "/gantry_zh_CN.qm")));
        QCoreApplication::installTranslator(m_translator.get());
    }

private slots:
    void initTestCase()
    {
        m_hosts = std::make_unique<HostStore>(m_dir.path());
        QVERIFY(m_hosts->load());
        for (const char *name : {"gpu-box-10", "gpu-box-1", "gpu-box-2"}) {
            SavedHost host;
            host.name = QString::fromLatin1(name);
            host.target.host = QStringLiteral("127.0.0.1");
            host.target.user = QStringLiteral("ubuntu");
            host.source = QStringLiteral("manual");
            if (host.name == QLatin1String("gpu-box-2")) { // a rented one keeps what bills it
                host.provider = QStringLiteral("sandbox");
                host.instanceId = QStringLiteral("sbx-42");
                host.hourlyPriceUsd = 1.5;
            }
            QVERIFY2(m_hosts->add(host), qPrintable(host.name));
        }
        m_ledger = std::make_unique<cost::Ledger>(cost::Ledger::defaultPath(m_dir.path()));
        QVERIFY(m_ledger->open());
        m_workspace = std::make_unique<workspace::Workspace>(m_dir.path(), &m_hub, m_ledger.get(), m_hosts.get());
    }

    void cleanup()
    {
        useLanguage(QStringLiteral("en"));
        QFile::remove(cluster::ClusterStore(m_dir.path()).filePath());
    }

    void groupSavedHostsFromTheGui_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void groupSavedHostsFromTheGui()
    {
        QFETCH(QString, language);
        useLanguage(language);
        ui::ClustersPanel panel(m_workspace.get());
        panel.resize(1024, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *fromHosts = panel.findChild<QPushButton *>(QStringLiteral("fromHosts"));
        QVERIFY(fromHosts && fromHosts->isVisible());
        // The empty state names the button, not a command line.
        QVERIFY2(!panel.statusText().contains(QLatin1String("gantry-cli")), qPrintable(panel.statusText()));
        QVERIFY2(panel.statusText().contains(fromHosts->text()), qPrintable(panel.statusText()));
        // Every button of the row is read whole, and the row does not widen a 1024 px window.
        QVERIFY2(panel.minimumSizeHint().width() <= 1024, qPrintable(QString::number(panel.minimumSizeHint().width())));
        QVERIFY(fromHosts->width() >= fromHosts->sizeHint().width());
        render(&panel, QStringLiteral("clusters-empty"), language);

        panel.newClusterFromHosts();
        auto *dialog = panel.findChild<ui::ClusterFromHostsDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QListWidget *list = dialog->hostList();
        QCOMPARE(list->count(), 3);
        QCOMPARE(list->item(0)->text(), QStringLiteral("gpu-box-1")); // natural order, as the Machines list
        QCOMPARE(list->item(2)->text(), QStringLiteral("gpu-box-10"));
        QVERIFY(!dialog->okButton()->isEnabled());
        QVERIFY(!dialog->hintText().isEmpty());
        const QString name = QStringLiteral("lab-") + language.left(2);
        dialog->setName(name);
        dialog->setChecked(QStringLiteral("gpu-box-2"), true); // ticked first: the head
        dialog->setChecked(QStringLiteral("gpu-box-10"), true);
        QCOMPARE(dialog->hosts(), (QStringList{QStringLiteral("gpu-box-2"), QStringLiteral("gpu-box-10")}));
        QVERIFY(dialog->okButton()->isEnabled());
        QVERIFY2(dialog->hintText().contains(QLatin1String("gpu-box-2")), qPrintable(dialog->hintText()));
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            QTest::qWait(20);
            QVERIFY(dialog->okButton()->width() >= dialog->okButton()->sizeHint().width());
            render(dialog, QStringLiteral("cluster-from-hosts-dialog"), language);
        }

        QSignalSpy created(&panel, &ui::ClustersPanel::clusterCreated);
        dialog->okButton()->click();
        QVERIFY(created.wait(5000));
        QCOMPARE(panel.selectedCluster(), name);
        QCOMPARE(panel.nodeList()->topLevelItemCount(), 2);
        QCOMPARE(panel.nodeList()->topLevelItem(0)->text(1), QStringLiteral("gpu-box-2"));
        QCOMPARE(panel.clusterList()->topLevelItem(0)->text(3), QStringLiteral("$1.50"));
        QVERIFY2(panel.statusText().contains(name) && !panel.statusText().contains(QLatin1String("gantry-cli")),
                 qPrintable(panel.statusText()));
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            QTest::qWait(20);
            render(&panel, QStringLiteral("clusters-from-hosts"), language);
        }
        // On disk as `gantry-cli cluster add` writes it: the rented node keeps its instance.
        cluster::ClusterStore store(m_dir.path());
        QVERIFY(store.load());
        const std::optional<cluster::Cluster> saved = store.find(name);
        QVERIFY(saved);
        QCOMPARE(saved->nodes.first().instanceId, QStringLiteral("sbx-42"));
        QCOMPARE(saved->nodes.first().provider, QStringLiteral("sandbox"));
    }

    void refusalIsShownInTheView()
    {
        QVERIFY(cluster::addClusterOfSavedHosts(m_dir.path(), QStringLiteral("taken"), {QStringLiteral("gpu-box-1")}));
        QVERIFY(!cluster::addClusterOfSavedHosts(m_dir.path(), QStringLiteral("other"), {QStringLiteral("nope")}));
        ui::ClustersPanel panel(m_workspace.get());
        panel.show();
        panel.newClusterFromHosts();
        auto *dialog = panel.findChild<ui::ClusterFromHostsDialog *>();
        QVERIFY(dialog);
        dialog->setName(QStringLiteral("taken"));
        dialog->setChecked(QStringLiteral("gpu-box-1"), true);
        QSignalSpy created(&panel, &ui::ClustersPanel::clusterCreated);
        dialog->okButton()->click();
        QVERIFY(created.wait(5000));
        QVERIFY2(panel.statusText().contains(QLatin1String("exists already")) && !panel.statusText().contains(QLatin1String("gantry-cli")),
                 qPrintable(panel.statusText()));
        QCOMPARE(panel.clusterList()->topLevelItemCount(), 1);
    }
};

QTEST_MAIN(TestUiClusterFromHosts)
#include "test_ui_cluster_fromhosts.moc"
