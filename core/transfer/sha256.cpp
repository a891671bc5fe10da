#include "core/transfer/sha256.h"
#include "core/transfer/transfertext.h"

#include <openssl/evp.h>

#include <QCoreApplication>
#include <QFile>

namespace gantry::transfer {

struct Sha256::State
{
    EVP_MD_CTX *ctx = nullptr;
};

Sha256::Sha256()
    : m_state(std::make_unique<State>())
{
    m_state->ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(m_state->ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(m_state->ctx);
}

void Sha256::add(const char *data, size_t length)
{
    EVP_DigestUpdate(m_state->ctx, data, length);
}

QByteArray Sha256::hexDigest()
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(m_state->ctx, md, &len);
    return QByteArray(reinterpret_cast<const char *>(md), int(len)).toHex();
}

QByteArray Sha256::hex(const QByteArray &data)
{
    Sha256 h;
    h.add(data);
    return h.hexDigest();
}

Result<QByteArray> sha256OfFile(const QString &path, const std::atomic_bool *cancel,
                                const std::function<void(quint64)> &progress)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return Error{ErrorCode::Io, TransferText::tr("Cannot read %1: %2.")
                                        .arg(path, file.errorString())};
    }
    Sha256 hash;
    QByteArray buf(1 << 20, Qt::Uninitialized);
    quint64 total = 0;
    for (;;) {
        if (cancel && cancel->load()) {
            return Error{ErrorCode::Cancelled, TransferText::tr("Cancelled.")};
        }
        const qint64 n = file.read(buf.data(), buf.size());
        if (n < 0) {
            return Error{ErrorCode::Io, TransferText::tr("Cannot read %1: %2.")
                                            .arg(path, file.errorString())};
        }
        if (n == 0) break;
        hash.add(buf.constData(), size_t(n));
        total += quint64(n);
        if (progress) progress(total);
    }
    return hash.hexDigest();
}

} // namespace gantry::transfer
