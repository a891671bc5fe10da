#pragma once

#include <QByteArray>
#include <QList>

// Ignore patterns with git's semantics (gitignore(5)): blank lines and '#' comments, '!' negation,
// a trailing '/' for folders only, a '/' at the start or in the middle anchors the pattern to the
// folder of the file that holds it, else it matches a name at any depth; '*', '?', '[…]' never
// match '/', and "**" as a whole path component matches any number of folders. The last matching
// pattern decides, and patterns from deeper files come later, so they win. Names are bytes: a
// name that is not valid UTF-8 matches byte for byte.
namespace gantry::sync {

class IgnoreRules
{
public:
    enum class Verdict
    {
        None,     // no pattern matched
        Ignored,
        Included, // a negated pattern matched last
    };

    // Adds the lines of an ignore file (.gitignore, .gantryignore) that sits in the folder base
    // ('/'-separated, relative to the synced folder; empty for its top).
    void addFile(const QByteArray &base, const QByteArray &content);
    // Adds one pattern as if it were written in base's ignore file (--exclude uses base "").
    void addPattern(const QByteArray &base, const QByteArray &line);

    // The verdict for path (relative to the synced folder, no leading '/'); isDir for folders.
    Verdict match(const QByteArray &path, bool isDir) const;
    bool ignored(const QByteArray &path, bool isDir) const { return match(path, isDir) == Verdict::Ignored; }
    // The verdict for path itself, its folders not looked at (a scan that does not enter
    // ignored folders needs no more).
    Verdict matchSelf(const QByteArray &path, bool isDir) const;
    bool isEmpty() const { return m_patterns.isEmpty(); }

    // git's wildmatch with WM_PATHNAME: glob against text, '/' matched only literally or by "**".
    static bool wildmatch(const QByteArray &pattern, const QByteArray &text);

private:
    struct Pattern
    {
        QByteArray base;     // folder of the ignore file, "" or "a/b"
        QByteArray glob;
        bool negated = false;
        bool dirOnly = false;
        bool anchored = false; // matched against the path below base, not just the name
    };
    QList<Pattern> m_patterns;
};

} // namespace gantry::sync
