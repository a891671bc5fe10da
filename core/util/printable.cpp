#include "core/util/printable.h"

namespace gantry::text {
namespace {

// Whether the character at i must be escaped; a valid surrogate pair (an emoji) is kept whole.
bool needsEscape(const QString &text, qsizetype i, bool keepLines)
{
    const QChar c = text.at(i);
    if (keepLines && (c == u'\n' || c == u'\t'))
        return false;
    if (c.isHighSurrogate())
        return i + 1 >= text.size() || !text.at(i + 1).isLowSurrogate();
    if (c.isLowSurrogate())
        return i == 0 || !text.at(i - 1).isHighSurrogate();
    const QChar::Category category = c.category();
    return category == QChar::Other_Control || category == QChar::Other_Format
           || category == QChar::Separator_Line || category == QChar::Separator_Paragraph;
}

QString escaped(const QString &text, bool keepLines)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (!needsEscape(text, i, keepLines))
            out += text.at(i);
        else if (c < 0x100)
            out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
        else
            out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
    }
    return out;
}

} // namespace

QString printable(const QString &text)
{
    return isPrintable(text) ? text : escaped(text, false);
}

QString printableLines(const QString &text)
{
    return escaped(text, true);
}

bool isPrintable(const QString &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (needsEscape(text, i, false))
            return false;
    }
    return true;
}

} // namespace gantry::text
