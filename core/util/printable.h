#pragma once

#include <QString>

namespace gantry::text {

// Text from a remote host or a provider made safe to print on a terminal or show in a list:
// control characters (ESC, CR, BEL, C1), invisible format characters (bidi overrides, zero-width
// marks) and lone surrogates become visible escapes such as "\x1b" or "\u202e", so a hostile
// file name cannot move the cursor, retitle the window or hide part of a line.
QString printable(const QString &text);
// The same, but keeps newlines and tabs: for multi-line messages (a provider's error text).
QString printableLines(const QString &text);
// True when printable() would change nothing.
bool isPrintable(const QString &text);

} // namespace gantry::text
