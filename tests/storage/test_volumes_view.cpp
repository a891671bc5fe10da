// SPDX-License-Identifier: Apache-2.0
// The Storage panel's Volumes page against the RunPod emulator (which follows RunPod's OpenAPI
// document): the list with size, $/month and what it is attached to, the ledger brought in line by
// the listing, Delete that asks first (Cancel keeps it) and closes the ledger row, the model under
// QAbstractItemModelTester, and renders at 1024×700 and 1600×1000.
#include "restconfigfor.h"
#include "runpodemulator.h"
#include "core/cost/ledger.h"
#include "core/providers/providerhub.h"
#include "core/providers/runpodprovider.h"
#include "ui/storage/volumesview.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::ui;

class TestVolumesView final : public QObject
{
    Q_OBJECT

private slots:
    void listDeleteAndTheLedger()
    {
        QTemporaryDir dir;
        test::RunPodEmulator emulator;
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::RunPodProvider>(test::restConfigFor(emulator)));
        cost::Ledger ledger(dir.filePath(QStringLiteral("ledger.sqlite")));
        QVERIFY(ledger.open());
        VolumesView view(&hub, &ledger);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList asked;
        bool answer = false;
        view.setConfirm([&](QWidget *, const QString &, const QString &text) {
            asked << text;
            return answer;
        });
        view.resize(1024, 700);
        view.show();
        QSignalSpy refreshed(&view, &VolumesView::refreshed);
        view.refresh();
        QVERIFY(refreshed.wait(10000));
        QVERIFY(view.model()->rowCount() >= 1);
        const providers::Filesystem first = *view.model()->volume(0);
        const QString perMonth = view.model()->index(0, VolumeTableModel::PerMonth).data().toString();
        QVERIFY2(perMonth.contains(QStringLiteral("/month")), qPrintable(perMonth));
        QVERIFY2(view.statusText().contains(QStringLiteral("a month together")), qPrintable(view.statusText()));
        Result<QList<cost::VolumeEntry>> rows = ledger.volumes();
        QVERIFY(rows);
        QCOMPARE(rows->size(), view.model()->rowCount()); // the listing opened their ledger rows

        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            view.resize(size);
            QCoreApplication::processEvents();
            const QString dirPath = QCoreApplication::applicationDirPath() + QStringLiteral("/renders");
            QDir().mkpath(dirPath);
            QVERIFY(view.grab().save(dirPath + QStringLiteral("/volumes-%1x%2.png").arg(size.width()).arg(size.height())));
        }

        view.view()->selectRow(0);
        QPushButton *deleteButton = nullptr;
        for (QPushButton *b : view.findChildren<QPushButton *>())
            if (b->text().startsWith(QStringLiteral("Delete")))
                deleteButton = b;
        QVERIFY(deleteButton && deleteButton->isEnabled());
        deleteButton->click(); // Cancel: nothing happens
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(first.name), qPrintable(asked.first()));
        QCOMPARE(emulator.networkVolumes.size(), view.model()->rowCount());

        answer = true;
        QSignalSpy deleted(&view, &VolumesView::deleted);
        const int before = view.model()->rowCount();
        view.view()->selectRow(0);
        const QString gone = view.model()->volume(0)->id;
        deleteButton->click();
        QVERIFY(deleted.wait(10000));
        QVERIFY(!emulator.networkVolumes.contains(gone));
        QTRY_COMPARE_WITH_TIMEOUT(view.model()->rowCount(), before - 1, 10000); // listed again after the delete
        rows = ledger.volumes();
        QVERIFY(rows);
        const auto closed = std::find_if(rows->cbegin(), rows->cend(), [&gone](const cost::VolumeEntry &e) { return e.volumeId == gone; });
        QVERIFY(closed != rows->cend() && closed->deletedAt.isValid());
    }
};

QTEST_MAIN(TestVolumesView)
#include "test_volumes_view.moc"
