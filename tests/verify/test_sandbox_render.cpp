// What a newcomer sees on the embedded default: a sandbox instance with a simulated GPU, connected
// for real (its own sshd), in the Overview, Verify and Monitor tabs at 1024×700 and 1440×900. The
// renders are saved under renders/ in the build tree (LANGUAGE=zh_CN renders the Chinese ones).
#include "sshdfixture.h"

#include "core/monitor/monitorservice.h"
#include "ui/monitor/monitortab.h"
#include "core/providers/await.h"
#include "core/providers/gantrykey.h"
#include "core/providers/sandboxprovider.h"
#include "ui/shell/overviewtab.h"
#include "core/ssh/connection.h"
#include "ui/verify/doctormodel.h"
#include "ui/verify/verifytab.h"

#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QTreeWidget>

using namespace gantry;
using namespace gantry::ui;

namespace {

QPushButton *button(QWidget *parent, const QString &text)
{
    for (QPushButton *b : parent->findChildren<QPushButton *>()) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

// Saves tab at both sizes; the language is part of the name.
void render(QWidget &tab, const QString &name)
{
    QDir().mkpath(QStringLiteral("renders"));
    const QString language = qEnvironmentVariable("LANGUAGE").startsWith(QStringLiteral("zh")) ? QStringLiteral("zh_CN")
                                                                                                 : QStringLiteral("en");
    for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
        tab.resize(size);
        QTest::qWait(50); // a layout pass at the new size (no state is waited for)
        const QString file = QStringLiteral("renders/sandbox-%1-%2-%3x%4.png").arg(name, language).arg(size.width()).arg(size.height());
        QVERIFY2(tab.grab().save(file), qPrintable(file));
    }
}

} // namespace

class TestSandboxRender final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config;
    std::unique_ptr<providers::SandboxProvider> m_sandbox;
    providers::Instance m_instance;
    SavedHost m_host;
    ssh::ConnectOptions m_options;
    std::unique_ptr<ssh::Connection> m_connection;

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/sbin/sshd")) || QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            GANTRY_REQUIRE_SSHD(QStringLiteral("openssh-server or python3 is not installed"));
        if (qEnvironmentVariable("LANGUAGE").startsWith(QStringLiteral("zh"))) {
            auto *translator = new QTranslator(this);
            if (translator->load(QStringLiteral(GANTRY_QM_DIR "/gantry_zh_CN.qm")))
                QCoreApplication::installTranslator(translator);
        }
        providers::SandboxOptions options;
        options.bootDelayMs = 100;
        m_sandbox = std::make_unique<providers::SandboxProvider>(m_config.path(), options);
        providers::LaunchRequest request;
        request.typeName = QStringLiteral("gpu_1x_sandbox_training");
        request.region = QStringLiteral("local");
        request.name = QStringLiteral("walk-1");
        const Result<QString> id = providers::await<QString>([&](auto done) { m_sandbox->launch(request, done); });
        QVERIFY2(id, id ? "" : qPrintable(id.error().message));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto instance = providers::await<providers::Instance>([&](auto done) { m_sandbox->getInstance(*id, done); });
                m_instance = instance.valueOr(providers::Instance{});
                return m_instance.state == providers::InstanceState::Running;
            }(),
            20000);
        m_host.name = m_instance.name;
        m_host.target.host = m_instance.sshHost;
        m_host.target.port = m_instance.sshPort;
        m_host.target.user = m_instance.sshUser;
        m_host.target.identityFiles = {providers::gantryKeyPath(m_config.path())};
        m_host.provider = QStringLiteral("sandbox");
        m_host.hourlyPriceUsd = m_instance.pricePerHour;
        m_options.knownHostsFile = m_config.filePath(QStringLiteral("known_hosts"));
        m_options.acceptNewHostKey = true;
        m_connection = std::make_unique<ssh::Connection>(m_host.target);
        m_connection->connectToHost(m_options);
        QTRY_COMPARE_WITH_TIMEOUT(m_connection->state(), ssh::ConnectionState::Connected, 20000);
    }

    void cleanupTestCase()
    {
        m_connection.reset();
        if (m_sandbox && !m_instance.id.isEmpty())
            QVERIFY(providers::await<void>([&](auto done) { m_sandbox->terminate(m_instance.id, done); }));
    }

    void renderOverview()
    {
        OverviewTab tab;
        tab.show();
        tab.setMachine(m_host, m_connection.get());
        auto *tree = tab.findChild<QTreeWidget *>();
        QTRY_VERIFY_WITH_TIMEOUT(tree->topLevelItemCount() > 0, 60000);
        // The facts label the GPU as simulated, in a row of its own.
        QCOMPARE(tree->findItems(OverviewTab::tr("Simulated GPU"), Qt::MatchExactly).size(), 1);
        render(tab, QStringLiteral("overview"));
    }

    void renderVerify()
    {
        AppContext context;
        context.configDir = m_config.path();
        VerifyTab tab(context);
        tab.show();
        tab.setMachine(m_host, m_connection.get());
        QSignalSpy finished(&tab, &VerifyTab::runFinished);
        button(&tab, VerifyTab::tr("Run verification"))->click();
        QVERIFY(finished.wait(120000));
        QVERIFY2(tab.bannerText().contains(QStringLiteral("SIMULATED GPU")) || !qEnvironmentVariableIsEmpty("LANGUAGE"),
                 qPrintable(tab.bannerText()));
        QCOMPARE(tab.doctorModel()->checks().value(0).id, QStringLiteral("simulated-gpu"));
        render(tab, QStringLiteral("verify"));
        // Doctor's wrapped rows re-fit the final width (they kept the height of the first layout,
        // so one row filled the table and the others were scrolled away).
        for (const QTableView *view : tab.findChildren<QTableView *>()) {
            for (int row = 0; row < view->model()->rowCount(); ++row)
                QVERIFY2(view->rowHeight(row) <= 4 * view->fontMetrics().height(), qPrintable(QString::number(view->rowHeight(row))));
        }
    }

    void renderMonitor()
    {
        gantry::monitor::MonitorService service(nullptr, m_options.knownHostsFile);
        ui::monitor::MonitorTab tab(&service);
        tab.show();
        service.startMonitoring(m_host.name, m_host.target, m_options, m_host.hourlyPriceUsd);
        tab.setMachine(m_host, m_connection.get());
        // A few seconds of samples, so the charts have a history (one sample a second).
        QSignalSpy samples(&service, &gantry::monitor::MonitorService::sampleArrived);
        QTRY_VERIFY_WITH_TIMEOUT(samples.size() >= 6, 60000);
        render(tab, QStringLiteral("monitor"));
        service.stopMonitoring(m_host.name);
    }
};

QTEST_MAIN(TestSandboxRender)
#include "test_sandbox_render.moc"
