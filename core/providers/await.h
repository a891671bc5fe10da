#pragma once

#include "core/providers/providertypes.h"
#include "core/providers/providerstext.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>

#include <memory>
#include <optional>

namespace gantry::providers {

// Runs an asynchronous provider call to completion on a local event loop: for the CLI and tests,
// never for GUI code. start receives the callback to hand to the provider.
template<typename T, typename Start>
Result<T> await(Start &&start, int timeoutMs = 180000)
{
    struct State
    {
        std::optional<Result<T>> result;
        QEventLoop loop;
    };
    auto state = std::make_shared<State>();
    std::weak_ptr<State> weak = state;
    start(Callback<T>([weak](Result<T> result) {
        if (auto alive = weak.lock()) {
            alive->result.emplace(std::move(result));
            alive->loop.quit();
        }
    }));
    if (!state->result) {
        QTimer::singleShot(timeoutMs, &state->loop, &QEventLoop::quit);
        state->loop.exec();
    }
    if (!state->result)
        return Error{ErrorCode::Timeout, ProvidersText::tr("The provider did not answer in time.")};
    return std::move(*state->result);
}

} // namespace gantry::providers
