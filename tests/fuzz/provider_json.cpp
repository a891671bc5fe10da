// Provider API bodies (Lambda, RunPod, Vast.ai, Shadeform) as the parsers see them, then what Gantry derives from an
// instance: its saved host and the ssh_config entry written for it.
#include "fuzzinput.h"
#include "core/providers/httpclient.h"
#include "core/providers/instancehosts.h"
#include "core/providers/lambdaprovider.h"
#include "core/providers/gpumodels.h"
#include "core/providers/launchtypes.h"
#include "core/providers/pricegroups.h"
#include "core/providers/runpodprovider.h"
#include "core/providers/shadeformprovider.h"
#include "core/providers/vastprovider.h"
#include "core/sshconfig/managedblock.h"
#include "core/sshconfig/sshconfigfile.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace gantry::providers;

namespace {
void instance(const Instance &parsed)
{
    const gantry::SavedHost host = savedHostFor(parsed, QStringLiteral("/nonexistent/gantry-fuzz"));
    (void)gantry::sshconfig::renderBlock({gantry::sshconfig::entryFor(host)});
}

void objects(const QJsonValue &value)
{
    const QJsonArray array = value.isArray() ? value.toArray() : QJsonArray{value};
    for (const QJsonValue &item : array) {
        instance(LambdaProvider::parseInstance(item.toObject()));
        instance(RunPodProvider::parsePod(item.toObject()));
        instance(VastProvider::parseInstance(item.toObject()));
        instance(ShadeformProvider::parseInstance(item.toObject()));
        (void)ShadeformProvider::dollars(item.toObject().value(QStringLiteral("cost_estimate")));
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body = gantry::fuzz::bytes(data, size);
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    const QJsonValue root = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    const QJsonValue envelope = root.toObject().value(QStringLiteral("data"));
    (void)LambdaProvider::parseInstanceTypes(envelope);
    (void)LambdaProvider::parseInstanceTypes(root);
    (void)RunPodProvider::parseCatalog(root);
    const QList<InstanceType> offers = VastProvider::parseOffers(root);
    (void)groupPrices(offers);
    (void)groupPrices(ShadeformProvider::parseTypes(root));
    (void)VastProvider::parseSshKeys(root);
    (void)ShadeformProvider::parseSshKeys(root);
    objects(root.toObject().value(QStringLiteral("instances")));
    objects(root);
    objects(envelope);
    for (const QByteArray &line : body.split('\n')) {
        (void)RunPodProvider::keyFromLine(QString::fromUtf8(line));
        (void)HttpClient::parseRetryAfter(line);
        (void)parseGpuModel(QString::fromUtf8(line));
        QString gpu;
        int count = 0;
        (void)parseGpuSpec(QString::fromUtf8(line), &gpu, &count);
    }
    return 0;
}
