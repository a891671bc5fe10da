// Writes tests/fixtures/schema-v2/config/cost.sqlite with the ledger as commit 718d071 wrote it
// (PRAGMA user_version 2: currency per row, no storage periods). Kept as the record of how the
// fixture was made; it is not part of the build (built against today's code it would write
// today's version, not version 2).
#include "core/cost/ledger.h"
#include "core/util/clock.h"

#include <QCoreApplication>
#include <QDir>

using namespace gantry;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString dir = app.arguments().value(1);
    if (dir.isEmpty() || QDir(dir).exists()) return 2; // a fresh folder only
    ManualClock clock(QDateTime(QDate(2026, 3, 1), QTime(9, 0), Qt::UTC));
    cost::Ledger ledger(cost::Ledger::defaultPath(dir), clock);
    if (!ledger.open()) return 4;
    ledger.setBillingPolicy(QStringLiteral("runpod"), {1, 0});
    providers::Instance pod;
    pod.provider = QStringLiteral("runpod"); pod.id = QStringLiteral("pod-9"); pod.name = QStringLiteral("finetune");
    pod.typeName = QStringLiteral("NVIDIA A100 80GB PCIe"); pod.region = QStringLiteral("US-KS-2"); pod.volumeGb = 100;
    pod.createdAt = clock.now();
    providers::Instance autodl = pod;
    autodl.provider = QStringLiteral("autodl"); autodl.id = QStringLiteral("west-4090"); autodl.name = QStringLiteral("west-4090");
    autodl.typeName = QString(); autodl.region = QString(); autodl.volumeGb = 0;
    if (!ledger.recordLaunch(pod, 1.19) || !ledger.recordLaunch(autodl, 2.5, QStringLiteral("CNY"))) return 5;
    clock.advanceSeconds(2 * 3600);
    if (!ledger.recordStopped(pod.provider, pod.id)) return 6; // stopped at 11:00 and still stopped
    if (!ledger.setBudget(QStringLiteral("daily"), 10)) return 8;
    return 0;
}
