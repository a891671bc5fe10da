#pragma once

// What every harness shares: the libFuzzer entry point's declaration and the input as Qt types.
// Each harness defines LLVMFuzzerTestOneInput; libFuzzer (GANTRY_FUZZ=ON) or replaymain.cpp
// (the regular build's ctest) calls it.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
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

// A directory for the files a harness writes per input, removed at exit. In /dev/shm where there
// is one: on ext4 a file truncated and rewritten is flushed to disk when closed (auto_da_alloc),
// 1.5 ms per input against 0.1 ms on tmpfs, which made the file-based harnesses run at a few
// hundred inputs a second.
inline QString scratchDir()
{
    static QTemporaryDir dir(QFileInfo(QStringLiteral("/dev/shm")).isWritable()
                                 ? QStringLiteral("/dev/shm/gantry-fuzz-XXXXXX")
                                 : QDir::tempPath() + QStringLiteral("/gantry-fuzz-XXXXXX"));
    return dir.path();
}

// The input as a file, for parsers that take a path (ssh_config, known_hosts). One directory per
// process, rewritten on every input.
inline QString asFile(const QByteArray &content, const QString &name = QStringLiteral("input"))
{
    const QString path = scratchDir() + QLatin1Char('/') + name;
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered)) {
        file.write(content);
    }
    return path;
}

} // namespace gantry::fuzz
