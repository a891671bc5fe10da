# SPDX-License-Identifier: Apache-2.0
# Gantry's multi-GPU figures for the acceptance test: GPU-to-GPU copy bandwidth (NVLink or PCIe
# peer) from GPU 0 to every other GPU, and the NCCL all-reduce bus bandwidth over all GPUs (one
# process per GPU, as nccl-tests' all_reduce_perf measures it: busbw = algbw * 2(n-1)/n).
# Run from a file (spawned ranks import it):  python3 FILE BACKEND DEVICE SIZE_MIB SECONDS [PROCESSES]
#   BACKEND nccl | gloo, DEVICE cuda | cpu (Gantry passes nccl cuda; gloo cpu lets the same code
#   run on a machine without GPUs). Prints one JSON object on stdout, never a traceback.
import datetime
import json
import os
import sys
import time


def emit(doc):
    print(json.dumps(doc))
    sys.stdout.flush()
    sys.exit(0)


torch = None
dist = None


def gpu_count():
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def timed(step, sync, budget):
    """Seconds per step: two warm-ups, then steps until budget seconds passed (3 to 200 of them)."""
    step()
    step()
    sync()
    runs, started = 0, time.perf_counter()
    while runs < 3 or (time.perf_counter() - started < budget and runs < 200):
        step()
        runs += 1
    sync()
    return (time.perf_counter() - started) / runs


def peer_copies(size_mib, count, budget):
    nbytes = size_mib << 20
    results = []
    for dst in range(1, count):
        src_t = torch.empty(nbytes, dtype=torch.uint8, device="cuda:0")
        dst_t = torch.empty(nbytes, dtype=torch.uint8, device="cuda:%d" % dst)

        def sync():
            torch.cuda.synchronize(0)
            torch.cuda.synchronize(dst)

        per = timed(lambda: dst_t.copy_(src_t, non_blocking=True), sync, budget)
        results.append({"src": 0, "dst": dst, "gbs": nbytes / per / 1e9,
                        "peer_access": bool(torch.cuda.can_device_access_peer(0, dst))})
        del src_t, dst_t
    return results


def rank_main(rank, world, store, backend, device, size_mib, budget, queue):
    global torch, dist
    import torch
    import torch.distributed as dist
    try:
        # The ranks meet through a file in this script's private folder, not a TCP port picked
        # in advance (another process could take that port before rank 0 listened on it).
        dist.init_process_group(backend, init_method="file://" + store, rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=60))
        if device == "cuda":
            torch.cuda.set_device(rank)
        tensor = torch.ones((size_mib << 20) // 4, dtype=torch.float32,
                            device="cuda:%d" % rank if device == "cuda" else "cpu")

        def sync():
            if device == "cuda":
                torch.cuda.synchronize(rank)
            dist.barrier()

        per = timed(lambda: dist.all_reduce(tensor), sync, budget)
        if rank == 0:
            algbw = tensor.numel() * 4 / per / 1e9
            queue.put({"ranks": world, "algbw_gbs": algbw, "busbw_gbs": algbw * 2 * (world - 1) / world})
        dist.destroy_process_group()
    except Exception as e:  # noqa: BLE001 - reported, not raised
        if rank == 0:
            queue.put({"error": "all-reduce failed: %s" % e})


def all_reduce(backend, device, size_mib, processes, budget, timeout):
    import torch.multiprocessing as mp
    context = mp.get_context("spawn")
    queue = context.SimpleQueue()
    store = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rendezvous-%d" % os.getpid())
    procs = [context.Process(target=rank_main, args=(r, processes, store, backend, device, size_mib, budget, queue))
             for r in range(processes)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=timeout)
        if p.is_alive():
            p.kill()
    return queue.get() if not queue.empty() else {"error": "all-reduce gave no result (a rank died or hung)."}


def main():
    global torch, dist
    try:
        backend, device, size_mib, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        processes = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    except (IndexError, ValueError):
        emit({"error": "usage: python3 FILE BACKEND DEVICE SIZE_MIB SECONDS [PROCESSES]"})
    try:
        import torch
        import torch.distributed as dist
    except Exception as e:  # noqa: BLE001 - any import failure means "not measured here"
        emit({"error": "PyTorch is not importable: %s" % e, "torch": None})
    doc = {"torch": torch.__version__, "backend": backend, "device": device, "size_mib": size_mib, "gpus": 0}
    if device == "cuda":
        doc["gpus"] = processes = gpu_count()
        if processes < 2:
            doc["error"] = "PyTorch sees %d CUDA device(s): GPU-to-GPU figures need two or more." % processes
            emit(doc)
    half = max(seconds / 2, 0.2)
    if not dist.is_available() or not (dist.is_nccl_available() if backend == "nccl" else dist.is_gloo_available()):
        doc["allreduce_error"] = "PyTorch %s has no %s backend." % (torch.__version__, backend)
    else:
        result = all_reduce(backend, device, size_mib, processes, half, max(seconds * 4, 60))
        doc["allreduce" if "error" not in result else "allreduce_error"] = result.get("error", result)
    if device == "cuda":
        try:
            doc["p2p"] = peer_copies(size_mib, processes, half / (processes - 1))
        except Exception as e:  # noqa: BLE001
            doc["p2p_error"] = "GPU-to-GPU copy failed: %s" % e
    emit(doc)


if __name__ == "__main__":
    main()
