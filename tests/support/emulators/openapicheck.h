// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace gantry::test {

// A vendor's OpenAPI document (tests/fixtures/providers), JSON or YAML, and the check of a
// request body against the schema its operation declares: types, required, additionalProperties
// false, enum, minimum/maximum, minLength/maxLength, pattern, maxItems, $ref and allOf. Enough to
// catch a body the vendor would reject, not a full JSON Schema validator.
class OpenApiDocument
{
public:
    // The document's folder, or "" where this checkout has none (the tests skip then).
    static QString folder();
    bool load(const QString &fileName, QString *error);
    // Violations of the body of `method path` (a path as the document spells it, e.g.
    // "/v2/network-volumes" or "/volumes/create"); empty when the body fits. An operation the
    // document lacks is itself a violation: no invented endpoints.
    QStringList check(const QByteArray &method, const QString &path, const QJsonObject &body) const;
    bool hasOperation(const QByteArray &method, const QString &path) const;

private:
    QJsonObject resolve(const QJsonObject &schema) const;
    void checkValue(const QJsonValue &value, const QJsonObject &schema, const QString &where, QStringList *out) const;

    QJsonObject m_root;
};

} // namespace gantry::test
