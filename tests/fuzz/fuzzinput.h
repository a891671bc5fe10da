#pragma once

// What every harness shares: the libFuzzer entry point's declaration and the input as Qt types.
// Each harness defines LLVMFuzzerTestOneInput; libFuzzer (GANTRY_FUZZ=ON) or replaymain.cpp
// (the regular build's ctest) calls it.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace gantry::fuzz {

inline QByteArray bytes(const uint8_t *data, size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

inline QString text(const uint8_t *data, size_t size)
{
    return QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
}

// The input as a file, for parsers that take a path (ssh_config, known_hosts). One directory per
// process, rewritten on every input.
inline QString asFile(const QByteArray &content, const QString &name = QStringLiteral("input"))
{
    static QTemporaryDir dir;
    const QString path = dir.path() + QLatin1Char('/') + name;
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        file.write(content);
    }
    return path;
}

} // namespace gantry::fuzz
