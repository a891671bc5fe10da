#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace gantry::transfer {

// Incremental SHA-256 through OpenSSL's libcrypto (SHA-NI where available; several times faster
// than QCryptographicHash, which matters at GB sizes).
class Sha256 final
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void add(const char *data, size_t length);
    void add(const QByteArray &data) { add(data.constData(), size_t(data.size())); }
    QByteArray hexDigest(); // finalises; lower-case hex

    static QByteArray hex(const QByteArray &data);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// Hashes a local file; progress(bytesSoFar) is called now and then.
Result<QByteArray> sha256OfFile(const QString &path, const std::atomic_bool *cancel = nullptr,
                                const std::function<void(quint64)> &progress = {});

} // namespace gantry::transfer
