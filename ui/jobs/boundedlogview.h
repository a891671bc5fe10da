#pragma once

#include <QPlainTextEdit>

namespace gantry::ui {

// A read-only log that keeps only its last maxBytes (training logs grow for days), and stays
// scrolled to the end unless the user scrolled up to read.
class BoundedLogView final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BoundedLogView)

public:
    explicit BoundedLogView(QWidget *parent = nullptr);

    void setMaxBytes(qint64 bytes) { m_maxChars = bytes; }
    qint64 maxBytes() const { return m_maxChars; }
    void appendData(const QByteArray &data);
    void clearLog();

private:
    qint64 m_maxChars = 4 * 1024 * 1024;
    QByteArray m_partialUtf8; // a multi-byte character split across chunks
};

} // namespace gantry::ui
