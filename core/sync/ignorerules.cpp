#include "core/sync/ignorerules.h"

#include <algorithm>
#include <cctype>

namespace gantry::sync {

namespace {

// "[…]" at p (just after '['): whether c is in the class; *end is set after the ']'. false with
// *end = nullptr when the class never closes (git then matches nothing).
bool classMatches(const char *p, const char *pe, char c, const char **end)
{
    *end = nullptr;
    bool negate = false;
    if (p < pe && (*p == '!' || *p == '^')) {
        negate = true;
        ++p;
    }
    bool found = false;
    bool first = true;
    while (p < pe && (*p != ']' || first)) {
        first = false;
        if (*p == '[' && p + 1 < pe && p[1] == ':') {
            const char *close = p + 2;
            while (close + 1 < pe && !(close[0] == ':' && close[1] == ']')) ++close;
            if (close + 1 < pe) {
                const QByteArray name(p + 2, close - (p + 2));
                const auto uc = static_cast<unsigned char>(c);
                if ((name == "alpha" && std::isalpha(uc)) || (name == "digit" && std::isdigit(uc))
                    || (name == "alnum" && std::isalnum(uc)) || (name == "upper" && std::isupper(uc))
                    || (name == "lower" && std::islower(uc)) || (name == "space" && std::isspace(uc))
                    || (name == "punct" && std::ispunct(uc)) || (name == "xdigit" && std::isxdigit(uc))) {
                    found = true;
                }
                p = close + 2;
                continue;
            }
        }
        char lo = *p;
        if (lo == '\\' && p + 1 < pe) lo = *++p;
        ++p;
        char hi = lo;
        if (p + 1 < pe && *p == '-' && p[1] != ']') {
            hi = p[1];
            if (hi == '\\' && p + 2 < pe) hi = *(p += 1, p + 1);
            p += 2;
        }
        if (c >= lo && c <= hi) found = true;
    }
    if (p >= pe) return false;
    *end = p + 1;
    return found != negate;
}

bool wm(const char *start, const char *p, const char *pe, const char *t, const char *te)
{
    while (p < pe) {
        const char c = *p;
        if (c == '*') {
            const char *q = p;
            while (q < pe && *q == '*') ++q;
            const bool doubleStar = q - p >= 2;
            if (doubleStar && (p == start || p[-1] == '/') && (q == pe || *q == '/')) {
                if (q == pe) return true; // "…/**": everything below
                // "**/": zero or more whole folders.
                if (wm(start, q + 1, pe, t, te)) return true;
                for (const char *s = t; s < te; ++s) {
                    if (*s == '/' && wm(start, q + 1, pe, s + 1, te)) return true;
                }
                return false;
            }
            p = q; // other runs of '*' are one '*'
            if (p == pe) return std::find(t, te, '/') == te;
            for (const char *s = t;; ++s) {
                if (wm(start, p, pe, s, te)) return true;
                if (s == te || *s == '/') return false;
            }
        }
        if (t == te) return false;
        if (c == '?') {
            if (*t == '/') return false;
        } else if (c == '[') {
            const char *end = nullptr;
            const bool in = classMatches(p + 1, pe, *t, &end);
            if (!end || *t == '/' || !in) return false;
            p = end;
            ++t;
            continue;
        } else {
            char literal = c;
            if (c == '\\' && p + 1 < pe) literal = *++p;
            if (*t != literal) return false;
        }
        ++p;
        ++t;
    }
    return t == te;
}

} // namespace

bool IgnoreRules::wildmatch(const QByteArray &pattern, const QByteArray &text)
{
    const char *p = pattern.constData();
    return wm(p, p, p + pattern.size(), text.constData(), text.constData() + text.size());
}

void IgnoreRules::addFile(const QByteArray &base, const QByteArray &content)
{
    for (const QByteArray &line : content.split('\n')) addPattern(base, line);
}

void IgnoreRules::addPattern(const QByteArray &base, const QByteArray &raw)
{
    QByteArray line = raw;
    if (line.endsWith('\r')) line.chop(1);
    // Trailing spaces go unless escaped with a backslash ("foo\ " keeps one).
    while (line.endsWith(' ') && !(line.size() >= 2 && line[line.size() - 2] == '\\')) line.chop(1);
    if (line.isEmpty() || line.startsWith('#')) return;
    Pattern p;
    p.base = base;
    if (line.startsWith('!')) {
        p.negated = true;
        line = line.mid(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
        line = line.mid(1);
    }
    if (line.endsWith('/') && !line.endsWith("\\/")) {
        p.dirOnly = true;
        line.chop(1);
    }
    if (line.isEmpty()) return;
    p.anchored = line.contains('/');
    if (line.startsWith('/')) line = line.mid(1);
    if (line.isEmpty()) return;
    p.glob = line;
    m_patterns.append(p);
}

IgnoreRules::Verdict IgnoreRules::matchSelf(const QByteArray &path, bool isDir) const
{
    const qsizetype slash = path.lastIndexOf('/');
    for (qsizetype i = m_patterns.size() - 1; i >= 0; --i) {
        const Pattern &p = m_patterns[i];
        if (p.dirOnly && !isDir) continue;
        QByteArray rel = path;
        if (!p.base.isEmpty()) {
            if (!path.startsWith(p.base) || path.size() <= p.base.size() || path[p.base.size()] != '/') continue;
            rel = path.mid(p.base.size() + 1);
        }
        const bool hit = p.anchored ? wildmatch(p.glob, rel)
                                    : wildmatch(p.glob, slash < 0 ? path : path.mid(slash + 1));
        if (hit) return p.negated ? Verdict::Included : Verdict::Ignored;
    }
    return Verdict::None;
}

IgnoreRules::Verdict IgnoreRules::match(const QByteArray &path, bool isDir) const
{
    // A file inside an ignored folder stays ignored whatever its own patterns say: git does not
    // look into excluded folders, so it cannot re-include what is below them.
    for (qsizetype i = path.indexOf('/'); i > 0; i = path.indexOf('/', i + 1)) {
        if (matchSelf(path.left(i), true) == Verdict::Ignored) return Verdict::Ignored;
    }
    return matchSelf(path, isDir);
}

} // namespace gantry::sync
