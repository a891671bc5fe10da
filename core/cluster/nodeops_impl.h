#pragma once

// The template of nodeops.h: one std::thread per node, each with its own session (the threading
// contract of core/ssh/session.h).

#include "core/ssh/session.h"

#include <optional>
#include <thread>
#include <vector>

namespace gantry::cluster {

template<typename T>
std::vector<Result<T>> forEachNode(const Cluster &cluster, const NodeConnector &connect,
                                   const std::function<Result<T>(int rank, ssh::Session &session)> &work)
{
    const int n = int(cluster.nodes.size());
    std::vector<std::optional<Result<T>>> results(static_cast<size_t>(n));
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(n));
    for (int rank = 0; rank < n; ++rank) {
        threads.emplace_back([&, rank] {
            Result<std::unique_ptr<ssh::Session>> session = connect(cluster.nodes.at(rank), rank);
            if (!session)
                results[static_cast<size_t>(rank)].emplace(session.error());
            else
                results[static_cast<size_t>(rank)].emplace(work(rank, **session));
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    std::vector<Result<T>> out;
    out.reserve(results.size());
    for (auto &result : results)
        out.push_back(std::move(*result));
    return out;
}

} // namespace gantry::cluster
