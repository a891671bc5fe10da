#include "ui/cluster/clusterdialogs.h"
#include "ui/cluster/clusterspanel.h"
#include "core/cluster/connector.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/providerhub.h"
#include "core/providers/sandboxprovider.h"
#include "core/ssh/knownhosts.h"
#include "sshdfixture.h"
#include "core/workspace/workspace.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace gantry;

// The Clusters panel on two real sshd nodes: the list, Check with per-node verdicts, a rank's
// log, the Launch cluster dialog's total price; screenshots at 1024x700 and 1440x900.
class TestUiCluster final : public QObject
{
    Q_OBJECT

    test::SshdFixture m_nodes[2];
    QTemporaryDir m_dir;
    QString m_knownHosts;
    providers::ProviderHub m_hub;
    std::unique_ptr<cost::Ledger> m_ledger;
    std::unique_ptr<HostStore> m_hosts;
    std::unique_ptr<workspace::Workspace> m_workspace;

    // The node's host key fingerprint, as ssh-keygen -lf prints it.
    QString fingerprint(int node) const
    {
        QFile file(m_nodes[node].dir() + QStringLiteral("/host_ed25519.pub"));
        if (!file.open(QIODevice::ReadOnly)) return {};
        return ssh::sha256Fingerprint(QByteArray::fromBase64(file.readAll().simplified().split(' ').value(1)));
    }

    QString shot(QWidget *widget, const QString &name)
    {
        // Beside the test binary (the build tree), for people to look at.
        const QString path = QDir::current().absoluteFilePath(QStringLiteral("screenshots/") + name);
        QDir().mkpath(QFileInfo(path).path());
        widget->grab().save(path);
        return path;
    }

private slots:
    void initTestCase()
    {
        test::SshdFixture::Options options;
        options.systemPythonPackages = true;
        m_hosts = std::make_unique<HostStore>(m_dir.path());
        QVERIFY(m_hosts->load());
        QByteArray known;
        cluster::Cluster c;
        c.name = QStringLiteral("pair");
        for (int i = 0; i < 2; ++i) {
            GANTRY_REQUIRE_SSHD(m_nodes[i].start(options));
            QFile file(m_nodes[i].knownHostsPath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            known += file.readAll();
            SavedHost host{QStringLiteral("node-%1").arg(i), m_nodes[i].target(), 1.25, {}, {}, QStringLiteral("manual")};
            QVERIFY(m_hosts->add(host));
            c.nodes.append(cluster::ClusterNode{host.name, {}, {}, QStringLiteral("127.0.0.1"), {}, {}, 1.25});
        }
        m_knownHosts = m_dir.filePath(QStringLiteral("known_hosts"));
        QFile file(m_knownHosts);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(known);
        file.close();
        cluster::ClusterStore store(m_dir.path());
        QVERIFY(store.load());
        QVERIFY(store.add(c));
        m_hub.addProvider(std::make_unique<providers::SandboxProvider>(m_dir.path()));
        m_ledger = std::make_unique<cost::Ledger>(cost::Ledger::defaultPath(m_dir.path()));
        QVERIFY(m_ledger->open());
        m_workspace = std::make_unique<workspace::Workspace>(m_dir.path(), &m_hub, m_ledger.get(), m_hosts.get());
    }

    void listCheckAndLog()
    {
        ui::ClustersPanel panel(m_workspace.get());
        panel.setKnownHostsFile(m_knownHosts);
        panel.resize(1024, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.clusterList()->topLevelItemCount(), 1);
        QCOMPARE(panel.selectedCluster(), QStringLiteral("pair"));
        QCOMPARE(panel.clusterList()->topLevelItem(0)->text(3), QStringLiteral("$2.50"));
        QCOMPARE(panel.nodeList()->topLevelItemCount(), 2);

        QSignalSpy checked(&panel, &ui::ClustersPanel::checked);
        panel.checkSelected();
        QVERIFY(checked.wait(120000));
        for (int rank = 0; rank < 2; ++rank) {
            QTreeWidgetItem *node = panel.nodeList()->topLevelItem(rank);
            QVERIFY2(node->text(4) == ui::ClustersPanel::tr("OK") || node->text(4) == ui::ClustersPanel::tr("Warning"),
                     qPrintable(panel.statusText() + u' ' + node->text(4)));
            QVERIFY(node->childCount() >= 2); // ssh, nccl-interface, …
        }
        // The verdict column is wide enough to read (resized to its contents).
        const QTreeWidget *nodes = panel.nodeList();
        QVERIFY(nodes->columnWidth(4) >= nodes->fontMetrics().horizontalAdvance(nodes->topLevelItem(0)->text(4)));
        shot(&panel, QStringLiteral("clusters-1024x700.png"));
        panel.resize(1440, 900);
        QTest::qWait(0);
        shot(&panel, QStringLiteral("clusters-1440x900.png"));

        // A job started through core/cluster (what the panel's Torchrun… and gantry-cli cluster
        // run call) is the cluster's last job, and shows in the rank's log.
        cluster::ClusterStore store(m_dir.path());
        QVERIFY(store.load());
        const cluster::Cluster c = *store.find(QStringLiteral("pair"));
        cluster::RunSpec spec;
        spec.jobName = QStringLiteral("hello-%1").arg(QDateTime::currentMSecsSinceEpoch()); // the nodes share this machine's home
        ssh::ConnectOptions options;
        options.knownHostsFile = m_knownHosts;
        const cluster::ClusterJobStart started = cluster::startClusterJob(
            m_dir.path(), c, spec, QStringLiteral("run"), cluster::savedHostConnector(m_dir.path(), options),
            [](int, int) { return QStringLiteral("echo rank=$NODE_RANK of $NNODES"); });
        QVERIFY(started.everywhere);
        QVERIFY2(started.warnings.isEmpty(), qPrintable(started.warnings.join(QLatin1Char('\n'))));
        QVERIFY(store.load());
        QCOMPARE(store.find(QStringLiteral("pair"))->lastJob->name, spec.jobName);
        panel.reload();
        panel.findChild<QComboBox *>()->setCurrentIndex(1);
        QSignalSpy shown(&panel, &ui::ClustersPanel::logShown);
        QTRY_VERIFY_WITH_TIMEOUT((panel.showLog(), shown.wait(20000) && panel.logText().contains(QStringLiteral("rank=1 of 2"))), 30000);
    }

    // Rank 1 fails while rank 0 would wait for it: Job status shows both ranks, and "Stop the
    // other ranks" (confirmed) stops rank 0, after which nothing is left to stop.
    void failedRankOffersToStopTheOthers()
    {
        cluster::ClusterStore store(m_dir.path());
        QVERIFY(store.load());
        cluster::Cluster c = *store.find(QStringLiteral("pair"));
        cluster::RunSpec spec;
        spec.jobName = QStringLiteral("flaky-%1").arg(QDateTime::currentMSecsSinceEpoch());
        ssh::ConnectOptions options;
        options.knownHostsFile = m_knownHosts;
        const cluster::NodeConnector connect = cluster::savedHostConnector(m_dir.path(), options);
        const auto started = cluster::startOnAllRanks(c, spec, connect, [](int, int) {
            return QStringLiteral("if [ \"$NODE_RANK\" = 1 ]; then exit 3; fi; exec sleep 300");
        });
        QVERIFY(started.size() == 2 && started[0].started && started[1].started);
        const auto cleanup = qScopeGuard([&] { cluster::stopAllRanks(c, spec.jobName, connect, {}); });
        c.lastJob = cluster::ClusterJob{spec.jobName, QStringLiteral("run"), QDateTime::currentDateTimeUtc(), spec.masterPort};
        QVERIFY(store.update(c));

        ui::ClustersPanel panel(m_workspace.get());
        panel.setKnownHostsFile(m_knownHosts);
        QStringList questions;
        panel.setConfirm([&](const QString &question) { questions << question; return true; });
        panel.resize(1024, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!panel.stopOthersButton()->isEnabled());
        QSignalSpy shown(&panel, &ui::ClustersPanel::jobStatusShown);
        QTRY_VERIFY_WITH_TIMEOUT((panel.refreshJobStatus(), shown.wait(20000) && panel.stopOthersButton()->isEnabled()), 60000);
        QTreeWidget *nodes = panel.nodeList();
        QCOMPARE(nodes->topLevelItem(0)->text(6), QStringLiteral("running"));
        QVERIFY2(nodes->topLevelItem(1)->text(6).contains(QStringLiteral("exited 3")), qPrintable(nodes->topLevelItem(1)->text(6)));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Stop them")), qPrintable(panel.statusText()));
        // The Job column is readable, not elided.
        QVERIFY(nodes->columnWidth(6) >= nodes->fontMetrics().horizontalAdvance(nodes->topLevelItem(1)->text(6)));
        shot(&panel, QStringLiteral("clusters-failed-rank-1024x700.png"));
        panel.resize(1440, 900);
        QTest::qWait(0);
        shot(&panel, QStringLiteral("clusters-failed-rank-1440x900.png"));

        QSignalSpy stopped(&panel, &ui::ClustersPanel::ranksStopped);
        panel.stopOtherRanks();
        QCOMPARE(questions.size(), 1);
        QVERIFY(questions.first().contains(spec.jobName));
        QVERIFY(stopped.wait(60000));
        QVERIFY2(nodes->topLevelItem(0)->text(6).startsWith(QStringLiteral("killed")), qPrintable(nodes->topLevelItem(0)->text(6)));
        QVERIFY(!panel.stopOthersButton()->isEnabled());
    }

    // Freshly launched nodes: Check asks once, listing every node's fingerprint; declined, nothing
    // runs and nothing is recorded; trusted, both keys are recorded and the check gets past SSH.
    void freshNodesAreTrustedTogether()
    {
        const QString fresh = m_dir.filePath(QStringLiteral("fresh_known_hosts"));
        ui::ClustersPanel panel(m_workspace.get());
        panel.setKnownHostsFile(fresh);
        QStringList questions;
        bool trust = false;
        panel.setConfirm([&](const QString &question) { questions << question; return trust; });
        panel.resize(1024, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.checkSelected();
        QTRY_COMPARE_WITH_TIMEOUT(questions.size(), 1, 30000);
        for (int node = 0; node < 2; ++node) {
            QVERIFY2(questions.first().contains(fingerprint(node)), qPrintable(questions.first()));
            QVERIFY(questions.first().contains(QStringLiteral("node-%1").arg(node)));
        }
        QTRY_VERIFY(panel.statusText().contains(QStringLiteral("not trusted")));
        QVERIFY(!QFileInfo(fresh).exists() || QFileInfo(fresh).size() == 0);

        trust = true;
        // What the question looks like (askDestructive's box: Yes, and Cancel as the default).
        panel.setConfirm([&](const QString &question) {
            questions << question;
            QMessageBox box(QMessageBox::Question, ui::ClustersPanel::tr("Clusters"), question, QMessageBox::Yes | QMessageBox::Cancel, &panel);
            box.setDefaultButton(QMessageBox::Cancel);
            box.show();
            shot(&box, QStringLiteral("clusters-trust-question.png"));
            return trust;
        });
        QSignalSpy checked(&panel, &ui::ClustersPanel::checked);
        panel.checkSelected();
        QVERIFY(checked.wait(120000));
        QCOMPARE(questions.size(), 2); // one question for the whole cluster
        for (int node = 0; node < 2; ++node)
            QCOMPARE(ssh::findKnownHost(fresh, QStringLiteral("127.0.0.1"), m_nodes[node].target().port).fingerprint, fingerprint(node));
        QVERIFY2(!panel.statusText().contains(QStringLiteral("not known yet")), qPrintable(panel.statusText()));
        for (int rank = 0; rank < 2; ++rank)
            QVERIFY2(panel.nodeList()->topLevelItem(rank)->text(4) != ui::ClustersPanel::tr("Failed"), qPrintable(panel.statusText()));
        cluster::ClusterStore store(m_dir.path());
        QVERIFY(store.load());
        ssh::ConnectOptions options;
        options.knownHostsFile = fresh;
        QVERIFY(cluster::unknownHostKeys(*store.find(QStringLiteral("pair")), m_dir.path(), options).isEmpty());
        shot(&panel, QStringLiteral("clusters-trusted-1024x700.png"));
        panel.resize(1600, 1000);
        QTest::qWait(0);
        shot(&panel, QStringLiteral("clusters-trusted-1600x1000.png"));
    }

    // A node that cannot be reached: its whole error is in the status line (the table cuts it off).
    void failuresAreShownWhole()
    {
        SavedHost gone{QStringLiteral("gone"), ssh::Target{}, 0, {}, {}, QStringLiteral("manual")};
        gone.target.host = QStringLiteral("127.0.0.1");
        gone.target.port = 1; // nothing listens there
        gone.target.user = m_nodes[0].target().user;
        QVERIFY(m_hosts->add(gone));
        cluster::Cluster c;
        c.name = QStringLiteral("half");
        c.nodes.append(cluster::ClusterNode{QStringLiteral("node-0"), {}, {}, QStringLiteral("127.0.0.1"), {}, {}, 1.25});
        c.nodes.append(cluster::ClusterNode{QStringLiteral("gone"), {}, {}, QStringLiteral("127.0.0.1"), {}, {}, 0});
        cluster::ClusterStore store(m_dir.path());
        QVERIFY(store.load());
        QVERIFY(store.add(c));
        ui::ClustersPanel panel(m_workspace.get());
        panel.setKnownHostsFile(m_knownHosts);
        panel.setConfirm([](const QString &) { return true; });
        panel.resize(1024, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.selectCluster(QStringLiteral("half"));
        QSignalSpy checked(&panel, &ui::ClustersPanel::checked);
        panel.checkSelected();
        QVERIFY(checked.wait(60000));
        QTreeWidgetItem *rank1 = panel.nodeList()->topLevelItem(1);
        QCOMPARE(rank1->text(4), ui::ClustersPanel::tr("Failed"));
        const QString message = rank1->child(0)->text(3);
        QVERIFY2(message.startsWith(QStringLiteral("rank 1 (gone)")), qPrintable(message));
        QVERIFY2(panel.statusText().contains(message), qPrintable(panel.statusText()));
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            QTest::qWait(0);
            // The status line is as tall as its wrapped lines: nothing cut off.
            for (QLabel *label : panel.findChildren<QLabel *>()) {
                if (label->text() == panel.statusText())
                    QVERIFY2(label->height() >= label->heightForWidth(label->width()), qPrintable(QStringLiteral("%1 < %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
            }
            shot(&panel, QStringLiteral("clusters-unreachable-%1x%2.png").arg(size.width()).arg(size.height()));
        }
        QVERIFY(store.load());
        QVERIFY(store.remove(QStringLiteral("half")));
        QVERIFY(m_hosts->remove(QStringLiteral("gone")));
    }

    // A key the node's provider made itself (the sandbox's sshd) is trusted without a question.
    void vouchedKeysNeedNoQuestion()
    {
        const QString empty = m_dir.filePath(QStringLiteral("vouched_known_hosts"));
        for (int node = 0; node < 2; ++node) {
            SavedHost host = *m_hosts->find(QStringLiteral("node-%1").arg(node));
            host.hostKeyFingerprint = fingerprint(node);
            QVERIFY(m_hosts->update(host));
        }
        const auto restore = qScopeGuard([&] {
            for (int node = 0; node < 2; ++node) {
                SavedHost host = *m_hosts->find(QStringLiteral("node-%1").arg(node));
                host.hostKeyFingerprint.clear();
                (void)m_hosts->update(host);
            }
        });
        ssh::ConnectOptions options;
        options.knownHostsFile = empty;
        cluster::ClusterStore store(m_dir.path());
        QVERIFY(store.load());
        const cluster::Cluster c = *store.find(QStringLiteral("pair"));
        QVERIFY(cluster::unknownHostKeys(c, m_dir.path(), options).isEmpty());
        const cluster::NodeConnector connect = cluster::savedHostConnector(m_dir.path(), options);
        for (int rank = 0; rank < 2; ++rank) {
            Result<std::unique_ptr<ssh::Session>> session = connect(c.nodes.at(rank), rank);
            QVERIFY2(session, qPrintable(session ? QString() : session.error().message));
        }
        // A key that is not the vouched one is still refused.
        SavedHost wrong = *m_hosts->find(QStringLiteral("node-1"));
        wrong.hostKeyFingerprint = fingerprint(0);
        QVERIFY(m_hosts->update(wrong));
        QFile::remove(empty);
        Result<std::unique_ptr<ssh::Session>> refused = connect(c.nodes.at(1), 1);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::HostKeyUnknown);
    }

    void launchDialogTotalsThePrice()
    {
        ui::ClusterLaunchDialog dialog(&m_hub);
        QSignalSpy loaded(&dialog, &ui::ClusterLaunchDialog::typesLoaded);
        QSignalSpy keys(&dialog, &ui::ClusterLaunchDialog::keysLoaded);
        dialog.resize(520, 320);
        dialog.show();
        QVERIFY(loaded.wait(10000));
        dialog.setNodes(4);
        QVERIFY2(dialog.estimateText().startsWith(QStringLiteral("4 node")), qPrintable(dialog.estimateText()));
        QCOMPARE(dialog.request().nodes, 4);
        QCOMPARE(dialog.request().provider, QStringLiteral("sandbox"));
        QVERIFY(dialog.request().wait);
        // The key is chosen from the account's keys as the Launch dialog chooses it; another name may be typed.
        auto *key = dialog.findChild<QComboBox *>(QStringLiteral("sshKey"));
        QVERIFY(key && key->isEditable());
        QVERIFY(keys.count() > 0 || keys.wait(10000));
        if (key->currentIndex() >= 0)
            QCOMPARE(dialog.request().base.sshKeyName, key->currentData().toString());
        key->setEditText(QStringLiteral("team-key"));
        QCOMPARE(dialog.request().base.sshKeyName, QStringLiteral("team-key"));
        shot(&dialog, QStringLiteral("cluster-launch-dialog.png"));
    }

    void torchrunDialogSpec()
    {
        cluster::Cluster c;
        c.name = QStringLiteral("pair");
        c.nodes.resize(2);
        ui::TorchrunDialog dialog(c);
        QVERIFY(!dialog.spec()); // no script yet
        dialog.setScript(QStringLiteral("train.py"), QStringLiteral("--lr 3e-4 \"a b\""));
        Result<cluster::TorchrunSpec> spec = dialog.spec();
        QVERIFY(spec);
        QCOMPARE(spec->run.command, (QStringList{QStringLiteral("train.py"), QStringLiteral("--lr"), QStringLiteral("3e-4"), QStringLiteral("a b")}));
        QCOMPARE(spec->nprocPerNode, 0); // auto: the GPU count
        dialog.resize(520, 300);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        shot(&dialog, QStringLiteral("cluster-torchrun-dialog.png"));
    }
};

QTEST_MAIN(TestUiCluster)
#include "test_ui_cluster.moc"
