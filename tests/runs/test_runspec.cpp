// SPDX-License-Identifier: Apache-2.0
#include "core/providers/providerhub.h"
#include "core/providers/sandboxprovider.h"
#include "core/runs/offers.h"
#include "core/runs/runspec.h"
#include "core/runs/runstate.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::runs;

// The run spec as the issue writes it, what a mistake in it says, the offers a spec picks among
// the sandbox's types, and the `run show --json` object.
class TestRunSpec final : public QObject
{
    Q_OBJECT

    static QByteArray issueExample()
    {
        return "name: llama-ft\n"
               "resources: {providers: [vast, runpod, lambda, shadeform], gpu: H100, count: 1, max_price_per_hour: 3.5, spot: true}\n"
               "workdir: .                       # synced with the sync engine\n"
               "setup: pip install -r requirements.txt\n"
               "run: python train.py --resume-from \"$GANTRY_CHECKPOINT_DIR\"\n"
               "checkpoint: {path: checkpoints/, every: 5m}\n"
               "results: [outputs/]\n"
               "env: {WANDB_PROJECT: ft}\n"
               "secrets: [HF_TOKEN]\n"
               "max_attempts: 6\n"
               "max_preemptions: 20\n"
               "max_cost: 40\n";
    }

    static QString errorOf(const QByteArray &yaml)
    {
        Result<RunSpec> spec = parseRunSpec(yaml, QStringLiteral("train.yaml"));
        return spec ? QString() : spec.error().message;
    }

private slots:
    void readsEveryFieldOfTheIssuesExample()
    {
        Result<RunSpec> spec = parseRunSpec(issueExample(), QStringLiteral("train.yaml"), QStringLiteral("/home/u/ft"));
        QVERIFY2(spec, qPrintable(spec ? QString() : spec.error().message));
        QCOMPARE(spec->version, 1);
        QCOMPARE(spec->name, QStringLiteral("llama-ft"));
        QCOMPARE(spec->resources.providers, (QStringList{QStringLiteral("vast"), QStringLiteral("runpod"), QStringLiteral("lambda"), QStringLiteral("shadeform")}));
        QCOMPARE(spec->resources.gpu, QStringLiteral("H100"));
        QCOMPARE(spec->resources.count, 1);
        QCOMPARE(spec->resources.maxPricePerHour, 3.5);
        QVERIFY(spec->resources.spot);
        QCOMPARE(spec->localWorkdir(), QStringLiteral("/home/u/ft"));
        QCOMPARE(spec->setup, QStringLiteral("pip install -r requirements.txt"));
        QCOMPARE(spec->run, QStringLiteral("python train.py --resume-from \"$GANTRY_CHECKPOINT_DIR\""));
        QCOMPARE(spec->checkpointPath, QStringLiteral("checkpoints/"));
        QCOMPARE(spec->checkpointEverySeconds, 300);
        QCOMPARE(spec->results, QStringList{QStringLiteral("outputs/")});
        QCOMPARE(spec->env.size(), 1);
        QCOMPARE(spec->env.first().first, QStringLiteral("WANDB_PROJECT"));
        QCOMPARE(spec->env.first().second, QStringLiteral("ft"));
        QCOMPARE(spec->secrets, QStringList{QStringLiteral("HF_TOKEN")});
        QCOMPARE(spec->maxAttempts, 6);
        QCOMPARE(spec->maxPreemptions, 20);
        QCOMPARE(spec->maxCost, 40.0);
        QCOMPARE(spec->retry, RetryPolicy::OnFailure);
    }

    void durations()
    {
        QCOMPARE(*parseDuration(QStringLiteral("30s")), 30);
        QCOMPARE(*parseDuration(QStringLiteral("5m")), 300);
        QCOMPARE(*parseDuration(QStringLiteral("1h")), 3600);
        QCOMPARE(*parseDuration(QStringLiteral("90")), 90);
        QVERIFY(!parseDuration(QStringLiteral("5 minutes")));
        QVERIFY(!parseDuration(QStringLiteral("0s")));
    }

    // Each mistake names the field, its line and what to write instead.
    void errorsNameTheFieldTheLineAndTheNextStep()
    {
        QString e = errorOf("name: x\nresources: {gpu: H100}\n");
        QVERIFY2(e.contains(QLatin1String("run")) && e.contains(QLatin1String("required")), qPrintable(e));
        e = errorOf("name: x\nrun: python t.py\nresources:\n  gpu: H1000\n");
        QVERIFY2(e.contains(QLatin1String("train.yaml line 4")) && e.contains(QLatin1String("resources.gpu"))
                     && e.contains(QLatin1String("H100, A100")), qPrintable(e));
        e = errorOf("name: x\nrun: t\nresources: {gpu: any}\ncheckpoint: {path: c/, every: soon}\n");
        QVERIFY2(e.contains(QLatin1String("line 4")) && e.contains(QLatin1String("checkpoint.every")) && e.contains(QLatin1String("30s, 5m or 1h")),
                 qPrintable(e));
        e = errorOf("name: x\nrun: t\nresources: {providers: [aws]}\n");
        QVERIFY2(e.contains(QLatin1String("resources.providers")) && e.contains(QLatin1String("lambda")), qPrintable(e));
        e = errorOf("name: x\nrun: t\nresources: {}\nmax_atempts: 3\n");
        QVERIFY2(e.contains(QLatin1String("line 4")) && e.contains(QLatin1String("max_atempts")) && e.contains(QLatin1String("max_attempts")),
                 qPrintable(e));
        e = errorOf("version: 2\nname: x\nrun: t\nresources: {}\n");
        QVERIFY2(e.contains(QLatin1String("version")) && e.contains(QLatin1String("update Gantry")), qPrintable(e));
        e = errorOf("name: ../x\nrun: t\nresources: {}\n");
        QVERIFY2(e.contains(QLatin1String("name")), qPrintable(e));
        e = errorOf("name: x\nrun: t\nresources: {spot: maybe}\n");
        QVERIFY2(e.contains(QLatin1String("resources.spot")) && e.contains(QLatin1String("true or false")), qPrintable(e));
        e = errorOf("name: [x\n");
        QVERIFY2(e.contains(QLatin1String("not valid YAML")), qPrintable(e));
        e = errorOf("name: x\nrun: t\nresources: {}\ncheckpoint: {path: /abs}\n");
        QVERIFY2(e.contains(QLatin1String("checkpoint.path")), qPrintable(e));
        QVERIFY(errorOf("name: x\nrun: t\nresources: {}\nretry: never\n").isEmpty());
    }

    // The sandbox's spot variants are what a spot spec picks, cheapest first; on demand never.
    void offersFollowTheSpec()
    {
        QTemporaryDir dir;
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::SandboxProvider>(dir.path()));
        const QList<providers::InstanceType> types = providers::SandboxProvider::instanceTypes();
        Result<RunSpec> spec = parseRunSpec("name: t\nrun: x\nresources: {gpu: H100, spot: true}\n", QStringLiteral("t.yaml"));
        QVERIFY(spec);
        QList<RunOffer> offers = fittingOffers(*spec, types, hub);
        QCOMPARE(offers.size(), 2);
        QCOMPARE(offers.first().type.name, QStringLiteral("gpu_1x_sandbox_spot"));
        QVERIFY(offers.first().pricePerHour < offers.last().pricePerHour);
        QVERIFY(offers.first().pricePerHour < 0.5 * 0.5); // a spot price, cheaper than half the on-demand one
        spec->resources.spot = false;
        offers = fittingOffers(*spec, types, hub);
        QCOMPARE(offers.first().type.name, QStringLiteral("gpu_1x_sandbox"));
        spec->resources.maxPricePerHour = 0.4;
        QVERIFY(fittingOffers(*spec, types, hub).isEmpty());
        spec->resources.maxPricePerHour = 0;
        spec->resources.providers = QStringList{QStringLiteral("lambda")};
        QVERIFY(fittingOffers(*spec, types, hub).isEmpty());
        spec->resources.providers.clear();

        // A marketplace machine that failed its acceptance test here is never picked again.
        QList<providers::InstanceType> market = types;
        for (int i = 0; i < market.size(); ++i)
            market[i].machineId = QStringLiteral("m%1").arg(i);
        const QString cheapest = fittingOffers(*spec, market, hub).first().type.machineId;
        const QList<RunOffer> left = fittingOffers(*spec, market, hub, {}, [&](const QString &provider, const QString &machine) {
            return provider == QLatin1String("sandbox") && machine == cheapest;
        });
        QVERIFY(!left.isEmpty());
        QVERIFY(std::none_of(left.cbegin(), left.cend(), [&](const RunOffer &o) { return o.type.machineId == cheapest; }));
    }

    // Multi-node and bucket fields: read as written, refused with the field's name when wrong.
    void nodesAndStore()
    {
        Result<RunSpec> spec = parseRunSpec("name: t\nrun: x\nresources: {nodes: 2, master_port: 29611}\n"
                                            "checkpoint: {path: ckpt, store: s3://data/runs/t}\n", QStringLiteral("t.yaml"));
        QVERIFY2(spec, qPrintable(spec ? QString() : spec.error().message));
        QCOMPARE(spec->resources.nodes, 2);
        QCOMPARE(spec->resources.masterPort, 29611);
        QCOMPARE(spec->checkpointStore, QStringLiteral("s3://data/runs/t"));
        Result<RunSpec> bad = parseRunSpec("name: t\nrun: x\nresources: {}\ncheckpoint: {path: ckpt, store: /tmp/x}\n", QStringLiteral("t.yaml"));
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.contains(QLatin1String("checkpoint.store")) && bad.error().message.contains(QLatin1String("s3://")),
                 qPrintable(bad.error().message));
        QVERIFY(!parseRunSpec("name: t\nrun: x\nresources: {nodes: 0}\n", QStringLiteral("t.yaml")));
    }

    void showJsonIsTheIssuesObject()
    {
        RunRecord record;
        record.name = QStringLiteral("t");
        record.state = RunState::Running;
        const QDateTime t0(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
        record.attempts.append(RunAttempt{QStringLiteral("sandbox"), QStringLiteral("a1"), QStringLiteral("gpu_1x_sandbox_spot"), 1.0, t0,
                                          t0.addSecs(1800), QStringLiteral("preempted"), {}, true, 0, {}});
        record.attempts.append(RunAttempt{QStringLiteral("sandbox"), QStringLiteral("a2"), QStringLiteral("gpu_1x_sandbox_spot"), 2.0,
                                          t0.addSecs(1800), {}, {}, {}, true, 0, {}});
        record.checkpointPath = QStringLiteral("/home/u/Gantry runs/t/checkpoints");
        record.checkpointAt = t0.addSecs(3000);
        const QJsonObject json = record.toJson(t0.addSecs(3600));
        QCOMPARE(json.keys(), (QStringList{QStringLiteral("attempts"), QStringLiteral("checkpoint"), QStringLiteral("cost_so_far"),
                                           QStringLiteral("energy_kwh"), QStringLiteral("name"), QStringLiteral("state"),
                                           QStringLiteral("underused_usd")}));
        // No power reading came: unknown, not 0.
        QVERIFY(json.value(QLatin1String("energy_kwh")).isNull() && json.value(QLatin1String("underused_usd")).isNull());
        QCOMPARE(json.value(QLatin1String("state")).toString(), QStringLiteral("running"));
        QCOMPARE(json.value(QLatin1String("cost_so_far")).toDouble(), 1.5);
        const QJsonObject first = json.value(QLatin1String("attempts")).toArray().at(0).toObject();
        QCOMPARE(first.keys(), (QStringList{QStringLiteral("cost"), QStringLiteral("end_reason"), QStringLiteral("ended"),
                                            QStringLiteral("energy_kwh"), QStringLiteral("instance"), QStringLiteral("metered_seconds"),
                                            QStringLiteral("observed_seconds"), QStringLiteral("price_per_hour"), QStringLiteral("provider"), QStringLiteral("rank"),
                                            QStringLiteral("started"), QStringLiteral("type"), QStringLiteral("underused_usd")}));
        QCOMPARE(first.value(QLatin1String("end_reason")).toString(), QStringLiteral("preempted"));
        QCOMPARE(first.value(QLatin1String("cost")).toDouble(), 0.5);
        QVERIFY(json.value(QLatin1String("attempts")).toArray().at(1).toObject().value(QLatin1String("ended")).isNull());
        QCOMPARE(json.value(QLatin1String("checkpoint")).toObject().value(QLatin1String("age_seconds")).toDouble(), 600.0);
        // run.json keeps it all, for another process.
        const RunRecord back = RunRecord::fromStoreJson(record.toStoreJson());
        QCOMPARE(back.toJson(t0.addSecs(3600)), json);
        // Each machine's usage, and the run's as their sum.
        record.attempts[0].usage = AttemptUsage{1.25, 0.5, 1800, 1800};
        record.attempts[1].usage = AttemptUsage{0.75, 0, 1200, 0}; // power, but no utilization or price there
        const QJsonObject used = RunRecord::fromStoreJson(record.toStoreJson()).toJson(t0.addSecs(3600));
        QCOMPARE(used.value(QLatin1String("energy_kwh")).toDouble(), 2.0);
        QCOMPARE(used.value(QLatin1String("underused_usd")).toDouble(), 0.5);
        QCOMPARE(used.value(QLatin1String("attempts")).toArray().at(1).toObject().value(QLatin1String("energy_kwh")).toDouble(), 0.75);
        QVERIFY(used.value(QLatin1String("attempts")).toArray().at(1).toObject().value(QLatin1String("underused_usd")).isNull());
    }
};

QTEST_GUILESS_MAIN(TestRunSpec)
#include "test_runspec.moc"
