# A torchrun job in which one rank (GANTRY_TEST_FAIL_RANK) exits 3 before joining the process
# group; the others would wait in init_process_group for 30 minutes unless Gantry stops them.
import os, sys
if os.environ.get("NODE_RANK") == os.environ.get("GANTRY_TEST_FAIL_RANK"):
    print("rank %s fails on purpose" % os.environ["NODE_RANK"], flush=True)
    sys.exit(3)
import torch.distributed as dist
dist.init_process_group("gloo")
dist.barrier()
print("rank %d passed the barrier" % dist.get_rank(), flush=True)
