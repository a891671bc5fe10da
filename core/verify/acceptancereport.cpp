// SPDX-License-Identifier: Apache-2.0
// The acceptance test's result as data (--json) and as a printable page (--report, the GUI's Save).
#include "core/verify/acceptance.h"
#include "core/verify/verifytext.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSaveFile>

namespace gantry::verify {
namespace {

QJsonValue optionalNumber(std::optional<double> value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QString statusCell(const QString &status)
{
    return QStringLiteral("<td class=\"%1\">%2</td>").arg(status, status.toUpper());
}

QString factsTable(const Acceptance &a)
{
    QString price = VerifyText::tr("unknown");
    if (a.machine.hourlyPriceUsd > 0)
        price = QStringLiteral("$%1/h").arg(a.machine.hourlyPriceUsd, 0, 'f', 2);
    const QList<QPair<QString, QString>> rows{
        {VerifyText::tr("Host"), a.host},
        {VerifyText::tr("Provider"), a.machine.provider.isEmpty() ? VerifyText::tr("none (a host added by hand)") : a.machine.provider},
        {VerifyText::tr("Instance type"), a.machine.instanceType},
        {VerifyText::tr("Machine id"), a.machine.machineId},
        {VerifyText::tr("Price"), price},
        {VerifyText::tr("GPUs"), a.gpuNames.join(QStringLiteral(", "))},
        {VerifyText::tr("Driver / CUDA"), QStringLiteral("%1 / %2").arg(a.driverVersion, a.cudaVersion)},
        {VerifyText::tr("Method"), a.method},
        {VerifyText::tr("Started (UTC)"), a.started.toString(Qt::ISODate)},
        {VerifyText::tr("Finished (UTC)"), a.finished.toString(Qt::ISODate)},
    };
    QString html = QStringLiteral("<table class=\"facts\">");
    for (const auto &row : rows) {
        if (!row.second.isEmpty())
            html += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(esc(row.first), esc(row.second));
    }
    return html + QStringLiteral("</table>");
}

QString figuresTable(const Acceptance &a)
{
    if (a.figures.isEmpty())
        return {};
    QString html = QStringLiteral("<h2>%1</h2><table><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th></tr>")
                       .arg(esc(VerifyText::tr("Figures (the slowest GPU is the machine's)")), esc(VerifyText::tr("Measure")),
                            esc(VerifyText::tr("Measured")), esc(VerifyText::tr("Reference")), esc(VerifyText::tr("Ratio")),
                            esc(VerifyText::tr("Source")));
    for (const MachineFigure &f : a.figures) {
        const QString ratio = f.reference ? QStringLiteral("%1 %").arg(qRound(f.value / *f.reference * 100)) : QStringLiteral("—");
        html += QStringLiteral("<tr><td>%1</td><td>%2 %3 (GPU %4)</td><td>%5</td><td>%6</td><td>%7</td></tr>")
                    .arg(esc(f.measure), QString::number(f.value, 'f', 1), esc(f.unit))
                    .arg(f.gpu)
                    .arg(f.reference ? QString::number(*f.reference, 'f', 1) : QStringLiteral("—"), ratio, esc(f.source));
    }
    return html + QStringLiteral("</table>");
}

} // namespace

QJsonObject acceptanceToJson(const Acceptance &a)
{
    QJsonArray checks;
    for (const AcceptCheck &c : a.checks) {
        checks.append(QJsonObject{{QStringLiteral("gpu"), c.gpu ? QJsonValue(*c.gpu) : QJsonValue(QJsonValue::Null)},
                                  {QStringLiteral("name"), c.name},
                                  {QStringLiteral("status"), acceptStatusName(c.status)},
                                  {QStringLiteral("detail"), c.detail}});
    }
    QJsonArray figures;
    for (const MachineFigure &f : a.figures) {
        figures.append(QJsonObject{
            {QStringLiteral("measure"), f.measure},
            {QStringLiteral("gpu"), f.gpu},
            {QStringLiteral("value"), f.value},
            {QStringLiteral("unit"), f.unit},
            {QStringLiteral("reference"), optionalNumber(f.reference)},
            {QStringLiteral("ratio"), optionalNumber(f.reference ? std::optional<double>(f.value / *f.reference) : std::nullopt)},
            {QStringLiteral("source"), f.source}});
    }
    return QJsonObject{
        {QStringLiteral("verdict"), acceptVerdictName(a.verdict)},
        {QStringLiteral("reasons"), QJsonArray::fromStringList(a.reasons)},
        {QStringLiteral("checks"), checks},
        {QStringLiteral("figures"), figures},
        {QStringLiteral("next_step"), a.nextStep},
        {QStringLiteral("host"), a.host},
        {QStringLiteral("provider"), a.machine.provider},
        {QStringLiteral("machine_id"), a.machine.machineId},
        {QStringLiteral("price_per_hour"), a.machine.hourlyPriceUsd > 0 ? QJsonValue(a.machine.hourlyPriceUsd) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("driver"), a.driverVersion},
        {QStringLiteral("cuda"), a.cudaVersion},
        {QStringLiteral("method"), a.method},
        {QStringLiteral("gpus"), QJsonArray::fromStringList(a.gpuNames)},
        {QStringLiteral("started"), a.started.toString(Qt::ISODate)},
        {QStringLiteral("finished"), a.finished.toString(Qt::ISODate)},
    };
}

QString acceptanceHtml(const Acceptance &a)
{
    const QString verdict = acceptVerdictName(a.verdict);
    QString html = QStringLiteral(
                       "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title><style>"
                       "body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}"
                       "th,td{border:1px solid #bbb;padding:.3em .6em;text-align:left;vertical-align:top}"
                       ".facts th{background:#f3f3f3}.pass{color:#176117}.warn{color:#8a5a00}.fail{color:#a01010}"
                       ".skipped,.incomplete{color:#555}.verdict{font-size:1.6em;font-weight:bold}"
                       "@media print{body{margin:0}}</style></head><body>\n")
                       .arg(esc(VerifyText::tr("Acceptance test: %1").arg(a.host)));
    html += QStringLiteral("<h1>%1</h1>").arg(esc(VerifyText::tr("Acceptance test: %1").arg(a.host)));
    html += QStringLiteral("<p class=\"verdict %1\">%2</p><p>%3</p>").arg(verdict, verdict.toUpper(), esc(a.nextStep));
    if (!a.reasons.isEmpty()) {
        html += QStringLiteral("<ul>");
        for (const QString &reason : a.reasons)
            html += QStringLiteral("<li>%1</li>").arg(esc(reason));
        html += QStringLiteral("</ul>");
    }
    html += factsTable(a) + figuresTable(a);
    html += QStringLiteral("<h2>%1</h2><table><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
                .arg(esc(VerifyText::tr("Checks")), esc(VerifyText::tr("GPU")), esc(VerifyText::tr("Check")),
                     esc(VerifyText::tr("Status")), esc(VerifyText::tr("Detail")));
    for (const AcceptCheck &c : a.checks) {
        html += QStringLiteral("<tr><td>%1</td><td>%2</td>%3<td>%4</td></tr>")
                    .arg(c.gpu ? QString::number(*c.gpu) : VerifyText::tr("machine"), esc(c.name),
                         statusCell(acceptStatusName(c.status)), esc(c.detail));
    }
    html += QStringLiteral("</table><p>%1</p></body></html>\n")
                .arg(esc(VerifyText::tr("References are what healthy machines achieve, not datasheet peaks; each names its "
                                        "source. Made by Gantry's acceptance test.")));
    return html;
}

Result<void> writeAcceptanceReport(const QString &path, const Acceptance &acceptance)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot write %1: %2").arg(path, file.errorString()));
    file.write(acceptanceHtml(acceptance).toUtf8());
    if (!file.commit())
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

} // namespace gantry::verify
