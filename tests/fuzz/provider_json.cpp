// Provider API bodies (Lambda, RunPod) as the parsers see them, then what Gantry derives from an
// instance: its saved host and the ssh_config entry written for it.
#include "fuzzinput.h"
#include "providers/httpclient.h"
#include "providers/instancehosts.h"
#include "providers/lambdaprovider.h"
#include "providers/runpodprovider.h"
#include "sshconfig/managedblock.h"
#include "sshconfig/sshconfigfile.h"

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
    objects(root);
    objects(envelope);
    for (const QByteArray &line : body.split('\n')) {
        (void)RunPodProvider::keyFromLine(QString::fromUtf8(line));
        (void)HttpClient::parseRetryAfter(line);
    }
    return 0;
}
