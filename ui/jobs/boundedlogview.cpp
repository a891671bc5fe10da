#include "ui/jobs/boundedlogview.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTextCursor>

namespace gantry::ui {

BoundedLogView::BoundedLogView(QWidget *parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Select a job to see its output since it started."));
}

void BoundedLogView::clearLog()
{
    m_partialUtf8.clear();
    clear();
}

void BoundedLogView::appendData(const QByteArray &data)
{
    QByteArray bytes = m_partialUtf8 + data;
    // Hold back an incomplete UTF-8 sequence at the end for the next chunk.
    qsizetype cut = bytes.size();
    for (qsizetype i = bytes.size() - 1; i >= 0 && i >= bytes.size() - 4; --i) {
        const uchar c = uchar(bytes[i]);
        if ((c & 0xC0) == 0x80)
            continue;
        const int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (bytes.size() - i < need)
            cut = i;
        break;
    }
    m_partialUtf8 = bytes.mid(cut);
    QString text = QString::fromUtf8(bytes.left(cut));
    text.remove(u'\r'); // progress bars redraw with \r; keep their last state per line readable
    QScrollBar *bar = verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    const qint64 excess = document()->characterCount() - m_maxChars;
    if (excess > 0) {
        QTextCursor head(document());
        head.movePosition(QTextCursor::Start);
        head.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor, int(excess));
        // Cut at a line start so the first visible line is whole.
        head.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        head.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
        head.removeSelectedText();
    }
    if (atEnd)
        bar->setValue(bar->maximum());
}

} // namespace gantry::ui
