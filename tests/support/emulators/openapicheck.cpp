// SPDX-License-Identifier: Apache-2.0
#include "openapicheck.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#ifdef GANTRY_HAVE_YAML
#include <yaml-cpp/yaml.h>
#endif

namespace gantry::test {
namespace {

#ifdef GANTRY_HAVE_YAML
QJsonValue fromYaml(const YAML::Node &node)
{
    if (node.IsMap()) {
        QJsonObject object;
        for (const auto &item : node)
            object.insert(QString::fromStdString(item.first.as<std::string>()), fromYaml(item.second));
        return object;
    }
    if (node.IsSequence()) {
        QJsonArray array;
        for (const auto &item : node)
            array.append(fromYaml(item));
        return array;
    }
    if (!node.IsScalar())
        return QJsonValue();
    const std::string text = node.Scalar();
    if (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str")
        return QString::fromStdString(text); // quoted: a string even if it looks like a number
    bool flag = false;
    if (YAML::convert<bool>::decode(node, flag) && (text == "true" || text == "false"))
        return flag;
    bool ok = false;
    const double number = QString::fromStdString(text).toDouble(&ok);
    return ok ? QJsonValue(number) : QJsonValue(QString::fromStdString(text));
}
#endif

bool isType(const QJsonValue &value, const QString &type)
{
    if (type == QLatin1String("object"))
        return value.isObject();
    if (type == QLatin1String("array"))
        return value.isArray();
    if (type == QLatin1String("string"))
        return value.isString();
    if (type == QLatin1String("boolean"))
        return value.isBool();
    if (type == QLatin1String("null"))
        return value.isNull();
    if (type == QLatin1String("integer"))
        return value.isDouble() && value.toDouble() == double(qint64(value.toDouble()));
    if (type == QLatin1String("number"))
        return value.isDouble();
    return true;
}

} // namespace

QString OpenApiDocument::folder()
{
    const QString dir = QStringLiteral(GANTRY_PROVIDER_DOCS);
    return QDir(dir).exists() ? dir : QString();
}

bool OpenApiDocument::load(const QString &fileName, QString *error)
{
    const QString path = QDir(folder()).filePath(fileName);
    if (fileName.endsWith(QLatin1String(".json"))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = file.errorString();
            return false;
        }
        m_root = QJsonDocument::fromJson(file.readAll()).object();
        return !m_root.isEmpty();
    }
#ifdef GANTRY_HAVE_YAML
    try {
        m_root = fromYaml(YAML::LoadFile(path.toStdString())).toObject();
    } catch (const std::exception &e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    return !m_root.isEmpty();
#else
    *error = QStringLiteral("built without yaml-cpp");
    return false;
#endif
}

QJsonObject OpenApiDocument::resolve(const QJsonObject &schema) const
{
    const QString ref = schema.value(QLatin1String("$ref")).toString();
    if (ref.isEmpty())
        return schema;
    QJsonValue at = m_root;
    for (const QString &part : ref.mid(2).split(QLatin1Char('/')))
        at = at.toObject().value(part);
    return resolve(at.toObject());
}

bool OpenApiDocument::hasOperation(const QByteArray &method, const QString &path) const
{
    return m_root.value(QLatin1String("paths")).toObject().value(path).toObject().contains(QString::fromLatin1(method).toLower());
}

QStringList OpenApiDocument::check(const QByteArray &method, const QString &path, const QJsonObject &body) const
{
    if (!hasOperation(method, path))
        return {QStringLiteral("%1 %2 is not in the document").arg(QString::fromLatin1(method), path)};
    const QJsonObject operation = m_root.value(QLatin1String("paths")).toObject().value(path).toObject()
                                      .value(QString::fromLatin1(method).toLower()).toObject();
    const QJsonObject schema = resolve(operation.value(QLatin1String("requestBody")).toObject()).value(QLatin1String("content"))
                                   .toObject().value(QLatin1String("application/json")).toObject().value(QLatin1String("schema")).toObject();
    QStringList out;
    if (schema.isEmpty()) {
        if (!body.isEmpty())
            out.append(QStringLiteral("%1 %2 takes no body").arg(QString::fromLatin1(method), path));
        return out;
    }
    checkValue(body, schema, QStringLiteral("body"), &out);
    return out;
}

void OpenApiDocument::checkValue(const QJsonValue &value, const QJsonObject &raw, const QString &where, QStringList *out) const
{
    const QJsonObject schema = resolve(raw);
    for (const QJsonValue &part : schema.value(QLatin1String("allOf")).toArray())
        checkValue(value, part.toObject(), where, out);
    const QJsonValue type = schema.value(QLatin1String("type"));
    QStringList types;
    for (const QJsonValue &t : type.isArray() ? type.toArray() : QJsonArray{type})
        if (t.isString())
            types.append(t.toString());
    if (!types.isEmpty() && std::none_of(types.cbegin(), types.cend(), [&](const QString &t) { return isType(value, t); }))
        return out->append(QStringLiteral("%1: not %2").arg(where, types.join(QLatin1Char('|'))));
    const QJsonArray choices = schema.value(QLatin1String("enum")).toArray();
    if (!choices.isEmpty() && !choices.contains(value))
        out->append(QStringLiteral("%1: not one of the enum").arg(where));
    if (value.isDouble()) {
        if (schema.contains(QLatin1String("minimum")) && value.toDouble() < schema.value(QLatin1String("minimum")).toDouble())
            out->append(QStringLiteral("%1: below the minimum").arg(where));
        if (schema.contains(QLatin1String("maximum")) && value.toDouble() > schema.value(QLatin1String("maximum")).toDouble())
            out->append(QStringLiteral("%1: above the maximum").arg(where));
    }
    if (value.isString()) {
        const QString text = value.toString();
        if (text.size() < schema.value(QLatin1String("minLength")).toInt(0)
            || (schema.contains(QLatin1String("maxLength")) && text.size() > schema.value(QLatin1String("maxLength")).toInt()))
            out->append(QStringLiteral("%1: length out of bounds").arg(where));
        const QString pattern = schema.value(QLatin1String("pattern")).toString();
        if (!pattern.isEmpty() && !QRegularExpression(pattern).match(text).hasMatch())
            out->append(QStringLiteral("%1: does not match %2").arg(where, pattern));
    }
    if (value.isArray()) {
        const QJsonArray items = value.toArray();
        if (schema.contains(QLatin1String("maxItems")) && items.size() > schema.value(QLatin1String("maxItems")).toInt())
            out->append(QStringLiteral("%1: too many items").arg(where));
        for (qsizetype i = 0; i < items.size(); ++i)
            checkValue(items.at(i), schema.value(QLatin1String("items")).toObject(), QStringLiteral("%1[%2]").arg(where).arg(i), out);
    }
    if (!value.isObject())
        return;
    const QJsonObject object = value.toObject();
    const QJsonObject properties = schema.value(QLatin1String("properties")).toObject();
    for (const QJsonValue &name : schema.value(QLatin1String("required")).toArray()) {
        if (!object.contains(name.toString()))
            out->append(QStringLiteral("%1.%2: required").arg(where, name.toString()));
    }
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (properties.contains(it.key()))
            checkValue(it.value(), properties.value(it.key()).toObject(), where + QLatin1Char('.') + it.key(), out);
        else if (schema.value(QLatin1String("additionalProperties")) == QJsonValue(false))
            out->append(QStringLiteral("%1.%2: not allowed").arg(where, it.key()));
    }
}

} // namespace gantry::test
