// A minimal ordered JSON value with a serialiser: enough for the gantry-verify/1 document.
#pragma once

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gv {

class Json {
public:
    enum class Kind { Null, Bool, Number, Integer, String, Array, Object };

    Json() = default;
    Json(std::nullptr_t) {}
    Json(bool b) : kind_(Kind::Bool), b_(b) {}
    Json(double d) : kind_(std::isfinite(d) ? Kind::Number : Kind::Null), d_(d) {}
    Json(int i) : kind_(Kind::Integer), i_(i) {}
    Json(long long i) : kind_(Kind::Integer), i_(i) {}
    Json(unsigned u) : kind_(Kind::Integer), i_(static_cast<long long>(u)) {}
    Json(unsigned long long u) : kind_(Kind::Integer), i_(static_cast<long long>(u)) {}
    Json(unsigned long u) : kind_(Kind::Integer), i_(static_cast<long long>(u)) {}
    Json(long l) : kind_(Kind::Integer), i_(l) {}
    Json(const char* s) : kind_(Kind::String), s_(s) {}
    Json(std::string s) : kind_(Kind::String), s_(std::move(s)) {}
    template <typename T>
    Json(const std::optional<T>& o)
    {
        if (o) *this = Json(*o);
    }

    static Json array() { Json j; j.kind_ = Kind::Array; return j; }
    static Json object() { Json j; j.kind_ = Kind::Object; return j; }

    Json& push(Json v)
    {
        if (kind_ != Kind::Array) *this = array();
        items_.emplace_back(std::string(), std::move(v));
        return *this;
    }
    // Sets (or replaces) a key, keeping insertion order.
    Json& set(const std::string& key, Json v)
    {
        if (kind_ != Kind::Object) *this = object();
        for (auto& kv : items_) {
            if (kv.first == key) {
                kv.second = std::move(v);
                return *this;
            }
        }
        items_.emplace_back(key, std::move(v));
        return *this;
    }
    bool empty() const { return items_.empty(); }
    Kind kind() const { return kind_; }

    std::string dump(int indent = 1) const
    {
        std::string out;
        write(out, indent, 0);
        return out;
    }

private:
    static void escape(std::string& out, const std::string& s)
    {
        out += '"';
        for (unsigned char c : s) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
            }
        }
        out += '"';
    }

    void write(std::string& out, int indent, int depth) const
    {
        const auto nl = [&](int d) {
            if (indent <= 0) return;
            out += '\n';
            out.append(static_cast<size_t>(d * indent), ' ');
        };
        switch (kind_) {
        case Kind::Null: out += "null"; break;
        case Kind::Bool: out += b_ ? "true" : "false"; break;
        case Kind::Integer: out += std::to_string(i_); break;
        case Kind::Number: {
            char buf[40];
            // Up to 4 decimals, trailing zeros trimmed: 4210.5, 0.857, 58.2.
            std::snprintf(buf, sizeof buf, "%.4f", d_);
            std::string s(buf);
            if (s.find('.') != std::string::npos) {
                while (!s.empty() && s.back() == '0') s.pop_back();
                if (!s.empty() && s.back() == '.') s.pop_back();
            }
            if (s == "-0") s = "0";
            out += s;
            break;
        }
        case Kind::String: escape(out, s_); break;
        case Kind::Array:
        case Kind::Object: {
            const bool obj = kind_ == Kind::Object;
            out += obj ? '{' : '[';
            if (items_.empty()) {
                out += obj ? '}' : ']';
                break;
            }
            // Arrays of scalars stay on one line.
            bool scalars = !obj;
            for (const auto& kv : items_)
                if (kv.second.kind_ == Kind::Array || kv.second.kind_ == Kind::Object) scalars = false;
            bool first = true;
            for (const auto& kv : items_) {
                if (!first) out += scalars ? ", " : ",";
                first = false;
                if (!scalars) nl(depth + 1);
                if (obj) {
                    escape(out, kv.first);
                    out += ": ";
                }
                kv.second.write(out, indent, depth + 1);
            }
            if (!scalars) nl(depth);
            out += obj ? '}' : ']';
            break;
        }
        }
    }

    Kind kind_ = Kind::Null;
    bool b_ = false;
    double d_ = 0;
    long long i_ = 0;
    std::string s_;
    std::vector<std::pair<std::string, Json>> items_;
};

} // namespace gv
