// SPDX-License-Identifier: Apache-2.0
// The Runs panel's models under QAbstractItemModelTester: rows kept by name across refreshes, what
// each column says, and raw values for sorting.
#include "ui/runs/runattemptsmodel.h"
#include "ui/runs/runlistmodel.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace gantry;
using namespace gantry::ui;

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 12, 5), QTime(12, 0), Qt::UTC);

runs::RunAttempt attempt(int startedMinutesAgo, int endedMinutesAgo, const QString &reason, double price)
{
    runs::RunAttempt a;
    a.provider = QStringLiteral("sandbox");
    a.instance = QStringLiteral("sbx-%1").arg(startedMinutesAgo);
    a.type = QStringLiteral("gpu_1x_sandbox_spot");
    a.pricePerHour = price;
    a.started = kNow.addSecs(-60 * startedMinutesAgo);
    if (endedMinutesAgo >= 0)
        a.ended = kNow.addSecs(-60 * endedMinutesAgo);
    a.endReason = reason;
    a.spot = true;
    return a;
}

runs::RunRecord record(const QString &name, runs::RunState state, QList<runs::RunAttempt> attempts)
{
    runs::RunRecord r;
    r.name = name;
    r.state = state;
    r.attempts = std::move(attempts);
    r.ownerPid = QCoreApplication::applicationPid(); // driven by a live process
    r.checkpointPath = QStringLiteral("/home/u/Gantry runs/%1/checkpoints").arg(name);
    return r;
}

} // namespace

class TestRunsModel final : public QObject
{
    Q_OBJECT

private slots:
    void listKeepsRowsByNameAndSortsByValue()
    {
        RunListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        runs::RunRecord ft = record(QStringLiteral("llama-ft"), runs::RunState::Running,
                                    {attempt(120, 60, QStringLiteral("preempted"), 1.0), attempt(60, -1, QString(), 2.0)});
        ft.checkpointAt = kNow.addSecs(-125);
        runs::RunRecord small = record(QStringLiteral("tiny"), runs::RunState::Succeeded, {attempt(10, 5, QStringLiteral("succeeded"), 0.5)});
        small.checkpointPath.clear();
        model.setRecords({ft, small}, kNow);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(RunListModel::ColumnCount));

        const int row = model.rowOf(QStringLiteral("llama-ft"));
        QCOMPARE(model.index(row, RunListModel::StateColumn).data().toString(), QStringLiteral("running"));
        QCOMPARE(model.index(row, RunListModel::AttemptsColumn).data().toInt(), 2);
        // One hour at $1 and one at $2.
        QCOMPARE(model.index(row, RunListModel::CostColumn).data().toString(), QStringLiteral("$3.00"));
        QCOMPARE(model.index(row, RunListModel::CostColumn).data(RunListModel::UnderlyingDataRole).toDouble(), 3.0);
        QCOMPARE(model.index(row, RunListModel::CheckpointColumn).data().toString(), QStringLiteral("2 min"));
        const int tiny = model.rowOf(QStringLiteral("tiny"));
        QCOMPARE(model.index(tiny, RunListModel::CheckpointColumn).data().toString(), QStringLiteral("no checkpoint"));
        QCOMPARE(model.index(tiny, RunListModel::StateColumn).data().toString(), QStringLiteral("succeeded"));

        // Sorted by cost as a number, not as text ("$0.0417" < "$3.00").
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(RunListModel::UnderlyingDataRole);
        proxy.sort(RunListModel::CostColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data(RunListModel::NameRole).toString(), QStringLiteral("llama-ft"));

        // A refresh: one run gone, one new, one changed; the changed one keeps its row.
        ft.state = runs::RunState::Recovering;
        runs::RunRecord next = record(QStringLiteral("next"), runs::RunState::Launching, {});
        model.setRecords({ft, next}, kNow);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(QStringLiteral("llama-ft")), row);
        QCOMPARE(model.rowOf(QStringLiteral("tiny")), -1);
        QCOMPARE(model.index(row, RunListModel::StateColumn).data().toString(), QStringLiteral("recovering"));
        QCOMPARE(model.index(model.rowOf(QStringLiteral("next")), RunListModel::CheckpointColumn).data().toString(), QStringLiteral("none yet"));

        // A run nobody drives any more says so.
        next.ownerPid = 0;
        model.setRecords({next}, kNow);
        QVERIFY(model.index(0, RunListModel::StateColumn).data().toString().contains(QLatin1String("no process drives it")));
        model.setRecords({}, kNow);
        QCOMPARE(model.rowCount(), 0);
    }

    void attemptsSayWhyEachEnded()
    {
        RunAttemptsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAttempts({attempt(90, 60, QStringLiteral("outbid"), 1.2), attempt(60, 30, QStringLiteral("unreachable"), 1.5),
                           attempt(30, -1, QString(), 2.0)}, kNow);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, RunAttemptsModel::ReasonColumn).data().toString(), QStringLiteral("outbid"));
        QCOMPARE(model.index(1, RunAttemptsModel::ReasonColumn).data().toString(), QStringLiteral("unreachable"));
        QCOMPARE(model.index(2, RunAttemptsModel::ReasonColumn).data().toString(), QStringLiteral("running"));
        QCOMPARE(model.index(2, RunAttemptsModel::EndedColumn).data().toString(), QStringLiteral("—"));
        QCOMPARE(model.index(0, RunAttemptsModel::PriceColumn).data().toString(), QStringLiteral("$1.200/h"));
        QCOMPARE(model.index(0, RunAttemptsModel::CostColumn).data().toString(), QStringLiteral("$0.6000"));
        QCOMPARE(model.index(2, RunAttemptsModel::CostColumn).data(RunAttemptsModel::UnderlyingDataRole).toDouble(), 1.0);
        QVERIFY(model.index(0, RunAttemptsModel::MachineColumn).data().toString().contains(QLatin1String("sbx-90")));
        // The same attempts, the last one ended: rows change in place.
        model.setAttempts({attempt(90, 60, QStringLiteral("outbid"), 1.2), attempt(60, 30, QStringLiteral("unreachable"), 1.5),
                           attempt(30, 0, QStringLiteral("succeeded"), 2.0)}, kNow);
        QCOMPARE(model.index(2, RunAttemptsModel::ReasonColumn).data().toString(), QStringLiteral("succeeded"));
        model.setAttempts({}, kNow);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestRunsModel)
#include "test_runs_model.moc"
