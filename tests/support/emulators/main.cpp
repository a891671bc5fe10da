// gantry-provider-emulator --provider lambda|runpod|vast|shadeform [--port N] [--key KEY] [--boot-ms N] [--offers N] [--config JSON]
// A local HTTP stand-in for a cloud provider's API, for CLI tests and trying Gantry offline.
#include "lambdaemulator.h"
#include "runpodemulator.h"
#include "shadeformemulator.h"
#include "vastemulator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <memory>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Emulates the Lambda Cloud, RunPod, Vast.ai or Shadeform REST API on 127.0.0.1."));
    parser.addHelpOption();
    const QCommandLineOption provider(QStringLiteral("provider"), QStringLiteral("lambda, runpod, vast or shadeform"), QStringLiteral("name"));
    const QCommandLineOption offers(QStringLiteral("offers"), QStringLiteral("extra synthetic Vast offers"), QStringLiteral("n"), QStringLiteral("0"));
    const QCommandLineOption port(QStringLiteral("port"), QStringLiteral("TCP port (0: any free port)"), QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption key(QStringLiteral("key"), QStringLiteral("accepted API key"), QStringLiteral("key"), QStringLiteral("test-key"));
    const QCommandLineOption bootMs(QStringLiteral("boot-ms"), QStringLiteral("time to become active"), QStringLiteral("ms"), QStringLiteral("1000"));
    const QCommandLineOption config(QStringLiteral("config"), QStringLiteral("provider settings as JSON (as POST /__admin/config)"), QStringLiteral("json"));
    parser.addOptions({provider, port, key, bootMs, offers, config});
    parser.process(app);

    std::unique_ptr<gantry::test::EmulatorServer> server;
    const QString name = parser.value(provider);
    if (name == QLatin1String("lambda")) {
        auto lambda = std::make_unique<gantry::test::LambdaEmulator>();
        lambda->bootMs = parser.value(bootMs).toInt();
        server = std::move(lambda);
    } else if (name == QLatin1String("runpod")) {
        auto runpod = std::make_unique<gantry::test::RunPodEmulator>();
        runpod->bootMs = parser.value(bootMs).toInt();
        server = std::move(runpod);
    } else if (name == QLatin1String("vast")) {
        auto vast = std::make_unique<gantry::test::VastEmulator>();
        vast->bootMs = parser.value(bootMs).toInt();
        vast->addSyntheticOffers(parser.value(offers).toInt());
        server = std::move(vast);
    } else if (name == QLatin1String("shadeform")) {
        auto shadeform = std::make_unique<gantry::test::ShadeformEmulator>();
        shadeform->bootMs = parser.value(bootMs).toInt();
        server = std::move(shadeform);
    } else {
        QTextStream(stderr) << "gantry-provider-emulator: --provider must be lambda, runpod, vast or shadeform\n";
        return 2;
    }
    server->setApiKey(parser.value(key));
    if (parser.isSet(config))
        server->applyConfig(QJsonDocument::fromJson(parser.value(config).toUtf8()).object());
    if (!server->listen(quint16(parser.value(port).toUInt()))) {
        QTextStream(stderr) << "gantry-provider-emulator: cannot listen on port " << parser.value(port) << '\n';
        return 1;
    }
    QTextStream(stdout) << "listening on " << server->baseUrl() << Qt::endl;
    return app.exec();
}
