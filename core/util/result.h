#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace gantry {

// Failure categories callers branch on; the message is what a user reads.
enum class ErrorCode
{
    Generic,
    Usage,
    Cancelled,
    Timeout,
    ConnectFailed,
    AuthFailed,
    HostKeyUnknown,
    HostKeyChanged,
    RemoteFailed,
    NotFound,
    PermissionDenied,
    DiskFull,
    Conflict,
    Provider,
    Io,
    Parse,
};

// An error carries the cause and the next step in one sentence or two, ready to show.
struct Error
{
    ErrorCode code = ErrorCode::Generic;
    QString message;

    static Error make(ErrorCode code, QString message) { return Error{code, std::move(message)}; }
};

// A small std::expected stand-in (C++20 has none): either a value or an Error.
template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_data); }
    const T &value() const & { return std::get<0>(m_data); }
    T &&value() && { return std::get<0>(std::move(m_data)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const Error &error() const { return std::get<1>(m_data); }
    T valueOr(T fallback) const { return ok() ? value() : std::move(fallback); }

private:
    std::variant<T, Error> m_data;
};

template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

inline Error makeError(ErrorCode code, QString message)
{
    return Error{code, std::move(message)};
}

} // namespace gantry
